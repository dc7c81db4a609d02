-- A paper's pass mark, in percent of its maximum score (`proctor bank set --pass 60`); NULL: none.
ALTER TABLE papers ADD COLUMN pass_percent REAL CHECK (pass_percent IS NULL OR (pass_percent >= 0 AND pass_percent <= 100));
