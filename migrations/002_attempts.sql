-- Users, attempts and answers: the record of every exam and practice session.
CREATE TABLE users (
  id          INTEGER PRIMARY KEY,          -- Telegram user id
  first_name  TEXT NOT NULL DEFAULT '',
  username    TEXT,
  language    TEXT,                         -- 'en' | 'zh'; NULL: follow Telegram
  script      TEXT NOT NULL DEFAULT 'orig' CHECK (script IN ('orig', 'hans', 'hant')),
  created_at  REAL NOT NULL
);

CREATE TABLE attempts (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  chat_id       INTEGER NOT NULL,
  paper_id      INTEGER REFERENCES papers(id),   -- NULL: a random mock paper
  mode          TEXT NOT NULL CHECK (mode IN ('exam', 'practice')),
  title         TEXT NOT NULL,
  status        TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'cancelled')),
  started_at    REAL NOT NULL,
  deadline      REAL,                            -- NULL: untimed (practice)
  finished_at   REAL,
  finish_reason TEXT,                            -- 'submitted' | 'timeout' | 'cancelled'
  current_pos   INTEGER NOT NULL DEFAULT 0,
  message_id    INTEGER,                         -- the one message edited in place
  score         REAL,
  max_score     REAL,
  result_sent   INTEGER NOT NULL DEFAULT 0
);
-- at most one running attempt per user
CREATE UNIQUE INDEX attempts_one_running ON attempts(user_id) WHERE status = 'running';
CREATE INDEX attempts_by_deadline ON attempts(status, deadline);
CREATE INDEX attempts_by_paper ON attempts(paper_id, status);

CREATE TABLE attempt_items (
  attempt_id   INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  pos          INTEGER NOT NULL,                 -- 0-based order in the attempt
  question_id  INTEGER NOT NULL REFERENCES questions(id),
  section      TEXT NOT NULL,                    -- section title as shown
  points       REAL NOT NULL,
  option_order TEXT NOT NULL DEFAULT '',         -- e.g. 'CADB': shown letter i is original letter
  flagged      INTEGER NOT NULL DEFAULT 0,
  draft        TEXT NOT NULL DEFAULT '',         -- multi: toggled original letters, not yet submitted
  PRIMARY KEY (attempt_id, pos)
);

CREATE TABLE answers (
  attempt_id  INTEGER NOT NULL,
  pos         INTEGER NOT NULL,
  question_id INTEGER NOT NULL REFERENCES questions(id),
  response    TEXT NOT NULL,                     -- JSON: what the candidate gave
  score       REAL NOT NULL,
  max_score   REAL NOT NULL,
  verdict     TEXT NOT NULL CHECK (verdict IN ('correct', 'partial', 'wrong', 'needs_review')),
  final       INTEGER NOT NULL DEFAULT 1,        -- 0 while awaiting review
  answered_at REAL NOT NULL,
  reviewed_by INTEGER,
  reviewed_at REAL,
  PRIMARY KEY (attempt_id, pos),
  FOREIGN KEY (attempt_id, pos) REFERENCES attempt_items(attempt_id, pos) ON DELETE CASCADE
);
CREATE INDEX answers_by_question ON answers(question_id);
CREATE INDEX answers_pending_review ON answers(final) WHERE final = 0;

-- Telegram delivers updates at least once: each update_id is handled once.
CREATE TABLE processed_updates (
  update_id INTEGER PRIMARY KEY,
  at        REAL NOT NULL
);
