-- A question's reference (P3 · Q43): n is its place in its own paper's full order, held, unaskable and
-- retired questions included (bank/question_ref.py). Given once, when the question is first written,
-- and never changed: a re-import updates the row in place (an upsert fires no insert trigger), and
-- held, confirmed or edited keys (/editq, /keyfix) never touch it. Questions already stored are
-- numbered here in their paper's order (section by section, then by number; the id breaks a tie).
ALTER TABLE questions ADD COLUMN seq INTEGER;
CREATE TEMP TABLE question_seq (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL);
INSERT INTO question_seq (id, seq)
    SELECT q.id, ROW_NUMBER() OVER (PARTITION BY q.paper_id ORDER BY s.position, q.number, q.id)
    FROM questions q JOIN sections s ON s.id = q.section_id;
UPDATE questions SET seq = (SELECT n.seq FROM question_seq n WHERE n.id = questions.id);
DROP TABLE question_seq;
CREATE UNIQUE INDEX questions_seq ON questions(paper_id, seq);
-- A new question takes the next n of its paper, unless it brings its own (a file's ref: an export
-- imported into another database keeps its numbers). The paper store writes a paper section by
-- section in order, so a paper imported whole is numbered in its full order.
CREATE TRIGGER questions_seq_given AFTER INSERT ON questions WHEN NEW.seq IS NULL
BEGIN
  UPDATE questions SET seq = (SELECT COALESCE(MAX(seq), 0) + 1 FROM questions WHERE paper_id = NEW.paper_id)
  WHERE id = NEW.id;
END;
