-- Update ids are per bot: a new token (a new bot) starts its own sequence, which must not be
-- mistaken for repeats of the old bot's updates.
CREATE TABLE processed_updates_per_bot (
  bot_id    INTEGER NOT NULL,
  update_id INTEGER NOT NULL,
  at        REAL NOT NULL,
  PRIMARY KEY (bot_id, update_id)
);
INSERT INTO processed_updates_per_bot (bot_id, update_id, at) SELECT 0, update_id, at FROM processed_updates;
DROP TABLE processed_updates;
ALTER TABLE processed_updates_per_bot RENAME TO processed_updates;
CREATE INDEX processed_updates_by_time ON processed_updates(at);
