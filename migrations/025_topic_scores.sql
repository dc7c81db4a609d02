-- The team page's accuracy by paper and topic heatmap at a million answers: two summaries of the
-- answers' points per (paper, section, question topic), derived data kept by the triggers below inside
-- the statement (and so the transaction) that writes, rescores or deletes an answer.
-- daily_topics: daily answers per chat, member and quarter hour of UTC (slot = whole seconds / 900,
-- daily_scores' scheme: proctor/daily/scores.py). exam_topics: final exam answers per attempt; the
-- attempt's mode, status, user and time join at query time, so a status change needs no trigger.
-- The topic shown is resolved when read (the question's topic, else its section's title), so a section
-- renamed needs nothing; a question moved to another paper, section or topic (a re-import) recomputes
-- both of its groups. proctor/teams/topic_scores.py reads them.
CREATE TABLE daily_topics (
  chat_id    INTEGER NOT NULL,
  slot       INTEGER NOT NULL,  -- CAST(answered_at AS INTEGER) / 900
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  paper_id   INTEGER NOT NULL,
  section_id INTEGER NOT NULL,
  topic      TEXT NOT NULL,     -- questions.topic ('' when the section's title stands for it)
  score      REAL NOT NULL,
  max_score  REAL NOT NULL,
  answers    INTEGER NOT NULL,
  PRIMARY KEY (chat_id, slot, user_id, paper_id, section_id, topic)
) WITHOUT ROWID;

CREATE TABLE exam_topics (
  attempt_id INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
  paper_id   INTEGER NOT NULL,
  section_id INTEGER NOT NULL,
  topic      TEXT NOT NULL,
  score      REAL NOT NULL,
  max_score  REAL NOT NULL,
  answers    INTEGER NOT NULL,  -- final answers only (one awaiting review counts once reviewed)
  PRIMARY KEY (attempt_id, paper_id, section_id, topic)
) WITHOUT ROWID;

-- a question's daily answers, for recomputing its groups when the question moves
CREATE INDEX daily_answers_by_question ON daily_answers(question_id);

INSERT INTO daily_topics
  SELECT d.chat_id, CAST(d.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic,
         SUM(d.score), SUM(d.max_score), COUNT(*)
  FROM daily_answers d JOIN questions q ON q.id = d.question_id
  GROUP BY d.chat_id, CAST(d.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic;

INSERT INTO exam_topics
  SELECT x.attempt_id, q.paper_id, q.section_id, q.topic, SUM(x.score), SUM(x.max_score), COUNT(*)
  FROM answers x JOIN questions q ON q.id = x.question_id JOIN attempts t ON t.id = x.attempt_id
  WHERE x.final = 1
  GROUP BY x.attempt_id, q.paper_id, q.section_id, q.topic;

-- daily answers: recompute the one (chat, slot, member, paper, section, topic) row an answer is in
CREATE TRIGGER daily_topics_insert AFTER INSERT ON daily_answers BEGIN
  DELETE FROM daily_topics WHERE chat_id = NEW.chat_id AND slot = CAST(NEW.answered_at AS INTEGER) / 900
    AND user_id = NEW.user_id
    AND (paper_id, section_id, topic) = (SELECT paper_id, section_id, topic FROM questions WHERE id = NEW.question_id);
  INSERT INTO daily_topics
    SELECT d.chat_id, CAST(NEW.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic,
           SUM(d.score), SUM(d.max_score), COUNT(*)
    FROM daily_answers d INDEXED BY daily_answers_by_user JOIN questions q ON q.id = d.question_id
    JOIN questions n ON n.id = NEW.question_id
    WHERE d.user_id = NEW.user_id AND d.chat_id = NEW.chat_id
      AND d.answered_at >= CAST(NEW.answered_at AS INTEGER) / 900 * 900
      AND d.answered_at < (CAST(NEW.answered_at AS INTEGER) / 900 + 1) * 900
      AND q.paper_id = n.paper_id AND q.section_id = n.section_id AND q.topic = n.topic
    GROUP BY q.paper_id, q.section_id, q.topic;
END;

CREATE TRIGGER daily_topics_delete AFTER DELETE ON daily_answers BEGIN
  DELETE FROM daily_topics WHERE chat_id = OLD.chat_id AND slot = CAST(OLD.answered_at AS INTEGER) / 900
    AND user_id = OLD.user_id
    AND (paper_id, section_id, topic) = (SELECT paper_id, section_id, topic FROM questions WHERE id = OLD.question_id);
  INSERT INTO daily_topics
    SELECT d.chat_id, CAST(OLD.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic,
           SUM(d.score), SUM(d.max_score), COUNT(*)
    FROM daily_answers d INDEXED BY daily_answers_by_user JOIN questions q ON q.id = d.question_id
    JOIN questions n ON n.id = OLD.question_id
    WHERE d.user_id = OLD.user_id AND d.chat_id = OLD.chat_id
      AND d.answered_at >= CAST(OLD.answered_at AS INTEGER) / 900 * 900
      AND d.answered_at < (CAST(OLD.answered_at AS INTEGER) / 900 + 1) * 900
      AND q.paper_id = n.paper_id AND q.section_id = n.section_id AND q.topic = n.topic
      AND EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id)
    GROUP BY q.paper_id, q.section_id, q.topic;
END;

CREATE TRIGGER daily_topics_update AFTER UPDATE OF chat_id, user_id, question_id, score, max_score, answered_at
ON daily_answers BEGIN
  DELETE FROM daily_topics WHERE chat_id = OLD.chat_id AND slot = CAST(OLD.answered_at AS INTEGER) / 900
    AND user_id = OLD.user_id
    AND (paper_id, section_id, topic) = (SELECT paper_id, section_id, topic FROM questions WHERE id = OLD.question_id);
  INSERT INTO daily_topics
    SELECT d.chat_id, CAST(OLD.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic,
           SUM(d.score), SUM(d.max_score), COUNT(*)
    FROM daily_answers d INDEXED BY daily_answers_by_user JOIN questions q ON q.id = d.question_id
    JOIN questions n ON n.id = OLD.question_id
    WHERE d.user_id = OLD.user_id AND d.chat_id = OLD.chat_id
      AND d.answered_at >= CAST(OLD.answered_at AS INTEGER) / 900 * 900
      AND d.answered_at < (CAST(OLD.answered_at AS INTEGER) / 900 + 1) * 900
      AND q.paper_id = n.paper_id AND q.section_id = n.section_id AND q.topic = n.topic
    GROUP BY q.paper_id, q.section_id, q.topic;
  DELETE FROM daily_topics WHERE chat_id = NEW.chat_id AND slot = CAST(NEW.answered_at AS INTEGER) / 900
    AND user_id = NEW.user_id
    AND (paper_id, section_id, topic) = (SELECT paper_id, section_id, topic FROM questions WHERE id = NEW.question_id);
  INSERT INTO daily_topics
    SELECT d.chat_id, CAST(NEW.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic,
           SUM(d.score), SUM(d.max_score), COUNT(*)
    FROM daily_answers d INDEXED BY daily_answers_by_user JOIN questions q ON q.id = d.question_id
    JOIN questions n ON n.id = NEW.question_id
    WHERE d.user_id = NEW.user_id AND d.chat_id = NEW.chat_id
      AND d.answered_at >= CAST(NEW.answered_at AS INTEGER) / 900 * 900
      AND d.answered_at < (CAST(NEW.answered_at AS INTEGER) / 900 + 1) * 900
      AND q.paper_id = n.paper_id AND q.section_id = n.section_id AND q.topic = n.topic
    GROUP BY q.paper_id, q.section_id, q.topic;
END;

-- exam answers: recompute the attempt's few rows from its final answers
CREATE TRIGGER exam_topics_insert AFTER INSERT ON answers BEGIN
  DELETE FROM exam_topics WHERE attempt_id = NEW.attempt_id;
  INSERT INTO exam_topics
    SELECT x.attempt_id, q.paper_id, q.section_id, q.topic, SUM(x.score), SUM(x.max_score), COUNT(*)
    FROM answers x JOIN questions q ON q.id = x.question_id
    WHERE x.attempt_id = NEW.attempt_id AND x.final = 1
    GROUP BY q.paper_id, q.section_id, q.topic;
END;

CREATE TRIGGER exam_topics_delete AFTER DELETE ON answers BEGIN
  DELETE FROM exam_topics WHERE attempt_id = OLD.attempt_id;
  INSERT INTO exam_topics
    SELECT x.attempt_id, q.paper_id, q.section_id, q.topic, SUM(x.score), SUM(x.max_score), COUNT(*)
    FROM answers x JOIN questions q ON q.id = x.question_id
    WHERE x.attempt_id = OLD.attempt_id AND x.final = 1
      AND EXISTS (SELECT 1 FROM attempts WHERE id = OLD.attempt_id)
    GROUP BY q.paper_id, q.section_id, q.topic;
END;

CREATE TRIGGER exam_topics_update AFTER UPDATE OF attempt_id, question_id, score, max_score, final ON answers BEGIN
  DELETE FROM exam_topics WHERE attempt_id IN (OLD.attempt_id, NEW.attempt_id);
  INSERT INTO exam_topics
    SELECT x.attempt_id, q.paper_id, q.section_id, q.topic, SUM(x.score), SUM(x.max_score), COUNT(*)
    FROM answers x JOIN questions q ON q.id = x.question_id
    WHERE x.attempt_id IN (OLD.attempt_id, NEW.attempt_id) AND x.final = 1
    GROUP BY x.attempt_id, q.paper_id, q.section_id, q.topic;
END;

-- a question moved to another paper, section or topic (a re-import): recompute its old and new groups
CREATE TRIGGER topics_question_moved AFTER UPDATE OF paper_id, section_id, topic ON questions
WHEN OLD.paper_id IS NOT NEW.paper_id OR OLD.section_id IS NOT NEW.section_id OR OLD.topic IS NOT NEW.topic
BEGIN
  DELETE FROM daily_topics WHERE (paper_id = OLD.paper_id AND section_id = OLD.section_id AND topic = OLD.topic)
    OR (paper_id = NEW.paper_id AND section_id = NEW.section_id AND topic = NEW.topic);
  INSERT INTO daily_topics
    SELECT d.chat_id, CAST(d.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic,
           SUM(d.score), SUM(d.max_score), COUNT(*)
    FROM questions q JOIN daily_answers d INDEXED BY daily_answers_by_question ON d.question_id = q.id
    WHERE (q.paper_id = OLD.paper_id AND q.section_id = OLD.section_id AND q.topic = OLD.topic)
       OR (q.paper_id = NEW.paper_id AND q.section_id = NEW.section_id AND q.topic = NEW.topic)
    GROUP BY d.chat_id, CAST(d.answered_at AS INTEGER) / 900, d.user_id, q.paper_id, q.section_id, q.topic;
  DELETE FROM exam_topics WHERE attempt_id IN (SELECT attempt_id FROM answers WHERE question_id = NEW.id);
  INSERT INTO exam_topics
    SELECT x.attempt_id, q.paper_id, q.section_id, q.topic, SUM(x.score), SUM(x.max_score), COUNT(*)
    FROM answers x JOIN questions q ON q.id = x.question_id
    WHERE x.final = 1 AND x.attempt_id IN (SELECT attempt_id FROM answers WHERE question_id = NEW.id)
    GROUP BY x.attempt_id, q.paper_id, q.section_id, q.topic;
END;
