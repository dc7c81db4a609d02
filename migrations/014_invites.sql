-- Hiring invites: one link per candidate, for one paper, inside a window. The link's token is kept
-- only as a hash. 'expired' is not stored: an open or claimed invite past closes_at is expired.
CREATE TABLE invites (
  id               INTEGER PRIMARY KEY,
  token_hash       TEXT NOT NULL UNIQUE,              -- sha256 of the token; the token itself is never stored
  paper_id         INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  team_chat_id     INTEGER,                           -- the team group it was made for; NULL: configured admins
  created_by       INTEGER NOT NULL,                  -- the lead who invited (0: the command line)
  created_at       REAL NOT NULL,
  closes_at        REAL NOT NULL,                     -- Start works only before this
  extra_min        INTEGER NOT NULL DEFAULT 0,        -- extra time on the paper's limit (an accommodation)
  for_username     TEXT,                              -- the intended candidate's @username, if given
  attempts_allowed INTEGER NOT NULL DEFAULT 1,
  attempts_used    INTEGER NOT NULL DEFAULT 0,
  notify_group     INTEGER NOT NULL DEFAULT 0,        -- a one-line note to the team group when finished
  status           TEXT NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'claimed', 'started', 'finished', 'revoked')),
  candidate_id     INTEGER REFERENCES users(id) ON DELETE SET NULL,
  claimed_at       REAL,
  started_at       REAL,
  finished_at      REAL,
  revoked_at       REAL,
  revoked_by       INTEGER,
  attempt_id       INTEGER REFERENCES attempts(id) ON DELETE SET NULL  -- the latest attempt
);
CREATE INDEX invites_by_team ON invites(team_chat_id, created_at);
CREATE INDEX invites_by_candidate ON invites(candidate_id);

-- an attempt opened through an invite is the team's, never on a public board
ALTER TABLE attempts ADD COLUMN invite_id INTEGER REFERENCES invites(id) ON DELETE SET NULL;
CREATE INDEX attempts_by_invite ON attempts(invite_id) WHERE invite_id IS NOT NULL;

-- papers: invite-only (only an invite opens it; implies exam-only) and what a candidate sees at the end
ALTER TABLE papers ADD COLUMN invite_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE papers ADD COLUMN review TEXT CHECK (review IN ('score', 'sections', 'full', 'none'));  -- NULL: by kind
