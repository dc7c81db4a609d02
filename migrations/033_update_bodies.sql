-- An update is stored with its claim, and its done mark clears it: an update claimed (so confirmed
-- to Telegram, which will not send it again) but not handled when its process stopped is handled
-- from its body at the next start (bot/intake.py). Claims from before have no body (NULL): they
-- are handled again only if Telegram delivers them again, as before.
ALTER TABLE processed_updates ADD COLUMN body TEXT;
-- the claims not yet done (the few in flight, and those of a stopped run): what start-up and /forgetme read
CREATE INDEX processed_updates_unfinished ON processed_updates(bot_id, update_id) WHERE state = 'claimed';
