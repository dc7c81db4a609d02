-- Live quiz rounds in a team group (issue 24): a round, its questions as native quiz polls, and every
-- answer. The round's whole state is here, so a restart goes on from where it was (proctor/live/).
CREATE TABLE live_rounds (
  id              INTEGER PRIMARY KEY,
  chat_id         INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  lead_id         INTEGER NOT NULL,             -- who started it
  status          TEXT NOT NULL,                -- RoundStatus: countdown | asking | finished | stopped | gone
  questions       INTEGER NOT NULL,             -- how many were drawn
  seconds         INTEGER NOT NULL,             -- each poll's open_period
  lang            TEXT NOT NULL,                -- the group's language and script when it started
  script          TEXT NOT NULL,
  created_at      REAL NOT NULL,
  starts_at       REAL NOT NULL,                -- the countdown's end: the first poll's time
  announced       INTEGER NOT NULL DEFAULT 0,   -- the countdown message was sent (or is being sent)
  standings_id    INTEGER,                      -- the standings message, edited after each question
  ended_at        REAL,
  podium_posted   INTEGER NOT NULL DEFAULT 0
);
-- one round per group at a time: a second start is refused by the database itself
CREATE UNIQUE INDEX live_rounds_running ON live_rounds(chat_id) WHERE status IN ('countdown', 'asking');
CREATE INDEX live_rounds_by_chat ON live_rounds(chat_id, id);

CREATE TABLE live_items (
  round_id     INTEGER NOT NULL REFERENCES live_rounds(id) ON DELETE CASCADE,
  pos          INTEGER NOT NULL,                -- 0-based
  question_id  INTEGER NOT NULL,
  option_order TEXT NOT NULL,                   -- bank.option_order.OptionOrder.order, as shown
  correct      TEXT NOT NULL,                   -- JSON: the shown option ids that are right
  multiple     INTEGER NOT NULL,                -- a multiple-choice question (several may be picked)
  policy       TEXT NOT NULL,                   -- the paper's multiple-choice policy when drawn
  status       TEXT NOT NULL DEFAULT 'pending', -- ItemStatus: pending | sending | open | closed
  poll_id      TEXT UNIQUE,                     -- Telegram's poll id: poll_answer updates carry no chat
  message_id   INTEGER,
  posted_at    REAL,                            -- when the poll was posted (the bot's clock)
  closes_at    REAL,
  closed_at    REAL,
  PRIMARY KEY (round_id, pos)
) WITHOUT ROWID;

CREATE TABLE live_answers (
  round_id    INTEGER NOT NULL REFERENCES live_rounds(id) ON DELETE CASCADE,
  pos         INTEGER NOT NULL,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  chat_id     INTEGER NOT NULL,
  option_ids  TEXT NOT NULL,                    -- JSON: the shown option ids chosen
  fraction    REAL NOT NULL,                    -- how right (the paper's multiple-choice policy)
  points      INTEGER NOT NULL,                 -- speed points plus the streak bonus
  received_at REAL NOT NULL,                    -- when the bot received it
  PRIMARY KEY (round_id, pos, user_id)
) WITHOUT ROWID;
-- the group's live board over a period reads this index alone (proctor/live/board.py)
CREATE INDEX live_answers_board ON live_answers(chat_id, received_at, user_id, points, fraction);

-- a group's language and script (/lang and /script by its administrators): everything the bot posts
-- there; NULL: PROCTOR_LANGUAGE and the questions as written
ALTER TABLE chats ADD COLUMN language TEXT;
ALTER TABLE chats ADD COLUMN script TEXT;
