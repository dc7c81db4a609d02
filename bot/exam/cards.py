"""The outbox's senders of the candidate's result card: posted below the closed attempt message, or, for
an invited attempt, in that message's place."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, TelegramError
from telegram.ext import Application

from bot.edits import edit_text
from bot.exam import render
from bot.exam.screen_lock import card_turn
from bot.i18n import t
from bot.pacing import Turn
from bot.services import services
from bot.userctx import UserCtx, prefs_ctx
from proctor.exams.cards import ResultCard, load_result_card
from proctor.exams.model import Attempt, compute_result
from proctor.outbox import Outgoing

log = logging.getLogger(__name__)


async def send_result(app: Application, message: Outgoing, turn: Turn | None) -> None:
    """The outbox's sender of result cards: close the attempt message, post the card.

    Raises NotFound (the attempt is gone) and TelegramError (the outbox retries or gives up)."""
    async with _card(app, message) as (a, text, kb, u):
        if a.message_id:
            try:  # cosmetic: the card is what must arrive
                await app.bot.edit_message_text(t("finished_banner", u.lang), chat_id=a.chat_id,
                                                message_id=a.message_id, reply_markup=None, rate_limit_args=turn)
            except TelegramError as e:
                log.info("attempt %s: could not close its message (%s)", a.id, e)
        await app.bot.send_message(message.chat_id, text, reply_markup=kb, rate_limit_args=turn)


async def send_result_in_place(app: Application, message: Outgoing, turn: Turn | None) -> None:
    """The outbox's sender of an invited attempt's card (RESULT_IN_PLACE): the card takes the attempt
    message's place, protected as the paper was. An edit is not one of Telegram's 30 messages a
    second, so it takes no turn at the pacer, and a second delivery changes nothing; a message that
    is gone gets the card posted below, at the pacer's bulk level (its turn took no token).

    Raises NotFound (the attempt is gone) and TelegramError (the outbox retries or gives up)."""
    async with _card(app, message) as (a, text, kb, _):
        if a.message_id:
            try:
                await edit_text(app.bot, a.chat_id, a.message_id, text, kb)
                return
            except BadRequest as e:  # gone, say: the card is posted instead
                log.info("attempt %s: the card could not take its message's place (%s)", a.id, e)
        await app.bot.send_message(message.chat_id, text, reply_markup=kb, rate_limit_args=turn)


@asynccontextmanager
async def _card(app: Application, message: Outgoing) -> AsyncIterator[
        tuple[Attempt, str, InlineKeyboardMarkup | None, UserCtx]]:
    """The attempt's screen held for its card (no late reply touches it after this: bot/exam/screen_lock.py),
    and the card read (one round trip) and rendered in its candidate's language."""
    async with card_turn(app, int(message.ref)):
        card: ResultCard = await load_result_card(services(app).db, int(message.ref))
        sheet = card.sheet
        u = prefs_ctx(app, sheet.attempt.user_id, card.prefs)
        text, kb = render.result_card(sheet, compute_result(sheet.items, sheet.answers), u.lang, card.vis,
                                      card.review, u.script, card.pass_percent)
        yield sheet.attempt, text, kb, u
