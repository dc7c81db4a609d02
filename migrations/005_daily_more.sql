-- Daily practice, continued: multiple-choice selections not yet submitted, per user.
CREATE TABLE daily_drafts (
  delivery_id INTEGER NOT NULL,
  pos         INTEGER NOT NULL,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  letters     TEXT NOT NULL DEFAULT '',          -- toggled original letters, sorted
  updated_at  REAL NOT NULL,
  PRIMARY KEY (delivery_id, pos, user_id),
  FOREIGN KEY (delivery_id, pos) REFERENCES daily_items(delivery_id, pos) ON DELETE CASCADE
);

