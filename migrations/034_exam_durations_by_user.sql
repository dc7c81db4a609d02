-- The hand-in's "quick" signal compares an attempt's time with the median of the paper's finished exam
-- attempts by other people (proctor/exams/integrity.py: median_duration_in leaves out every sitting of
-- the candidate's own, so their earlier quick sittings cannot lower the bar for the next one). With
-- user_id as the index's last column, the count and the OFFSET that picks the median still read the
-- index alone, never a row of the table.
DROP INDEX attempts_exam_durations;
CREATE INDEX attempts_exam_durations_by_user ON attempts(paper_id, finished_at - started_at, user_id)
  WHERE status = 'finished' AND mode = 'exam';
