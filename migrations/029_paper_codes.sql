-- A paper's code (P3): one short reference shown and accepted everywhere (/papers, /exam, /invite,
-- /leaderboard paper, /bankstats, `proctor bank ...`, `proctor invite ...`), composed papers too.
-- Given once, when the paper is first written, and never changed: a re-import updates the row in
-- place (an upsert fires no insert trigger), so the code a lead wrote down keeps naming the paper.
-- bank/paper_list.py resolves codes, titles and title fragments.
ALTER TABLE papers ADD COLUMN code TEXT;
UPDATE papers SET code = 'P' || id;
CREATE UNIQUE INDEX papers_code ON papers(code);
CREATE TRIGGER papers_code_given AFTER INSERT ON papers WHEN NEW.code IS NULL
BEGIN
  UPDATE papers SET code = 'P' || NEW.id WHERE id = NEW.id;
END;
