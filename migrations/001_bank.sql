-- The question bank: papers hold sections, sections hold questions.
CREATE TABLE papers (
  id               INTEGER PRIMARY KEY,
  slug             TEXT NOT NULL UNIQUE,
  title            TEXT NOT NULL,
  source_file      TEXT NOT NULL DEFAULT '',
  time_limit_min   INTEGER NOT NULL DEFAULT 60,
  attempts_allowed INTEGER,                       -- NULL: unlimited
  grading_method   TEXT NOT NULL DEFAULT 'best' CHECK (grading_method IN ('best', 'last')),
  multi_policy     TEXT NOT NULL DEFAULT 'partial'
                   CHECK (multi_policy IN ('all-or-nothing', 'partial', 'weighted')),
  exam_only        INTEGER NOT NULL DEFAULT 0,
  shuffle_options  INTEGER NOT NULL DEFAULT 1,
  notes            TEXT NOT NULL DEFAULT '[]',   -- JSON list of parse notes
  imported_at      REAL NOT NULL
);

CREATE TABLE sections (
  id             INTEGER PRIMARY KEY,
  paper_id       INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  position       INTEGER NOT NULL,                -- 1-based
  kind           TEXT NOT NULL,
  title          TEXT NOT NULL,
  points_each    REAL,
  declared_count INTEGER,
  UNIQUE (paper_id, position)
);

CREATE TABLE questions (
  id          INTEGER PRIMARY KEY,
  fingerprint TEXT NOT NULL UNIQUE,
  paper_id    INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  section_id  INTEGER NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
  number      INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('fill','single','multi','truefalse','short','discussion','case')),
  stem        TEXT NOT NULL,
  options     TEXT NOT NULL DEFAULT '[]',  -- JSON list of option texts, without letters
  answer      TEXT NOT NULL,               -- JSON, shape by kind (see bank/models.py)
  explanation TEXT NOT NULL DEFAULT '',
  points      REAL NOT NULL,
  flags       TEXT NOT NULL DEFAULT '[]',  -- JSON list
  topic       TEXT NOT NULL DEFAULT '',
  retired     INTEGER NOT NULL DEFAULT 0,  -- set by a lead, or when a re-import drops it
  UNIQUE (section_id, number)
);
CREATE INDEX questions_by_paper ON questions(paper_id, section_id, number);
