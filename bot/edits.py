"""The one home of "edit a message, and *message is not modified* is no error" (a double tap, or
a redraw that changed nothing, makes Telegram answer 400 with that text)."""

from __future__ import annotations

from telegram import Bot, InlineKeyboardMarkup
from telegram.error import BadRequest


def not_modified(e: BadRequest) -> bool:
    return "not modified" in str(e).lower()


# Telegram's 400s for a message that is no longer there (a user deleted it), or that a bot may no
# longer delete (older than 48 hours)
_GONE = ("message to delete not found", "message can't be deleted", "message to edit not found")


def message_gone(e: BadRequest) -> bool:
    """Is this Telegram's answer about a message that is gone, or too old to delete?"""
    return any(text in str(e).lower() for text in _GONE)


async def edit_text(bot: Bot, chat_id: int, message_id: int, text: str,
                    markup: InlineKeyboardMarkup | None = None) -> bool:
    """Edit the message's text and buttons. True if edited, False if it already showed them;
    any other failure is raised for the caller to judge."""
    try:
        await bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, reply_markup=markup)
    except BadRequest as e:
        if not_modified(e):
            return False
        raise
    return True
