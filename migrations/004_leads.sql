-- The team lead's desk: audit log, disputes, weekly digest schedules; indexes for the leaderboards.

-- every lead action, written in the same transaction as the action itself
CREATE TABLE audit_log (
  id          INTEGER PRIMARY KEY,
  at          REAL NOT NULL,
  actor_id    INTEGER NOT NULL,                 -- the lead (a team record: kept on /forgetme)
  chat_id     INTEGER,                          -- the group the lead acted for; NULL: configured admin
  action      TEXT NOT NULL,                    -- 'review' | 'retire' | 'restore' | 'exam_only' | ...
  target      TEXT NOT NULL DEFAULT '',         -- e.g. 'question:12', 'answer:5/3', 'paper:ops'
  target_user INTEGER,                          -- the candidate concerned; cleared on /forgetme
  detail      TEXT NOT NULL DEFAULT '{}'        -- JSON
);
CREATE INDEX audit_by_chat ON audit_log(chat_id, at);
CREATE INDEX audit_by_target_user ON audit_log(target_user) WHERE target_user IS NOT NULL;

-- a candidate flags a question they believe is wrong
CREATE TABLE disputes (
  id          INTEGER PRIMARY KEY,
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  chat_id     INTEGER NOT NULL,                 -- where it was raised
  reason      TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'dismissed')),
  created_at  REAL NOT NULL,
  resolved_by INTEGER,
  resolved_at REAL
);
-- one open dispute per candidate and question
CREATE UNIQUE INDEX disputes_one_open ON disputes(question_id, user_id) WHERE status = 'open';
CREATE INDEX disputes_by_status ON disputes(status, created_at);

-- the weekly digest of a team group
CREATE TABLE digest_schedules (
  chat_id    INTEGER PRIMARY KEY REFERENCES chats(id) ON DELETE CASCADE,
  enabled    INTEGER NOT NULL DEFAULT 1,
  weekday    INTEGER NOT NULL DEFAULT 0 CHECK (weekday BETWEEN 0 AND 6),  -- 0: Monday
  at_time    TEXT NOT NULL DEFAULT '09:00',     -- 'HH:MM' in the group's timezone
  last_week  TEXT,                              -- ISO week 'YYYY-Www' of the last digest posted
  changed_by INTEGER,
  changed_at REAL NOT NULL
);

-- the leaderboard reads one group's answers in a time range without touching the table
CREATE INDEX daily_answers_leaderboard
  ON daily_answers(chat_id, answered_at, user_id, score, max_score, verdict);
-- exam leaderboards and reports: finished attempts per paper and per user
CREATE INDEX attempts_by_user ON attempts(user_id, mode, status, paper_id);
