-- The desk at a million answers. Question statistics: the Items page reads them from here; computing them reads every answer
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

-- The desk's team page reads a team's daily answers of a period four ways (leaderboard, points per
-- day, trend per member, mastery per topic): the leaderboard's covering index now carries the day
-- and the question too, so all four read the index alone (same name: leaderboard.py names it).
DROP INDEX daily_answers_leaderboard;
CREATE INDEX daily_answers_leaderboard
  ON daily_answers(chat_id, answered_at, user_id, score, max_score, verdict, day, question_id);
