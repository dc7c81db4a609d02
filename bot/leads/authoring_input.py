"""The dispatcher of /editq's and /newpaper's buttons ("a:") and of the private text they wait for
(a stem, a title, a blueprint). Every update checks the role anew: a configured admin (PROCTOR_ADMINS),
since the bank is every team's. A candidate's text never costs a query here: only an admin's is
looked at."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.context import Ctx
from bot.core import ack
from bot.drafting import answers_elsewhere
from bot.i18n import t
from bot.leads import editq, newpaper
from bot.leads.authoring import parse
from bot.userctx import UserCtx, user_ctx
from proctor.teams.authoring import EDITQ, Session, end_session, get_session


async def on_button(update: Update, context: Ctx) -> None:
    """Every "a:" button: the presser must be a configured admin now, and it must be their open step."""
    u = await user_ctx(update, context)
    query = context.query
    press = parse(query.data)
    if press is None:
        await ack(query, t("l_button_bad", u.lang), show_alert=True)
        return
    if not context.services.is_admin(u.id):
        await ack(query, t("l_bank_admin_only", u.lang), show_alert=True)
        return
    session = await get_session(context.services.db, u.id)
    if session is None or session.kind != press.feature or (
            press.feature == EDITQ and session.state.get("q") != press.question):
        await ack(query, t("au_stale", u.lang), show_alert=True)
        return
    if press.feature == EDITQ:
        await editq.on_press(update, context, u, session, press)
    else:
        await newpaper.on_press(update, context, u, session, press)


async def on_text(update: Update, context: Ctx) -> None:
    """A configured admin's private text, when /editq or /newpaper waits for it; anything else
    goes on to the exam's typed answers and hints."""
    user = update.effective_user
    if user is None or not context.services.is_admin(user.id):
        return
    session = await get_session(context.services.db, user.id)
    if session is None or await answers_elsewhere(context.services.db, context.message, user.id):
        return
    if await _handle_text(update, context, session):
        raise ApplicationHandlerStop


async def _handle_text(update: Update, context: Ctx, session: Session) -> bool:
    u: UserCtx = await user_ctx(update, context)
    if session.kind == EDITQ:
        return await editq.on_text(update, context, u, session)
    return await newpaper.on_text(update, context, u, session)


async def end_open(context: Ctx, u: UserCtx) -> list[str]:
    """/cancel: the admin's open /editq or /newpaper ends, nothing written (its buttons then say so)."""
    session = await end_session(context.services.db, u.id)
    if session is None:
        return []
    if session.kind == EDITQ:
        return [t("au_ended_editq", u.lang, qid=session.state.get("q", "?"))]
    return [t("au_ended_newpaper", u.lang)]
