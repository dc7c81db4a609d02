"""Daily practice's lock per chat: one push, answer-and-next or close at a time in a chat (taken by
push.py, answering.py and bot.private_text, around a private text's transaction)."""

from __future__ import annotations

import asyncio

from telegram.ext import Application

from bot.services import Slot

_LOCKS: Slot[dict[int, asyncio.Lock]] = Slot("daily_locks", dict)  # chat id -> its lock (this process)


def chat_lock(app: Application, chat_id: int) -> asyncio.Lock:
    """One push, answer-and-next or close at a time per chat."""
    locks = _LOCKS.of(app)
    lock = locks.get(chat_id)
    if lock is None:
        lock = locks[chat_id] = asyncio.Lock()
    return lock

