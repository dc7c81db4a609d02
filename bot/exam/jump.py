"""The navigator's buttons: show the grid of questions, jump straight to one."""

from __future__ import annotations

from bot.context import Ctx
from bot.core import ack
from bot.edits import edit_text
from bot.exam import callbacks as cb
from bot.exam import navigator
from bot.exam.hand_in import finish_and_report
from bot.exam.screen_lock import screen_turn
from bot.exam.show import show_attempt
from bot.i18n import t
from bot.userctx import UserCtx
from proctor.exams import service as attempts
from proctor.exams.deadline import time_is_up
from proctor.exams.states import FinishReason


async def navigate(update, context: Ctx, u: UserCtx, data: cb.Act) -> None:
    """`grid`: the navigator replaces the buttons of the message tapped; `jump`: go to question
    `pos` (any question of the paper: a jump is idempotent, so an old grid's button is safe)."""
    query = context.query
    svc = context.services
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id)
    if time_is_up(sheet.attempt.deadline, svc.now()):
        await finish_and_report(context, sheet.attempt.id, FinishReason.timeout)
        await ack(query, t("exam_closed", u.lang))
        return
    if data.action == cb.Screen.grid:
        text, kb = navigator.grid(sheet, u.lang)
        await ack(query)
        async with screen_turn(context, sheet.attempt) as ours:  # not over a card that took the screen
            if ours:
                await edit_text(context.bot, context.message.chat_id, context.message.message_id, text, kb)
        return
    if not 0 <= data.pos < len(sheet.items):
        await ack(query, t("button_unknown", u.lang))
        return
    await attempts.move_to(svc.db, sheet.attempt.id, data.pos, svc.now())
    await ack(query)
    await show_attempt(context, sheet.attempt.id, u)
