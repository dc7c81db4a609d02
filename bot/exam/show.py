"""Showing an attempt (one message, edited in place) and handing it in with its result card."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, TelegramError
from telegram.ext import Application

from bank.kinds import ReviewOption
from bank.paper_settings import review_option
from bot import outbox, scheduling
from bot.context import Ctx
from bot.edits import edit_text, message_gone
from bot.exam import render
from bot.i18n import pick_lang, t
from bot.pacing import Turn
from bot.scheduling import JobKind
from bot.services import services
from bot.userctx import UserCtx
from proctor.exams import service as attempts
from proctor.exams.cards import ResultCard, load_result_card
from proctor.exams.model import Sheet, compute_result
from proctor.exams.states import AttemptMode, FinishReason
from proctor.outbox import Outgoing
from proctor.people.users import UserPrefs, find_prefs

log = logging.getLogger(__name__)


async def prefs_for(context: Ctx | Application, user_id: int) -> UserCtx:
    """A user's language and script when there is no update to read them from (jobs)."""
    return prefs_ctx(context, user_id, await find_prefs(services(context).db, user_id))


def prefs_ctx(context: Ctx | Application, user_id: int, prefs: UserPrefs | None) -> UserCtx:
    """`prefs_for` with the user's preferences already read (None: a user without a record)."""
    svc = services(context)
    if prefs is None:
        return UserCtx(user_id, "", svc.settings.language, "orig")
    lang = pick_lang(prefs.language, None, svc.settings.language)
    return UserCtx(user_id, prefs.first_name, lang, prefs.script, lang, prefs.script)


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
    """Render a sheet already read (a step's outcome carries it): no database read here. `note`
    goes under a reposted screen (render.noted)."""
    svc = context.services
    a = sheet.attempt
    text, kb = render.attempt_screen(sheet, u.lang, u.script, svc.now(), review=review)
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
    await attempts.set_message(svc.db, a.id, sent.message_id)
    if a.message_id and a.message_id != sent.message_id:
        try:
            await context.bot.delete_message(a.chat_id, a.message_id)
        except BadRequest as e:
            if not message_gone(e):  # gone already, or too old to delete: the new screen below is what counts
                log.warning("attempt %s: the old screen %s not deleted (%s)", a.id, a.message_id, e)


async def finish_and_report(context: Ctx, attempt_id: int, reason: FinishReason) -> bool:
    """Hand the attempt in (once); its result card is then delivered by the outbox. False if it
    was already closed."""
    svc = context.services
    done = await attempts.finish_attempt(svc.db, attempt_id, svc.now(), reason)
    scheduling.disarm(context.application, JobKind.deadline, attempt_id)
    scheduling.disarm(context.application, JobKind.exam_timer, attempt_id)
    if done is None:
        return False
    await release_daily(context, done[0].user_id)
    outbox.kick(context.application)
    return True


async def release_daily(context: Ctx, user_id: int) -> None:
    """The exam's keys are no longer sealed: a private daily quiz held back for it goes out now
    (daily practice's release job, armed by name: the exam does not import daily practice)."""
    scheduling.once(context.application, JobKind.daily_release, user_id)


async def send_result(app: Application, message: Outgoing, turn: Turn | None) -> None:
    """The outbox's sender of result cards: close the attempt message, post the card.

    Raises NotFound (the attempt is gone) and TelegramError (the outbox retries or gives up)."""
    card = await load_result_card(services(app).db, int(message.ref))  # one round trip
    a = card.sheet.attempt
    text, kb, u = _result_card(app, card)
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
    card = await load_result_card(services(app).db, int(message.ref))  # one round trip
    a = card.sheet.attempt
    text, kb, _ = _result_card(app, card)
    if a.message_id:
        try:
            await edit_text(app.bot, a.chat_id, a.message_id, text, kb)
            return
        except BadRequest as e:  # gone, say: the card is posted instead
            log.info("attempt %s: the card could not take its message's place (%s)", a.id, e)
    await app.bot.send_message(message.chat_id, text, reply_markup=kb, rate_limit_args=turn)


def _result_card(app: Application, card: ResultCard) -> tuple[str, InlineKeyboardMarkup | None, UserCtx]:
    sheet = card.sheet
    u = prefs_ctx(app, sheet.attempt.user_id, card.prefs)
    text, kb = render.result_card(sheet, compute_result(sheet.items, sheet.answers), u.lang,
                                  card.review, u.script, card.pass_percent)
    return text, kb, u


async def offer_finish(context: Ctx, sheet: Sheet, answered_pos: int, *, repost: bool = False,
                       u: UserCtx | None = None, note: str | None = None) -> bool:
    """After the last question of an exam is answered, show the finish confirmation. `sheet` is the
    attempt as it is after the answer (a step's outcome)."""
    if sheet.attempt.mode != AttemptMode.exam or answered_pos != len(sheet.items) - 1:
        return False
    svc = context.services
    attempt_id = sheet.attempt.id
    if u is None:
        u = await prefs_for(context, sheet.attempt.user_id)
    text, kb = render.finish_confirm(sheet, u.lang)
    if repost or not sheet.attempt.message_id:
        sent = await context.bot.send_message(sheet.attempt.chat_id, render.noted(text, note), reply_markup=kb)
        await attempts.set_message(svc.db, attempt_id, sent.message_id)
        if sheet.attempt.message_id:
            try:
                await context.bot.delete_message(sheet.attempt.chat_id, sheet.attempt.message_id)
            except BadRequest as e:
                if not message_gone(e):  # gone already, or too old to delete: the prompt below is what counts
                    log.warning("attempt %s: the old screen %s not deleted (%s)", attempt_id,
                                sheet.attempt.message_id, e)
    else:
        await edit_text(context.bot, sheet.attempt.chat_id, sheet.attempt.message_id, text, kb)
    return True
