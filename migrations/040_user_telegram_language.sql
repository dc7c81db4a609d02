-- The language a person's Telegram app reports (`language_code` of their latest update that gave one),
-- kept so that a message with no update to read it from (a job, an outbox card, a notice) is in the
-- same language as a reply to them (bot/voice.py). NULL: never reported. /lang still wins over it.
ALTER TABLE users ADD COLUMN telegram_language TEXT;
