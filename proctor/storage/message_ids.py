"""Telegram message ids the record points at (attempt screens, quiz questions), per chat."""

from __future__ import annotations

from proctor.storage.db import Database


async def next_per_chat(db: Database) -> dict[int, int]:
    """Per chat, one above every message id the database refers to: a fake chat (the sandbox's) must
    not hand out an id an old exam or quiz still points at."""
    rows = await db.fetchall(
        """SELECT chat_id, MAX(m) FROM (
               SELECT chat_id, message_id AS m FROM attempts WHERE message_id IS NOT NULL
               UNION ALL
               SELECT d.chat_id, i.message_id FROM daily_items i
               JOIN daily_deliveries d ON d.id = i.delivery_id WHERE i.message_id IS NOT NULL) referred
           GROUP BY chat_id""")
    return {int(chat_id): int(top) + 1 for chat_id, top in rows}
