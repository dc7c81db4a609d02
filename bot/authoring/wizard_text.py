"""The private text an open /editq or /newpaper waits for (a stem, a title, a blueprint), and /cancel
of either. Every update checks the role anew: a configured admin, since the bank is every team's. A
candidate's text never costs a query here: only an admin's is looked at."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bank.errors import NotFound
from bank.question_ref import question_ref
from bot.authoring import editq, newpaper
from bot.authoring.drafting import answers_elsewhere
from bot.context import Ctx
from bot.i18n import t
from bot.userctx import UserCtx, user_ctx
from proctor.teams.authoring import (
    Editq,
    NewPaper,
    Session,
    Unreadable,
    Wizard,
    clear_session,
    end_session,
    get_session,
)


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


async def _handle_text(update: Update, context: Ctx, session: Session | Unreadable) -> bool:
    u: UserCtx = await user_ctx(update, context)
    match session:
        case Editq():
            return await editq.on_text(update, context, u, session)
        case NewPaper():
            return await newpaper.on_text(update, context, u, session)
        case Unreadable(Wizard.newpaper):
            await newpaper.start_over(context, u)
        case Unreadable():  # an /editq starts over from its question, which only the lead can give again
            await clear_session(context.services.db, u.id)
            await context.message.reply_text(t("au_expired", u.lang))
    return True


async def end_open(context: Ctx, u: UserCtx) -> list[str]:
    """/cancel: the admin's open /editq or /newpaper ends, nothing written (its buttons then say so)."""
    match await end_session(context.services.db, u.id):
        case None:
            return []
        case Editq() as session:
            try:
                return [t("au_ended_editq", u.lang, question=await question_ref(context.services.db, session.question))]
            except NotFound:  # gone since
                return [t("au_ended", u.lang)]
        case NewPaper():
            return [t("au_ended_newpaper", u.lang)]
        case Unreadable():
            return [t("au_ended", u.lang)]
