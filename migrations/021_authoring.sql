-- Leads bring questions in chat: a file waiting for Import / Cancel, and /newquestion's draft.
-- Only Telegram's file id is kept for an upload (the file is fetched again on Import and must parse
-- to the same content hash); new tables only, no existing record changes.
CREATE TABLE pending_uploads (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id        INTEGER NOT NULL,
  chat_id        INTEGER NOT NULL,
  file_id        TEXT NOT NULL,
  file_name      TEXT NOT NULL,
  file_size      INTEGER NOT NULL,
  content_hash   TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'imported', 'cancelled')),
  created_at     REAL NOT NULL,
  done_at        REAL,
  result         TEXT NOT NULL DEFAULT '{}'  -- JSON: what Import wrote
);
CREATE INDEX pending_uploads_by_user ON pending_uploads(user_id, status);
CREATE TABLE question_drafts (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: an old draft's buttons stay dead
  user_id     INTEGER NOT NULL UNIQUE,
  chat_id     INTEGER NOT NULL,
  step        TEXT NOT NULL,
  data        TEXT NOT NULL,             -- JSON: the fields given so far
  updated_at  REAL NOT NULL
);
