-- Daily practice: subscriptions per chat, deliveries per (chat, day), answers per user.
CREATE TABLE chats (
  id         INTEGER PRIMARY KEY,               -- Telegram chat id (private chat id == user id)
  type       TEXT NOT NULL,                     -- 'private' | 'group' | 'supergroup' | 'channel'
  title      TEXT NOT NULL DEFAULT '',
  timezone   TEXT,                              -- NULL: PROCTOR_TIMEZONE
  updated_at REAL NOT NULL
);

-- who belongs to which team group (seen answering or writing there)
CREATE TABLE chat_members (
  chat_id    INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  first_seen REAL NOT NULL,
  last_seen  REAL NOT NULL,
  PRIMARY KEY (chat_id, user_id)
);
CREATE INDEX chat_members_by_user ON chat_members(user_id);

CREATE TABLE daily_subscriptions (
  chat_id         INTEGER PRIMARY KEY REFERENCES chats(id) ON DELETE CASCADE,
  enabled         INTEGER NOT NULL DEFAULT 1,
  at_time         TEXT NOT NULL,                -- 'HH:MM' local time
  timezone        TEXT NOT NULL,                -- IANA name, e.g. 'Asia/Shanghai'
  questions       INTEGER NOT NULL DEFAULT 5,
  close_after_min INTEGER,                      -- NULL: one hour before the next push
  changed_by      INTEGER,
  changed_at      REAL NOT NULL,
  disabled_reason TEXT                          -- e.g. 'blocked' after a 403
);

CREATE TABLE daily_deliveries (
  id         INTEGER PRIMARY KEY,
  chat_id    INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  day        TEXT NOT NULL,                     -- local date 'YYYY-MM-DD' in the subscription's zone
  status     TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'open', 'closed', 'failed')),
  created_at REAL NOT NULL,
  closes_at  REAL NOT NULL,
  closed_at  REAL,
  UNIQUE (chat_id, day)
);
CREATE INDEX daily_deliveries_open ON daily_deliveries(status, closes_at);

CREATE TABLE daily_items (
  delivery_id  INTEGER NOT NULL REFERENCES daily_deliveries(id) ON DELETE CASCADE,
  pos          INTEGER NOT NULL,
  question_id  INTEGER NOT NULL REFERENCES questions(id),
  option_order TEXT NOT NULL DEFAULT '',
  message_id   INTEGER,                         -- NULL until sent: a resumed push sends only these
  sent_at      REAL,
  PRIMARY KEY (delivery_id, pos)
);
CREATE INDEX daily_items_by_message ON daily_items(message_id);

CREATE TABLE daily_answers (
  delivery_id INTEGER NOT NULL,
  pos         INTEGER NOT NULL,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  chat_id     INTEGER NOT NULL,
  day         TEXT NOT NULL,                    -- copy of the delivery's day, for streaks and periods
  question_id INTEGER NOT NULL REFERENCES questions(id),
  response    TEXT NOT NULL,
  score       REAL NOT NULL,
  max_score   REAL NOT NULL,
  verdict     TEXT NOT NULL,
  answered_at REAL NOT NULL,
  PRIMARY KEY (delivery_id, pos, user_id),      -- first answer counts
  FOREIGN KEY (delivery_id, pos) REFERENCES daily_items(delivery_id, pos) ON DELETE CASCADE
);
CREATE INDEX daily_answers_by_chat_time ON daily_answers(chat_id, answered_at);
CREATE INDEX daily_answers_by_chat_user ON daily_answers(chat_id, user_id, day);
CREATE INDEX daily_answers_by_user ON daily_answers(user_id, answered_at);

-- spaced repetition (FSRS) per user and question
CREATE TABLE review_cards (
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  card        TEXT NOT NULL,                    -- fsrs.Card as JSON
  due         REAL NOT NULL,
  PRIMARY KEY (user_id, question_id)
);
CREATE INDEX review_cards_due ON review_cards(user_id, due);
