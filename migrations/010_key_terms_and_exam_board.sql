-- The key terms of subjective reference answers (JSON list), found when a question is imported, so
-- grading never segments text. NULL: not found yet; the bot fills them at start-up
-- (bank.paper_store.fill_key_terms), outside this SQL step because segmenting needs jieba.
ALTER TABLE questions ADD COLUMN key_terms TEXT;

-- A paper's exam board: each candidate's counted attempt is one probe of this index (see
-- bank.leaderboard.paper_board), so the board costs the candidates shown, not every attempt.
CREATE INDEX attempts_exam_by_user ON attempts(paper_id, user_id, finished_at)
  WHERE mode = 'exam' AND status = 'finished' AND score IS NOT NULL;
-- Every candidate's best attempt, from the top: walked in this order (bank.leaderboard._best_board).
CREATE INDEX attempts_exam_board ON attempts(paper_id, score DESC, finished_at - started_at, id)
  WHERE mode = 'exam' AND status = 'finished' AND score IS NOT NULL;
