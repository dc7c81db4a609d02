-- Team rosters: who a group's leads may grade and see. Distinct from chat_members (who wrote in
-- the group, for its daily leaderboards): a roster entry is granted by a lead, never by showing up.
-- Starts empty on purpose: "wrote in a group I administer" must not carry over as grading power.
CREATE TABLE team_roster (
  chat_id      INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status       TEXT NOT NULL CHECK (status IN ('pending', 'member')),
  requested_at REAL NOT NULL,                    -- when they asked (/join) or were added
  decided_by   INTEGER,                          -- the lead who added or accepted them; NULL while pending
  decided_at   REAL,
  PRIMARY KEY (chat_id, user_id)
);
CREATE INDEX team_roster_by_user ON team_roster(user_id, status);

-- /team add @name looks users up by their Telegram username
CREATE INDEX users_by_username ON users(username COLLATE NOCASE) WHERE username IS NOT NULL;
