-- Ratings (docs/ratings.md): each person's first answer to a question, counted when it became final,
-- is a game between the person and the question; the events are the record, in the order they counted,
-- and the ratings of people and questions are what folding the rule (proctor/ratings/rule.py) over
-- them in that order gives. An upgraded database has no events: start-up builds them from the answers
-- (proctor/ratings_rebuild.py), and writes rating_builds.
CREATE TABLE rating_events (
  seq         INTEGER PRIMARY KEY,              -- the order the answers counted in: ratings fold by it
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  correct     REAL NOT NULL CHECK (correct >= 0 AND correct <= 1),  -- score / max: partial credit
  at          REAL NOT NULL,                    -- when it counted (Unix time)
  source      TEXT NOT NULL,                    -- proctor.ratings.events.Source
  ref_id      INTEGER NOT NULL,                 -- the answer: attempt, delivery or round id ...
  ref_pos     INTEGER NOT NULL,                 -- ... and its position (the user is user_id)
  UNIQUE (user_id, question_id)                 -- a person's first answer to a question only
);
CREATE INDEX rating_events_by_question ON rating_events(question_id);

-- what folding the events gives, kept so a board or a card reads one row (logits; docs/ratings.md)
CREATE TABLE person_ratings (
  user_id   INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  mean      REAL NOT NULL,
  deviation REAL NOT NULL,                      -- as of `at`; it grows with time away (rule.deviation_at)
  answers   INTEGER NOT NULL,
  at        REAL NOT NULL                       -- the last counted answer
);

CREATE TABLE question_ratings (
  question_id INTEGER PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
  measured    REAL NOT NULL,                    -- the measured difficulty (the author's label: questions.difficulty)
  deviation   REAL NOT NULL,
  answers     INTEGER NOT NULL,
  at          REAL NOT NULL
);

-- the rule the stored ratings were folded with, and when: start-up rebuilds them when there is none
-- or the rule changed
CREATE TABLE rating_builds (
  rule     TEXT PRIMARY KEY,
  built_at REAL NOT NULL
);
