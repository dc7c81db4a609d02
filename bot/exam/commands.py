"""Exam commands: /papers, /exam, /practice, /resume, /cancel, /mystats."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ChatType

from bank.errors import NotFound
from bank.paper_list import offered_papers, pick_offered
from bot.context import Ctx
from bot.core import open_private_button
from bot.exam import render
from bot.exam.hand_in import finish_and_report
from bot.exam.jobs import ensure_deadline
from bot.exam.show import show_attempt
from bot.i18n import t
from bot.open_work import end_open_work
from bot.paper_refs import unknown_paper
from bot.rating_words import own_lines
from bot.userctx import UserCtx, user_ctx
from proctor.exams import service as attempts
from proctor.exams.deadline import time_is_up
from proctor.exams.sittings import sittings
from proctor.exams.states import AttemptMode, FinishReason
from proctor.ratings.shown import own as own_rating

log = logging.getLogger(__name__)


async def papers(update: Update, context: Ctx) -> None:
    """List each paper with its question count, maximum score and time limit."""
    u = await user_ctx(update, context)
    await context.message.reply_text(render.paper_list(await offered_papers(context.services.db), u.lang, u.script))


async def _redirect_to_private(update: Update, context: Ctx, u: UserCtx) -> bool:
    if context.chat.type == ChatType.PRIVATE:
        return False
    await context.message.reply_text(
        t("private_only", u.lang), reply_markup=open_private_button(context.bot.username, u.lang))
    return True


async def _busy(update: Update, context: Ctx, u: UserCtx) -> bool:
    """One attempt at a time: say so now rather than after a paper is chosen."""
    if await attempts.running_attempt(context.services.db, u.id) is None:
        return False
    await context.message.reply_text(t("already_running", u.lang))
    return True


async def exam(update: Update, context: Ctx) -> None:
    """Choose a paper (or /exam random) and see its rules card."""
    u = await user_ctx(update, context)
    if await _redirect_to_private(update, context, u) or await _busy(update, context, u):
        return
    args = [a.lower() for a in context.args or []]
    kb: InlineKeyboardMarkup | None
    if args == ["random"]:
        text, kb = render.mock_rules_card(u.lang, await attempts.mock_size(context.services.db), attempts.MOCK_MINUTES)
    elif args:  # /exam <paper>: its rules card at once
        name = " ".join(context.args or [])
        try:
            paper = await pick_offered(context.services.db, name)
        except NotFound as e:
            await context.message.reply_text(unknown_paper(e, name, u.lang, "exam_unknown_paper"))
            return
        sat = await sittings(context.services.db, u.id, paper.id)
        text, kb = render.rules_card(paper, sat, u.lang, u.script)
    else:
        text, kb = render.paper_chooser(await offered_papers(context.services.db), AttemptMode.exam, u.lang, u.script)
    await context.message.reply_text(text, reply_markup=kb)


async def practice(update: Update, context: Ctx) -> None:
    """Practise untimed, with feedback after each answer: the paper named, or with no paper named,
    questions picked at the person's level (proctor/exams/adaptive.py)."""
    u = await user_ctx(update, context)
    if await _redirect_to_private(update, context, u) or await _busy(update, context, u):
        return
    svc = context.services
    name = " ".join(context.args or []).strip()
    try:
        paper_id = (await pick_offered(svc.db, name)).id if name else None
        attempt = await attempts.start_attempt(svc.db, user_id=u.id, chat_id=context.chat.id, paper_id=paper_id,
                                               mode=AttemptMode.practice, now=svc.now(),
                                               shuffle=svc.settings.shuffle_options, adaptive=not name)
    except attempts.ExamOnly:
        await context.message.reply_text(t("exam_only", u.lang))
        return
    except attempts.AlreadyRunning:  # a second /practice racing the first
        await context.message.reply_text(t("already_running", u.lang))
        return
    except NotFound as e:
        text = unknown_paper(e, name, u.lang, "exam_unknown_paper") if name else t("ad_none", u.lang)
        await context.message.reply_text(text)
        return
    if not name:
        await context.message.reply_text(t("ad_intro", u.lang))
    await show_attempt(context, attempt.id, u, repost=True)


async def _running_here(update: Update, context: Ctx, u: UserCtx):
    """The user's running attempt, in a private chat; otherwise they are told why not and None."""
    if await _redirect_to_private(update, context, u):
        return None
    running = await attempts.running_attempt(context.services.db, u.id)
    if running is None:
        await context.message.reply_text(t("nothing_running", u.lang))
    return running


async def resume(update: Update, context: Ctx) -> None:
    """Show the running attempt again, at the same question, as a fresh message."""
    u = await user_ctx(update, context)
    if (running := await _running_here(update, context, u)) is None:
        return
    if time_is_up(running.deadline, context.services.now()):
        await finish_and_report(context, running.id, FinishReason.timeout)
        return
    ensure_deadline(context.application, running)
    await show_attempt(context, running.id, u, repost=True)


async def cancel(update: Update, context: Ctx) -> None:
    """End whatever is open: a draft or an edit at once, the running attempt after a confirmation (a
    cancelled exam still counts toward the limit)."""
    u = await user_ctx(update, context)
    if await _redirect_to_private(update, context, u):
        return
    ended = await end_open_work(context, u)
    running = await attempts.running_attempt(context.services.db, u.id)
    if ended:
        await context.message.reply_text(render.clip("\n".join(ended)))
    if running is not None:
        text, kb = render.cancel_confirm(running, u.lang, u.script)
        await context.message.reply_text(text, reply_markup=kb)
    elif not ended:
        await context.message.reply_text(t("cancel_nothing", u.lang))


async def mystats(update: Update, context: Ctx) -> None:
    """The user's rating with its band, then their exams: attempts used (cancelled ones count, as the
    limit counts them), best and last score."""
    u = await user_ctx(update, context)
    svc = context.services
    mine = await own_rating(svc.db, u.id, svc.now())
    lines = [*own_lines(mine.shown, mine.listed, u.lang), ""]
    rows = await attempts.user_stats(svc.db, u.id)
    if not rows:
        lines.append(t("mystats_none", u.lang))
    else:
        lines.append(t("mystats_header", u.lang))
        lines += [render.mystats_line(r, u.lang, u.script) for r in rows]
    await context.message.reply_text(render.clip("\n".join(lines)))
