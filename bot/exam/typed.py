"""Typed answers: what the exam says to a fill-in or written answer typed as a message (found and
stepped by bot.private_text, with the rest of a private chat's text)."""

from __future__ import annotations

from telegram import Update

from bot.context import Ctx
from bot.exam import render
from bot.exam.hand_in import finish_and_report
from bot.exam.show import offer_finish, show_sheet
from bot.i18n import t
from bot.userctx import user_ctx
from proctor.exams import steps
from proctor.exams.service import AttemptClosed, NotYourAttempt
from proctor.exams.states import FinishReason


async def typed_answer(update: Update, context: Ctx, out: steps.Outcome) -> None:
    """Say what the typed step did with the running attempt's fill-in or written question."""
    u = await user_ctx(update, context)
    match out:
        case steps.Expired(attempt=attempt):
            await finish_and_report(context, attempt.id, FinishReason.timeout)
        case steps.Refused(question=q):
            await context.message.reply_text(t(render.refused_typed(q), u.lang))
        case steps.Recorded(sheet=sheet, pos=pos, answer=rec, review=review):
            item = sheet.items[pos]
            q = sheet.question(item)
            if steps.adds_up(sheet, q):  # a written answer stays on screen, whole: the next message adds to it
                await show_sheet(context, sheet, u, review, repost=True)
                return
            # one message: the next screen, the confirmation under it (Telegram's 30 sends a second
            # are a round's budget)
            note = t("recorded", u.lang, question=item.ref, a=render.shown_response(
                q, item, rec.response if rec else None, u.lang))
            if await offer_finish(context, sheet, pos, repost=True, u=u, note=note):
                return
            await show_sheet(context, sheet, u, review, repost=True, note=note)
        case steps.NotYours():  # cannot be: the attempt was found by its user
            raise NotYourAttempt(str(u.id))
        case _:  # stale or closed, which a typed answer found running cannot be
            raise AttemptClosed(str(u.id))
