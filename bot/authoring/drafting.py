"""What a lead's open draft or edit (/newquestion, /editq, /newpaper) may take as its typed input."""

from __future__ import annotations

from telegram import Message

from proctor.exams.service import running_attempt
from proctor.storage.db import Database


async def answers_elsewhere(db: Database, message: Message, user_id: int) -> bool:
    """A reply (a daily question's) or text during the user's running attempt (the exam's) is never
    a draft's or an edit's input: one waiting for text must not swallow an answer."""
    return message.reply_to_message is not None or await running_attempt(db, user_id) is not None
