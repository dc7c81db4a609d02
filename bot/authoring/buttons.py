"""The dispatcher of every authoring button ("a:"): an upload's Import/Cancel, a /newquestion step,
an /editq or /newpaper step. Their data: bot/authoring/callbacks.py."""

from __future__ import annotations

from telegram import Update

from bot.authoring import callbacks as cb
from bot.authoring import editq, newpaper, newquestion, upload
from bot.authoring.wizard import show
from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.leads.access import bank_admins_only
from bot.userctx import UserCtx, user_ctx
from proctor.teams.authoring import Editq, NewPaper, Unreadable, Wizard, clear_session, get_session


async def on_button(update: Update, context: Ctx) -> None:
    """Every "a:" button: parse its data, hand it to the step it belongs to."""
    match cb.parse(context.query.data):
        case cb.UploadPress() as press:
            await upload.pressed(update, context, press)
        case cb.DraftPress() as press:
            await newquestion.pressed(update, context, press)
        case cb.WizardPress() as press:
            await _wizard(update, context, await user_ctx(update, context), press)
        case None:
            u = await user_ctx(update, context)
            await ack(context.query, t("l_button_bad", u.lang), show_alert=True)


async def _wizard(update: Update, context: Ctx, u: UserCtx, press: cb.WizardPress) -> None:
    """An /editq or /newpaper button: the presser must be a configured admin now, and it must be their
    open step. A session this release can't read starts over (the press says which command it was)."""
    query = context.query
    if not context.services.is_admin(u.id):
        await ack(query, await bank_admins_only(context, u.lang), show_alert=True)
        return
    match await get_session(context.services.db, u.id), press.feature:
        case Editq() as session, Wizard.editq if session.question == press.question:
            await editq.on_press(update, context, u, session, press)
        case NewPaper() as session, Wizard.newpaper:
            await newpaper.on_press(update, context, u, session, press)
        case Unreadable(), _ if press.action in (cb.EditqAction.cancel, cb.NewPaperAction.cancel):
            await clear_session(context.services.db, u.id)
            await ack(query)
            await show(update, context, t("au_cancelled", u.lang))
        case Unreadable(wizard), Wizard.editq if wizard in (None, Wizard.editq):
            await ack(query)
            await editq.start_over(update, context, u, press.question)
        case Unreadable(wizard), Wizard.newpaper if wizard in (None, Wizard.newpaper):
            await ack(query)
            await newpaper.start_over(context, u)
        case _:
            await ack(query, t("au_stale", u.lang), show_alert=True)
