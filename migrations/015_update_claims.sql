-- An update is claimed before its handler runs and marked done after it: a claim left by a process
-- that stopped in between is not a duplicate, so the redelivered update is handled. Every record
-- already here was handled to the end by the old code: 'done'.
ALTER TABLE processed_updates ADD COLUMN state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('claimed', 'done'));
ALTER TABLE processed_updates ADD COLUMN run TEXT;
