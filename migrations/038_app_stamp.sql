-- Every Exam Proctor database says what it is in its header: SQLite's application id, 0x50524354
-- ('PRCT'; proctor/storage/stamp.py reads it from the file's bytes 68-71 without opening it). A
-- backup carries it too (proctor/storage/backups.py stamps every copy it writes), and `proctor
-- backup FILE` replaces an existing FILE only when it is such a backup.
PRAGMA application_id = 1347568468;
