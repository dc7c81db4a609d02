-- What the import found out about each question, stored once instead of guessed at render time:
-- options pinned in place, letters that name options, a key in doubt, a same-paper duplicate.
-- Filled for existing banks by a start-up step (bank/question_checks.py: fill_missing), since the
-- analysis is Python; every import refreshes the rows of the papers it writes.
CREATE TABLE question_checks (
  question_id      INTEGER PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
  version          INTEGER NOT NULL,                 -- of the analysis; older rows are redone at start-up
  pinned           TEXT NOT NULL DEFAULT '[]',       -- JSON: 0-based options that stay in place
  letter_refs      TEXT NOT NULL DEFAULT '{}',       -- JSON: text ('stem', 'explanation', 'option3') -> offsets
  key_doubt        TEXT NOT NULL DEFAULT '',         -- why the key is in doubt; '' if it is not
  duplicate_of     INTEGER,                          -- an earlier question of the same paper, same stem
  confirmed_answer TEXT,                             -- the key (JSON) a lead confirmed despite the doubt
  confirmed_by     INTEGER,
  confirmed_at     REAL,
  held             TEXT NOT NULL DEFAULT ''          -- 'key' | 'duplicate': kept out of exams, practice, daily
);
CREATE INDEX question_checks_held ON question_checks(held) WHERE held != '';
