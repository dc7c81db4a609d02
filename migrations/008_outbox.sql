-- Messages that must reach someone (result cards, review notices): kept until delivered or found
-- undeliverable, retried by one job with backoff. A failed send never loses them.
CREATE TABLE outbox (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,                    -- 'result' | 'review' ...: how the bot renders it
  ref         TEXT NOT NULL,                    -- what it is about, e.g. the attempt id: one per (kind, ref)
  chat_id     INTEGER NOT NULL,                 -- to whom
  user_id     INTEGER REFERENCES users(id) ON DELETE CASCADE,  -- whose it is (/forgetme drops it)
  payload     TEXT NOT NULL DEFAULT '{}',       -- JSON: the data the rendering needs
  state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'undeliverable')),
  tries       INTEGER NOT NULL DEFAULT 0,
  next_try    REAL NOT NULL,
  last_error  TEXT,
  created_at  REAL NOT NULL,
  done_at     REAL,
  UNIQUE (kind, ref)
);
CREATE INDEX outbox_due ON outbox(next_try) WHERE state = 'pending';

-- result cards not yet sent move to the outbox (attempts.result_sent is no longer read)
INSERT INTO outbox (kind, ref, chat_id, user_id, next_try, created_at)
  SELECT 'result', CAST(id AS TEXT), chat_id, user_id, COALESCE(finished_at, started_at), COALESCE(finished_at, started_at)
  FROM attempts WHERE status = 'finished' AND result_sent = 0;

-- an attempt handed in late (by start-up after a restart) ended at its deadline, not at the restart
UPDATE attempts SET finished_at = deadline
  WHERE status = 'finished' AND deadline IS NOT NULL AND finished_at > deadline;
