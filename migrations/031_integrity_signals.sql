-- Integrity signals (docs/integrity-signals.md): things for a human to look at, never a verdict and
-- never a change of score. Recorded on the answer path: when each question was first shown and how
-- often an answer was replaced by a different one. Computed at the hand-in: the signals, and the
-- normalised written answers later hand-ins of the same paper compare with.
-- Attempts from before this migration have no timings (NULL) and get no signals.
ALTER TABLE attempt_items ADD COLUMN shown_at REAL;  -- first on screen; NULL: never, or before 031
ALTER TABLE answers ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;  -- times replaced by a different answer

CREATE TABLE written_answers (
  attempt_id  INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  pos         INTEGER NOT NULL,
  paper_id    INTEGER NOT NULL,
  question_id INTEGER NOT NULL,
  norm        TEXT NOT NULL,  -- NFKC, Simplified, letters and digits only, lower case
  PRIMARY KEY (attempt_id, pos)
);
CREATE INDEX written_answers_by_question ON written_answers(paper_id, question_id);

CREATE TABLE attempt_signals (
  id               INTEGER PRIMARY KEY,
  attempt_id       INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  code             TEXT NOT NULL CHECK (code IN ('similar', 'fast', 'late', 'quick')),
  pos              INTEGER,  -- the question; NULL: the whole attempt (quick)
  other_attempt_id INTEGER REFERENCES attempts(id) ON DELETE CASCADE,  -- similar: the other attempt
  other_pos        INTEGER,
  value            REAL NOT NULL,  -- similar: ratio %; fast: seconds taken; late: seconds before the hand-in; quick: seconds used
  bound            REAL NOT NULL,  -- what it crossed: the threshold %, the reading floor, the window, the median
  at               REAL NOT NULL
);
CREATE INDEX attempt_signals_by_attempt ON attempt_signals(attempt_id);

-- each paper's thresholds (`proctor bank set PAPER --signals off|on --signal-similar 90 ...`)
ALTER TABLE papers ADD COLUMN signals INTEGER NOT NULL DEFAULT 1 CHECK (signals IN (0, 1));
ALTER TABLE papers ADD COLUMN signal_similar REAL NOT NULL DEFAULT 90 CHECK (signal_similar > 0 AND signal_similar <= 100);
ALTER TABLE papers ADD COLUMN signal_fast INTEGER NOT NULL DEFAULT 3 CHECK (signal_fast >= 1);
ALTER TABLE papers ADD COLUMN signal_late INTEGER NOT NULL DEFAULT 3 CHECK (signal_late >= 1);
ALTER TABLE papers ADD COLUMN signal_quick REAL NOT NULL DEFAULT 33 CHECK (signal_quick > 0 AND signal_quick < 100);
