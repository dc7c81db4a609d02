-- The hand-in's "quick" signal compares an attempt's time with the median of its paper's finished
-- exam attempts (proctor/exams/integrity.py). This index holds those durations in order, so the
-- median is two index lookups instead of a read of every finished attempt of the paper at each
-- hand-in (a thousand candidates handing in at one deadline read a million rows otherwise).
CREATE INDEX attempts_exam_durations ON attempts(paper_id, finished_at - started_at)
  WHERE status = 'finished' AND mode = 'exam';
