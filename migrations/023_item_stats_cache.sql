-- The desk's Items page reads question statistics from here: computing them reads every answer
-- (a second or more with a million), so bank.item_stats.refresh_cache stores them and the page
-- refreshes them in the background when they are older than a few minutes. Derived data only:
-- dropping the rows loses nothing (the next visit computes them again).
CREATE TABLE item_stats_cache (
  question_id    INTEGER PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
  responses      INTEGER NOT NULL,
  difficulty     REAL,
  discrimination REAL
);
CREATE TABLE item_stats_computed (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  computed_at REAL NOT NULL
);
