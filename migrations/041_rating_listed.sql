-- Who chose to be listed by name on their groups' rating boards (/rating public); nobody is listed
-- until they choose it, and /rating private deletes the row (docs/ratings.md, "Who sees which rating").
-- /forgetme's deletion of the user cascades here.
CREATE TABLE rating_listed (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  since   REAL NOT NULL
);
