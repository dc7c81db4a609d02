"""Reviewing a handed-in paper: every answer page by page (or the wrong ones only, a filter)."""

from __future__ import annotations

from telegram.constants import ChatType

from bot.context import Ctx
from bot.core import ack, answer_presser
from bot.exam import callbacks as cb
from bot.exam import render
from bot.i18n import t
from bot.userctx import UserCtx
from proctor.exams import service as attempts
from proctor.exams.model import wrong_positions
from proctor.exams.states import AttemptStatus
from proctor.exams.visibility import Role, Viewer, visibility

NEW = "1"  # the arg of the result card's buttons: the review opens as a new message (paging edits it)


async def review(update, context: Ctx, u: UserCtx, data: cb.Act) -> None:
    """`review`: the wrong (and unanswered) ones; `review_all`: every question. Keys only for a
    finished attempt, as far as the read rule lets its candidate read them (the paper's review option;
    none while a new attempt at one of its questions runs: sealed), and only in their private chat:
    a press in a group gets the page there (a group reads every edit)."""
    query = context.query
    svc = context.services
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id, running=False)
    if sheet.attempt.status != AttemptStatus.finished:  # keys are shown only once the paper is handed in
        await ack(query, t("review_after_finish", u.lang))
        return
    vis = await visibility(svc.db, Viewer(Role.person, u.id), None, sheet.attempt.paper_id)
    everything = data.action == cb.Screen.review_all
    shown = [i.pos for i in sheet.items] if everything else wrong_positions(sheet.items, sheet.answers)
    page = max(0, min(data.pos, len(shown) - 1))
    try:
        sheet = await attempts.review_sheet(svc.db, vis, sheet, [shown[page]] if shown else [])
    except attempts.ReviewClosed:
        await ack(query, t("review_closed", u.lang), show_alert=True)  # the paper shows no keys
        return
    except attempts.ReviewSealed:
        await ack(query, t("review_sealed", u.lang), show_alert=True)  # a new attempt on it runs
        return
    text, kb = render.review_page(sheet, shown, page, u.lang, u.script, everything=everything)
    if data.arg == NEW and context.chat.type == ChatType.PRIVATE:
        await ack(query)
        await context.message.reply_text(text, reply_markup=kb, protect_content=True)
        return
    await answer_presser(context, u, text, kb, protect=True)  # pressed in a group: to their private chat
