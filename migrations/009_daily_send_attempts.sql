-- Daily items: how many times a send was started. A send is counted before the call to Telegram
-- and its message id written after it, so an item with attempts but no message id may be in the
-- chat already (the call went through, the bot died before writing the id): it is sent again, and
-- both copies' buttons are accepted. Existing items: the ones sent, and the unsent ones of a push
-- that was under way (the code before this column may have sent them), count one attempt.
ALTER TABLE daily_items ADD COLUMN send_attempts INTEGER NOT NULL DEFAULT 0;
UPDATE daily_items SET send_attempts = 1
 WHERE message_id IS NOT NULL
    OR delivery_id IN (SELECT id FROM daily_deliveries WHERE status = 'sending');
