-- The lead's desk: one-time secrets, stored only as SHA-256 digests so a copy of the database
-- logs nobody in. 'link': a one-time login link (10 minutes, used once); 'init': a Telegram
-- Mini App initData already used to log in (refused if replayed until it would be stale anyway).
CREATE TABLE desk_tokens (
  digest     TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('link', 'init')),
  user_id    INTEGER NOT NULL,
  created_at REAL NOT NULL,
  expires_at REAL NOT NULL,
  used_at    REAL
);
CREATE INDEX desk_tokens_by_expiry ON desk_tokens(expires_at);
