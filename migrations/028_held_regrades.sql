-- A key fixed while a candidate's exam runs waits for their hand-in (proctor/exams/held.py): no
-- notice, score or verdict about that paper reaches them before it. held_regrades: the questions of
-- a running attempt whose answers are graded again, with the key in force, when the attempt closes
-- (Finish, the deadline, or a cancel), in the transaction that closes it. outbox.held_by: a notice
-- that waits for that attempt's hand-in (NULL: due as usual); the same transaction releases it.
CREATE TABLE held_regrades (
  attempt_id  INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  question_id INTEGER NOT NULL,
  actor       INTEGER NOT NULL,  -- who fixed the key (the latest fix, when there were several)
  created_at  REAL NOT NULL,
  PRIMARY KEY (attempt_id, question_id)
) WITHOUT ROWID;

ALTER TABLE outbox ADD COLUMN held_by INTEGER;  -- attempts.id: sent once that attempt is handed in
CREATE INDEX outbox_held ON outbox(held_by) WHERE held_by IS NOT NULL;
