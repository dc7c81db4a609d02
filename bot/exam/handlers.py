"""Exam and practice handlers: read the update, call one service, render, reply."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bank.attempts import service as attempts
from bank.attempts.model import Sheet, wrong_positions
from bank.errors import AlreadyRunning, AttemptClosed, AttemptLimitReached, ExamOnly, NotFound, NotYourAttempt
from bank.grading import parse_truefalse
from bank.models import Kind
from bank.paper_store import list_papers, load_paper
from bot.core import open_private_button
from bot.exam import callbacks as cb
from bot.exam import render
from bot.exam.screen import finish_and_report, prefs_for, show_attempt
from bot.i18n import t
from bot.services import services
from bot.userctx import UserCtx, user_ctx

log = logging.getLogger(__name__)

MOCK_BLUEPRINT = {Kind.fill: 10, Kind.single: 10, Kind.multi: 10, Kind.truefalse: 10, Kind.short: 2}


async def _offered_papers(context, *, practice: bool = False) -> list:
    """Papers with something to ask; exam-only (hiring) papers are never offered for practice."""
    return [p for p in await list_papers(services(context).db)
            if any(q.askable for q in p.questions()) and not (practice and p.settings.exam_only)]


async def papers(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """List each paper with its question count, maximum score and time limit."""
    u = await user_ctx(update, context)
    await update.effective_message.reply_text(render.paper_list(await _offered_papers(context), u.lang))


async def _redirect_to_private(update: Update, context, u: UserCtx) -> bool:
    if update.effective_chat.type == ChatType.PRIVATE:
        return False
    await update.effective_message.reply_text(
        t("private_only", u.lang), reply_markup=open_private_button(context.bot.username, u.lang))
    return True


async def _busy(update: Update, context, u: UserCtx) -> bool:
    """One attempt at a time: say so now rather than after a paper is chosen."""
    if await attempts.running_attempt(services(context).db, u.id) is None:
        return False
    await update.effective_message.reply_text(t("already_running", u.lang))
    return True


async def exam(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Choose a paper (or /exam random) and see its rules card."""
    u = await user_ctx(update, context)
    if await _redirect_to_private(update, context, u) or await _busy(update, context, u):
        return
    args = [a.lower() for a in context.args or []]
    if args and args != ["random"]:
        await update.effective_message.reply_text(t("exam_usage", u.lang))
        return
    if args == ["random"]:
        text, kb = render.mock_rules_card(u.lang, sum(MOCK_BLUEPRINT.values()), 60)
    else:
        text, kb = render.paper_chooser(await _offered_papers(context), "exam", u.lang)
    await update.effective_message.reply_text(text, reply_markup=kb)


async def practice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Choose a paper to practise untimed, with feedback after each answer."""
    u = await user_ctx(update, context)
    if await _redirect_to_private(update, context, u) or await _busy(update, context, u):
        return
    text, kb = render.paper_chooser(await _offered_papers(context, practice=True), "practice", u.lang)
    await update.effective_message.reply_text(text, reply_markup=kb)


async def _running_here(update: Update, context, u: UserCtx):
    """The user's running attempt, in a private chat; otherwise they are told why not and None."""
    if await _redirect_to_private(update, context, u):
        return None
    running = await attempts.running_attempt(services(context).db, u.id)
    if running is None:
        await update.effective_message.reply_text(t("nothing_running", u.lang))
    return running


async def resume(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Show the running attempt again, at the same question, as a fresh message."""
    u = await user_ctx(update, context)
    if (running := await _running_here(update, context, u)) is not None:
        await show_attempt(context, running.id, u, repost=True)


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Ask before dropping the running attempt (a cancelled exam still counts toward the limit)."""
    u = await user_ctx(update, context)
    running = await _running_here(update, context, u)
    if running is None:
        return
    text, kb = render.cancel_confirm(running, u.lang)
    await update.effective_message.reply_text(text, reply_markup=kb)


async def _cancel_confirmed(update: Update, context, u: UserCtx, data: cb.Act) -> None:
    query = update.callback_query
    svc = services(context)
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id)
    if data.action == "cancel_no":
        await query.answer()
        await _edit(query, t("cancel_kept", u.lang), None)
        return
    running = sheet.attempt
    await attempts.finish_attempt(svc.db, running.id, svc.now(), "cancelled")
    from bot.exam.jobs import disarm_deadline

    disarm_deadline(context.application, running.id)
    await query.answer()
    if running.message_id:
        try:
            await context.bot.edit_message_reply_markup(running.chat_id, running.message_id, reply_markup=None)
        except BadRequest:
            pass
    await _edit(query, t("cancelled", u.lang, title=running.title), None)


async def mystats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The user's finished exams: attempts, best and last score."""
    u = await user_ctx(update, context)
    rows = await attempts.user_stats(services(context).db, u.id)
    if not rows:
        await update.effective_message.reply_text(t("mystats_none", u.lang))
        return
    lines = [t("mystats_header", u.lang)]
    for r in rows:
        lines.append(t("mystats_line", u.lang, title=r["title"], n=r["n"], best=render.fmt_points(r["best"]),
                       last=render.fmt_points(r["last"] if r["last"] is not None else 0),
                       max=render.fmt_points(r["max_score"]), method=r["method"]))
    await update.effective_message.reply_text(render.clip("\n".join(lines)))


# ---- buttons ------------------------------------------------------------------------------

async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every exam button: validate the data, check the owner, then act."""
    query = update.callback_query
    u = await user_ctx(update, context)
    data = cb.parse(query.data)
    if data is None:
        await query.answer(t("button_unknown", u.lang))
        return
    try:
        if isinstance(data, cb.Pick):
            await _pick(update, context, u, data)
        else:
            await _act(update, context, u, data)
    except NotYourAttempt:
        await query.answer(t("not_yours", u.lang))
    except (AttemptClosed, NotFound):
        await query.answer(t("exam_closed", u.lang))


async def _pick(update: Update, context, u: UserCtx, data: cb.Pick) -> None:
    query = update.callback_query
    svc = services(context)
    if update.effective_chat.type != ChatType.PRIVATE:
        await query.answer(t("private_only", u.lang))
        return
    if not data.start:
        paper = await load_paper(svc.db, data.paper_id)
        used = await attempts.used_attempts(svc.db, u.id, paper.id)
        text, kb = render.rules_card(paper, used, u.lang)
        await query.answer()
        await query.message.reply_text(text, reply_markup=kb)
        return
    try:
        attempt = await attempts.start_attempt(
            svc.db, user_id=u.id, chat_id=update.effective_chat.id, paper_id=data.paper_id, mode=data.mode,
            now=svc.now(), shuffle=svc.settings.shuffle_options,
            blueprint=MOCK_BLUEPRINT if data.paper_id is None else None)
    except AlreadyRunning:
        await query.answer(t("already_running", u.lang), show_alert=True)
        return
    except AttemptLimitReached as e:
        await query.answer(t("limit_reached", u.lang, title=str(e))[:200], show_alert=True)
        return
    except ExamOnly:
        await query.answer(t("exam_only", u.lang), show_alert=True)
        return
    await query.answer()
    if attempt.deadline is not None:
        from bot.exam.jobs import arm_deadline

        arm_deadline(context.application, attempt.id, attempt.deadline)
    await show_attempt(context, attempt.id, u, repost=True)


async def _act(update: Update, context, u: UserCtx, data: cb.Act) -> None:
    query = update.callback_query
    svc = services(context)
    if data.action in ("cancel_yes", "cancel_no"):
        await _cancel_confirmed(update, context, u, data)
        return
    if data.action == "review":
        sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id, running=False)
        if sheet.attempt.status != "finished":  # keys are shown only once the paper is handed in
            await query.answer(t("review_after_finish", u.lang))
            return
        wrong = wrong_positions(sheet.items, sheet.answers)
        page = max(0, min(data.pos, len(wrong) - 1))
        if wrong:
            sheet = await attempts.load_sheet(svc.db, sheet.attempt.id, positions=[wrong[page]])
        text, kb = render.review_page(sheet, wrong, page, u.lang, u.script)
        await query.answer()
        await query.message.reply_text(text, reply_markup=kb, protect_content=True) if data.pos == 0 \
            else await _edit(query, text, kb)
        return
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id)
    if sheet.attempt.deadline is not None and sheet.attempt.deadline <= svc.now():
        await finish_and_report(context, sheet.attempt.id, "timeout")
        await query.answer(t("exam_closed", u.lang))
        return
    if data.pos != sheet.attempt.current_pos or data.pos >= len(sheet.items):
        # a double tap, or a button from an older rendering: nothing changes
        await query.answer(t("stale_button", u.lang))
        await show_attempt(context, sheet.attempt.id, u)
        return
    item = sheet.current
    q = sheet.question(item)
    practice = sheet.attempt.mode == "practice"
    if data.action == "answer":
        if data.arg in ("t", "f") and q.kind == Kind.truefalse:
            response = data.arg == "t"
        elif data.arg and data.arg.isdigit() and q.kind == Kind.single and int(data.arg) < len(item.option_order):
            response = item.original_letter(int(data.arg))
        else:
            await query.answer(t("button_unknown", u.lang))
            return
        await attempts.record_answer(svc.db, sheet, item.pos, response, svc.now(), advance=not practice)
    elif data.action == "toggle":
        if q.kind != Kind.multi or not data.arg.isdigit() or int(data.arg) >= len(item.option_order):
            await query.answer(t("button_unknown", u.lang))
            return
        await attempts.toggle_draft(svc.db, sheet.attempt.id, item.pos, item.original_letter(int(data.arg)))
    elif data.action == "submit":
        if q.kind != Kind.multi or not item.draft:
            await query.answer(t("draft", u.lang, a="—")[:200])
            return
        await attempts.record_answer(svc.db, sheet, item.pos, item.draft, svc.now(), advance=not practice)
    elif data.action in ("next", "back"):
        step = 1 if data.action == "next" else -1
        await attempts.move_to(svc.db, sheet.attempt.id, max(0, min(len(sheet.items) - 1, item.pos + step)))
    elif data.action == "flag":
        await attempts.toggle_flag(svc.db, sheet.attempt.id, item.pos)
    elif data.action == "finish_ask":
        text, kb = render.finish_confirm(sheet, u.lang)
        await query.answer()
        await _edit(query, text, kb)
        return
    elif data.action == "finish_no":
        pass
    elif data.action == "finish_yes":
        await query.answer()
        await finish_and_report(context, sheet.attempt.id, "submitted")
        return
    await query.answer()
    if data.action in ("answer", "submit") and await _offer_finish(context, sheet, item.pos):
        return
    await show_attempt(context, sheet.attempt.id, u)


async def _offer_finish(context, before: Sheet, answered_pos: int, *, repost: bool = False) -> bool:
    """After the last question of an exam is answered, show the finish confirmation."""
    if before.attempt.mode != "exam" or answered_pos != len(before.items) - 1:
        return False
    svc = services(context)
    sheet = await attempts.load_sheet(svc.db, before.attempt.id)
    attempt_id = sheet.attempt.id
    u = await prefs_for(context, sheet.attempt.user_id)
    text, kb = render.finish_confirm(sheet, u.lang)
    if repost or not sheet.attempt.message_id:
        sent = await context.bot.send_message(sheet.attempt.chat_id, text, reply_markup=kb)
        await attempts.set_message(svc.db, attempt_id, sent.message_id)
        if sheet.attempt.message_id:
            try:
                await context.bot.delete_message(sheet.attempt.chat_id, sheet.attempt.message_id)
            except BadRequest:
                pass
    else:
        try:
            await context.bot.edit_message_text(text, chat_id=sheet.attempt.chat_id,
                                                message_id=sheet.attempt.message_id, reply_markup=kb)
        except BadRequest as e:
            if "not modified" not in str(e).lower():
                raise
    return True


async def _edit(query, text, kb) -> None:
    try:
        await query.edit_message_text(text, reply_markup=kb)
    except BadRequest as e:
        if "not modified" not in str(e).lower():
            raise


# ---- typed answers ------------------------------------------------------------------------

async def typed_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A typed answer for the current fill-in or written question of the running attempt."""
    msg = update.effective_message
    svc = services(context)
    tg_user = update.effective_user
    running = await attempts.running_attempt(svc.db, tg_user.id)
    if running is None:
        return
    if msg.reply_to_message is not None and msg.reply_to_message.message_id != running.message_id:
        return  # a reply to something else (e.g. a daily question) is not for the exam
    u = await user_ctx(update, context)
    sheet = await attempts.own_sheet(svc.db, running.id, u.id)
    if running.deadline is not None and running.deadline <= svc.now():
        await finish_and_report(context, running.id, "timeout")
        return
    item = sheet.current
    q = sheet.question(item)
    text = (msg.text or "").strip()
    if q.kind not in render.TYPED:
        if q.kind == Kind.truefalse and parse_truefalse(text) is not None:
            response = parse_truefalse(text)
        else:
            await msg.reply_text(t("not_typed", u.lang))
            return
    elif not text:
        await msg.reply_text(t("empty_answer", u.lang))
        return
    else:
        response = text[:4000]
    practice = running.mode == "practice"
    rec = await attempts.record_answer(svc.db, sheet, item.pos, response, svc.now(), advance=not practice)
    await msg.reply_text(render.clip(t("recorded", u.lang, n=item.pos + 1,
                                       a=render.shown_response(q, item, rec.response, u.lang))))
    if await _offer_finish(context, sheet, item.pos, repost=True):
        return
    await show_attempt(context, running.id, u, repost=True)
