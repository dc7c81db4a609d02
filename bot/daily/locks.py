"""Daily practice's lock per chat: one push, answer-and-next or close at a time in a chat. Apart from
push.py so that the exam's typed answers can take it around their transaction (bot.exam.typed's
OtherText) without loading daily practice."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager

from telegram.ext import Application

from bot.context import Ctx
from bot.services import Slot

_LOCKS: Slot[dict[int, asyncio.Lock]] = Slot("daily_locks", dict)  # chat id -> its lock (this process)


def chat_lock(app: Application, chat_id: int) -> asyncio.Lock:
    """One push, answer-and-next or close at a time per chat."""
    locks = _LOCKS.of(app)
    lock = locks.get(chat_id)
    if lock is None:
        lock = locks[chat_id] = asyncio.Lock()
    return lock


def private_lock(context: Ctx, chat_id: int) -> AbstractAsyncContextManager[object]:
    """The lock a private text's daily answer is taken under (the exam's typed handler holds it)."""
    return chat_lock(context.application, chat_id)
