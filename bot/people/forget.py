"""/forgetme: delete a user's data after they confirm with a button."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from bot.context import Ctx
from bot.core import ack, open_private_button
from bot.i18n import t, tn
from bot.leads import render
from bot.leads.callbacks import Press
from bot.userctx import UserCtx, user_ctx
from proctor.people.forget import forget_user


async def forgetme(update: Update, context: Ctx) -> None:
    """Ask the user to confirm that everything about them should be deleted."""
    u = await user_ctx(update, context)
    if context.chat.type != ChatType.PRIVATE:
        await context.message.reply_text(
            t("l_fg_private", u.lang), reply_markup=open_private_button(context.bot.username, u.lang))
        return
    await context.message.reply_text(t("l_fg_confirm", u.lang), reply_markup=render.forget_keyboard(u.id, u.lang))


async def forget_button(update: Update, context: Ctx, u: UserCtx, press: Press) -> None:
    """Delete (or keep) the user's data; only the user themself can press it."""
    query = context.query
    if press.args[0] != u.id:
        await ack(query, t("l_fg_not_yours", u.lang), show_alert=True)
        return
    if not press.confirm:
        await ack(query)
        await query.edit_message_text(t("l_fg_cancelled", u.lang))
        return
    gone = await forget_user(context.services.db, u.id)
    await ack(query)
    await query.edit_message_text(t("l_fg_done", u.lang, attempts=tn("n_exam_attempt", gone.attempts, u.lang),
                                    daily=tn("n_daily_answer", gone.daily_answers, u.lang)))
