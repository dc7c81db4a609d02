-- Formats bring two question kinds (numerical, matching) and what GIFT, Moodle XML and the
-- spreadsheets carry per question: a name, a difficulty, a weight per option or accepted answer, and feedback
-- per option or accepted answer.
--
-- The kind CHECK is widened in place, the way SQLite documents for loosening a CHECK
-- (https://sqlite.org/lang_altertable.html, "other kinds of table schema changes"): rebuilding
-- the table would need foreign keys off, and its implicit DELETE would cascade into the daily
-- and lead tables. Widening keeps every row valid, so no row moves at all.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql, '''discussion'',''case'')', '''discussion'',''case'',''numerical'',''matching'')')
 WHERE type = 'table' AND name = 'questions';
-- reload the schema on this connection now
PRAGMA writable_schema = RESET;
-- refuse to go on if the CHECK was not the one expected (the transaction then rolls back)
CREATE TEMP TABLE _widened (ok INTEGER CHECK (ok));
INSERT INTO _widened SELECT instr(sql, '''matching''') > 0 FROM sqlite_schema
 WHERE type = 'table' AND name = 'questions';
DROP TABLE _widened;

ALTER TABLE questions ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE questions ADD COLUMN weights TEXT NOT NULL DEFAULT '[]';   -- JSON list of fractions
ALTER TABLE questions ADD COLUMN feedback TEXT NOT NULL DEFAULT '[]';  -- JSON list of texts
ALTER TABLE questions ADD COLUMN difficulty TEXT NOT NULL DEFAULT '';  -- as the author wrote it
