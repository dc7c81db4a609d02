-- Hiring papers (exam-only or invite-only) belong to the configured admins and to the teams a
-- configured admin verified for them (proctor/hiring.py): only those invite to a hiring
-- paper, review its answers, or see its reference answers and per-section results. Verifying and
-- undoing it are audited (team_verify, team_unverify). No earlier row changes: every invite stays.
CREATE TABLE team_verifications (
  id          INTEGER PRIMARY KEY,
  chat_id     INTEGER NOT NULL,                                      -- the team group
  paper_id    INTEGER REFERENCES papers(id) ON DELETE CASCADE,       -- NULL: every hiring paper
  verified_by INTEGER NOT NULL,                                      -- the configured admin (0: the command line)
  verified_at REAL NOT NULL
);
CREATE UNIQUE INDEX team_verifications_once ON team_verifications(chat_id, IFNULL(paper_id, 0));
