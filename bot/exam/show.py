"""The exam's screen on Telegram: an attempt's one message, edited in place or posted anew at the
bottom, and the finish confirmation after the last question."""

from __future__ import annotations

import logging

from telegram.error import BadRequest, TelegramError

from bank.kinds import ReviewOption
from bank.paper_settings import review_option
from bot.context import Ctx
from bot.edits import edit_text, message_gone
from bot.exam import render
from bot.exam.screen_lock import screen_turn
from bot.userctx import UserCtx, prefs_for
from proctor.exams import service as attempts
from proctor.exams.model import Attempt, Sheet
from proctor.exams.states import AttemptMode

log = logging.getLogger(__name__)


async def show_attempt(context: Ctx, attempt_id: int, u: UserCtx, *,
                       repost: bool = False) -> None:
    """Render the attempt at its current question: edit its message, or post it anew at the bottom."""
    svc = context.services
    sheet = await attempts.load_sheet(svc.db, attempt_id)
    a = sheet.attempt
    # only practice feedback follows the paper's review option (render.attempt_screen): an exam reads none
    review = await review_option(svc.db, a.paper_id) if a.mode == AttemptMode.practice else ReviewOption.full
    await show_sheet(context, sheet, u, review, repost=repost)


async def show_sheet(context: Ctx, sheet: Sheet, u: UserCtx, review: ReviewOption, *,
                     repost: bool = False, note: str | None = None) -> None:
    """Render a sheet already read (a step's outcome carries it): no database read here. `note` goes
    under a reposted screen (render.noted). Shown under the attempt's screen lock: not at all once the
    attempt's card took the screen (bot/exam/screen_lock.py)."""
    svc = context.services
    a = sheet.attempt
    text, kb = render.attempt_screen(sheet, u.lang, u.script, svc.now(), review=review)
    async with screen_turn(context, a) as ours:
        if not ours:
            log.info("attempt %s: handed in before its screen was shown", sheet.attempt.id)
            return
        if not repost and a.message_id:
            try:
                await edit_text(context.bot, a.chat_id, a.message_id, text, kb)
                return
            except BadRequest as e:
                log.info("attempt %s: could not edit its message (%s); posting it again", a.id, e)
        text = render.noted(text, note)
        try:
            sent = await context.bot.send_message(a.chat_id, text, reply_markup=kb, protect_content=True)
        except TelegramError as e:
            if not (repost and a.message_id):
                raise
            # the step is stored: a lost send must not keep the next question from showing
            log.info("attempt %s: could not post its screen (%s); showing it in the old message", a.id, e)
            await edit_text(context.bot, a.chat_id, a.message_id, text, kb)
            return
        await _moved(context, a, sent.message_id)


async def _moved(context: Ctx, a: Attempt, message_id: int) -> None:
    """The screen is now `message_id`: recorded, then the old one deleted."""
    await attempts.set_message(context.services.db, a.id, message_id)
    if a.message_id and a.message_id != message_id:
        try:
            await context.bot.delete_message(a.chat_id, a.message_id)
        except BadRequest as e:
            if not message_gone(e):  # gone already, or too old to delete: the new screen below is what counts
                log.warning("attempt %s: the old screen %s not deleted (%s)", a.id, a.message_id, e)


async def offer_finish(context: Ctx, sheet: Sheet, answered_pos: int, *, repost: bool = False,
                       u: UserCtx | None = None, note: str | None = None) -> bool:
    """After the last question of an exam is answered, show the finish confirmation. `sheet` is the
    attempt as it is after the answer (a step's outcome)."""
    if sheet.attempt.mode != AttemptMode.exam or answered_pos != len(sheet.items) - 1:
        return False
    attempt_id = sheet.attempt.id
    if u is None:
        u = await prefs_for(context, sheet.attempt.user_id)
    text, kb = render.finish_confirm(sheet, u.lang)
    a = sheet.attempt
    async with screen_turn(context, a) as ours:
        if not ours:
            log.info("attempt %s: handed in before its finish prompt was shown", attempt_id)
        elif repost or not a.message_id:
            sent = await context.bot.send_message(a.chat_id, render.noted(text, note), reply_markup=kb)
            await _moved(context, a, sent.message_id)
        else:
            await edit_text(context.bot, a.chat_id, a.message_id, text, kb)
    return True
