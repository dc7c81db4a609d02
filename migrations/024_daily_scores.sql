-- The daily-quiz leaderboard at a million answers: daily_scores sums each member's daily answers
-- per chat, per quarter hour of UTC (slot = whole seconds since the epoch / 900) and per quiz day.
-- Every zone's local midnight falls on a quarter hour, so a period of the chat's local days (today,
-- week, month) is a whole range of slots whatever the chat's zone, and a zone change needs no
-- recomputation. Derived data kept by the triggers below, inside the statement (and so the
-- transaction) that writes the daily answer: an insert, a rescore, a delete (/forgetme's cascade)
-- each recompute the one slot row they touch from daily_answers. proctor/daily/scores.py reads it.
CREATE TABLE daily_scores (
  chat_id   INTEGER NOT NULL,
  slot      INTEGER NOT NULL,  -- CAST(answered_at AS INTEGER) / 900
  user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  day       TEXT NOT NULL,     -- the quiz's day (daily_answers.day), for streaks and trends
  score     REAL NOT NULL,
  max_score REAL NOT NULL,
  answers   INTEGER NOT NULL,
  correct   INTEGER NOT NULL,
  last_at   REAL NOT NULL,     -- the slot's latest answered_at (the leaderboard's tie-break)
  PRIMARY KEY (chat_id, slot, user_id, day)
) WITHOUT ROWID;
CREATE INDEX daily_scores_by_user ON daily_scores(chat_id, user_id, day);

INSERT INTO daily_scores
  SELECT chat_id, CAST(answered_at AS INTEGER) / 900, user_id, day, SUM(score), SUM(max_score), COUNT(*),
         SUM(verdict = 'correct'), MAX(answered_at)
  FROM daily_answers GROUP BY chat_id, CAST(answered_at AS INTEGER) / 900, user_id, day;

CREATE TRIGGER daily_scores_insert AFTER INSERT ON daily_answers BEGIN
  DELETE FROM daily_scores WHERE chat_id = NEW.chat_id AND slot = CAST(NEW.answered_at AS INTEGER) / 900
    AND user_id = NEW.user_id AND day = NEW.day;
  INSERT INTO daily_scores
    SELECT chat_id, CAST(answered_at AS INTEGER) / 900, user_id, day, SUM(score), SUM(max_score), COUNT(*),
           SUM(verdict = 'correct'), MAX(answered_at)
    FROM daily_answers INDEXED BY daily_answers_by_chat_user
    WHERE chat_id = NEW.chat_id AND user_id = NEW.user_id AND day = NEW.day
      AND CAST(answered_at AS INTEGER) / 900 = CAST(NEW.answered_at AS INTEGER) / 900
    GROUP BY chat_id, user_id, day;
END;

CREATE TRIGGER daily_scores_delete AFTER DELETE ON daily_answers BEGIN
  DELETE FROM daily_scores WHERE chat_id = OLD.chat_id AND slot = CAST(OLD.answered_at AS INTEGER) / 900
    AND user_id = OLD.user_id AND day = OLD.day;
  INSERT INTO daily_scores
    SELECT chat_id, CAST(answered_at AS INTEGER) / 900, user_id, day, SUM(score), SUM(max_score), COUNT(*),
           SUM(verdict = 'correct'), MAX(answered_at)
    FROM daily_answers INDEXED BY daily_answers_by_chat_user
    WHERE chat_id = OLD.chat_id AND user_id = OLD.user_id AND day = OLD.day
      AND CAST(answered_at AS INTEGER) / 900 = CAST(OLD.answered_at AS INTEGER) / 900
      AND EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id)
    GROUP BY chat_id, user_id, day;
END;

CREATE TRIGGER daily_scores_update AFTER UPDATE OF chat_id, user_id, day, score, max_score, verdict, answered_at
ON daily_answers BEGIN
  DELETE FROM daily_scores WHERE chat_id = OLD.chat_id AND slot = CAST(OLD.answered_at AS INTEGER) / 900
    AND user_id = OLD.user_id AND day = OLD.day;
  INSERT INTO daily_scores
    SELECT chat_id, CAST(answered_at AS INTEGER) / 900, user_id, day, SUM(score), SUM(max_score), COUNT(*),
           SUM(verdict = 'correct'), MAX(answered_at)
    FROM daily_answers INDEXED BY daily_answers_by_chat_user
    WHERE chat_id = OLD.chat_id AND user_id = OLD.user_id AND day = OLD.day
      AND CAST(answered_at AS INTEGER) / 900 = CAST(OLD.answered_at AS INTEGER) / 900
    GROUP BY chat_id, user_id, day;
  DELETE FROM daily_scores WHERE chat_id = NEW.chat_id AND slot = CAST(NEW.answered_at AS INTEGER) / 900
    AND user_id = NEW.user_id AND day = NEW.day;
  INSERT INTO daily_scores
    SELECT chat_id, CAST(answered_at AS INTEGER) / 900, user_id, day, SUM(score), SUM(max_score), COUNT(*),
           SUM(verdict = 'correct'), MAX(answered_at)
    FROM daily_answers INDEXED BY daily_answers_by_chat_user
    WHERE chat_id = NEW.chat_id AND user_id = NEW.user_id AND day = NEW.day
      AND CAST(answered_at AS INTEGER) / 900 = CAST(NEW.answered_at AS INTEGER) / 900
    GROUP BY chat_id, user_id, day;
END;
