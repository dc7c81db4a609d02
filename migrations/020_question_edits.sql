-- /editq: every edit of a question (its key, its stem, an option, its explanation) is a version, not
-- only a dispute's key fix. key_versions stays the log of edits; its rows so far are key fixes.
ALTER TABLE key_versions ADD COLUMN field TEXT NOT NULL DEFAULT 'key';  -- key | stem | option:<n> | explanation

-- The text and key of a version a candidate may have been shown (the current version is also the
-- questions row). Filled for the key fixes made before: each fix's key and the key it replaced,
-- with today's text (a key fix never changed the text).
CREATE TABLE question_versions (
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  version     INTEGER NOT NULL,
  stem        TEXT NOT NULL,
  options     TEXT NOT NULL,   -- JSON, as questions.options
  answer      TEXT NOT NULL,   -- JSON, as questions.answer
  explanation TEXT NOT NULL,
  PRIMARY KEY (question_id, version)
);
INSERT OR IGNORE INTO question_versions (question_id, version, stem, options, answer, explanation)
  SELECT k.question_id, k.version, q.stem, q.options, k.answer, q.explanation
    FROM key_versions k JOIN questions q ON q.id = k.question_id;
INSERT OR IGNORE INTO question_versions (question_id, version, stem, options, answer, explanation)
  SELECT k.question_id, k.version - 1, q.stem, q.options, k.previous, q.explanation
    FROM key_versions k JOIN questions q ON q.id = k.question_id;

-- The version of its question a sheet shows (NULL on rows from before: the version the answer was
-- graded against, else the current one). An answer is graded against the version shown.
ALTER TABLE attempt_items ADD COLUMN version INTEGER;

-- Composed papers (/newpaper, `proctor paper compose`): a paper whose questions come from other
-- papers by a blueprint. `blueprint` is NULL for an imported paper; `per_candidate` draws anew for
-- every attempt (composed_items then holds the draw shown in lists).
ALTER TABLE papers ADD COLUMN blueprint TEXT;
ALTER TABLE papers ADD COLUMN per_candidate INTEGER NOT NULL DEFAULT 0;
CREATE TABLE composed_items (
  paper_id    INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  pos         INTEGER NOT NULL,            -- 0-based
  question_id INTEGER NOT NULL REFERENCES questions(id),
  section     TEXT NOT NULL,               -- the section title it is shown under
  points      REAL NOT NULL,
  PRIMARY KEY (paper_id, pos)
);

-- A lead's unfinished /editq or /newpaper (one at a time per lead): survives a restart.
CREATE TABLE authoring_sessions (
  user_id    INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL,                -- editq | newpaper
  state      TEXT NOT NULL,                -- JSON
  updated_at REAL NOT NULL
);
