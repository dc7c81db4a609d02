-- A key fixed while a candidate's exam runs waits for their hand-in (proctor/exams/held.py): no
-- notice, score or verdict about that paper reaches them before it. held_regrades: a question whose
-- answers on one of the candidate's attempts (the running one, or an earlier one) are graded again,
-- with the key in force, when the running attempt (`until_attempt`) closes (Finish, the deadline, a
-- cancel), in the transaction that closes it. outbox.held_by: a notice that waits for that attempt's
-- hand-in (NULL: due as usual); the same transaction releases it.
CREATE TABLE held_regrades (
  attempt_id    INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  question_id   INTEGER NOT NULL,
  until_attempt INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  actor         INTEGER NOT NULL,  -- who fixed the key (the latest fix, when there were several)
  created_at    REAL NOT NULL,
  PRIMARY KEY (attempt_id, question_id)
) WITHOUT ROWID;
CREATE INDEX held_regrades_until ON held_regrades(until_attempt);

ALTER TABLE outbox ADD COLUMN held_by INTEGER;  -- attempts.id: sent once that attempt is handed in
CREATE INDEX outbox_held ON outbox(held_by) WHERE held_by IS NOT NULL;
