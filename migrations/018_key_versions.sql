-- Dispute key fixes: every key a question has had, and the key version each answer was graded against.
-- Existing questions and answers are version 1 (the key they were graded with); no record changes.
ALTER TABLE questions ADD COLUMN key_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE answers ADD COLUMN key_version INTEGER NOT NULL DEFAULT 1;
CREATE TABLE key_versions (
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  version     INTEGER NOT NULL,
  answer      TEXT NOT NULL,              -- JSON: the key from this version on
  previous    TEXT NOT NULL,              -- JSON: the key it replaced
  dispute_id  INTEGER,                    -- the upheld dispute that fixed it
  actor       INTEGER NOT NULL,
  regraded    INTEGER NOT NULL DEFAULT 0, -- answers whose score changed
  created_at  REAL NOT NULL,
  PRIMARY KEY (question_id, version)
);
-- a daily answer regraded by a key fix: the version it was graded against (absent: version 1);
-- a side table, so daily_answers keeps its columns
CREATE TABLE daily_answer_keys (
  delivery_id INTEGER NOT NULL,
  pos         INTEGER NOT NULL,
  user_id     INTEGER NOT NULL,
  key_version INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, pos, user_id),
  FOREIGN KEY (delivery_id, pos, user_id) REFERENCES daily_answers(delivery_id, pos, user_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX key_versions_by_dispute ON key_versions(dispute_id) WHERE dispute_id IS NOT NULL;
