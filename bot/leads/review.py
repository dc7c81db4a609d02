"""/review: pending subjective answers, one card at a time, sent to the lead privately."""

from __future__ import annotations

from contextlib import suppress

from telegram import Update
from telegram.ext import Application

from bank.errors import NotFound
from bank.question_ref import question_ref
from bot import outbox
from bot.context import Ctx
from bot.core import ack, answer_presser
from bot.i18n import joined, t, tn
from bot.leads import render
from bot.leads.access import lead_viewer, require_lead, send_private
from bot.leads.callbacks import Press
from bot.pacing import Turn
from bot.services import services
from bot.userctx import UserCtx
from bot.voice import person_voice
from proctor.exams.cards import told
from proctor.exams.visibility import lens
from proctor.outbox import Outgoing
from proctor.teams import review as reviews


async def review(update: Update, context: Ctx) -> None:
    """Open the review queue: the oldest pending answer of the team, in the lead's private chat."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    db = context.services.db
    seen_by = await lens(db, desk.viewer, desk.scope)
    pending = await reviews.next_pending(db, seen_by, now=context.services.now())
    if pending is None:
        withheld = await reviews.withheld_papers(db, seen_by)  # a hiring paper the team is not verified for
        lock = "\n" + tn("hv_review_withheld", len(withheld), desk.user.lang,
                         papers=joined((f"“{p}”" for p in withheld), desk.user.lang)) if withheld else ""
        await context.message.reply_text(t("l_rv_none", desk.user.lang) + lock)
        return
    own = desk.user.own()  # the card goes to their private chat
    text, keyboard = render.review_card(pending, own.lang, desk.scope, 0, own.script)

    async def send(chat_id: int) -> None:
        await context.bot.send_message(chat_id, text, reply_markup=keyboard)

    await send_private(update, context, desk.user, send)


async def show_next(update: Update, context: Ctx, u: UserCtx, scope: int | None,
                    skip: int, done: str = "", *, toast: str | None = None) -> None:
    """Replace the card in place with the next pending answer (or 'nothing left'), answering the
    press with `toast`; a card pressed in a group sends the next one to the lead's private chat."""
    db = context.services.db
    pending = await reviews.next_pending(db, await lens(db, lead_viewer(context, u.id), scope), skip=skip,
                                         now=context.services.now())
    if pending is None:
        await answer_presser(context, u, f"{done}\n\n{t('l_rv_none', u.lang)}".strip(), toast=toast)
        return
    text, keyboard = render.review_card(pending, u.lang, scope, skip, u.script)
    await answer_presser(context, u, f"{done}\n\n{text}".strip() if done else text, keyboard, toast=toast)


async def set_score(update: Update, context: Ctx, u: UserCtx, press: Press) -> None:
    """A lead chose a final score: save it, recompute the attempt, tell the candidate, show the next."""
    svc = context.services
    attempt_id, pos, halves = press.args
    query = context.query
    try:  # the domain refuses scoring one's own answer, or a candidate off the team's roster
        outcome = await reviews.set_final(svc.db, attempt_id, pos, halves / 2, viewer=lead_viewer(context, u.id),
                                          scope=press.scope, now=svc.now())
    except reviews.SelfReview:
        await ack(query, t("l_rv_own", u.lang), show_alert=True)
        return
    except reviews.OutOfScope:
        await ack(query, t("l_button_not_lead", u.lang), show_alert=True)
        return
    except reviews.AlreadyReviewed:
        await show_next(update, context, u, press.scope, 0, toast=t("l_rv_already", u.lang))
        return
    except NotFound:
        await show_next(update, context, u, press.scope, 0, toast=t("l_rv_gone", u.lang))
        return
    except reviews.BadScore:
        await ack(query, t("l_button_bad", u.lang), show_alert=True)
        return
    done = t("l_rv_set", u.lang, score=render.num(outcome.score), max=render.num(outcome.max_score))
    outbox.kick(context.application)  # the candidate's notice was queued with the score
    await show_next(update, context, u, press.scope, 0, done=f"✅ {done}", toast=done)


async def skip(update: Update, context: Ctx, u: UserCtx, press: Press) -> None:
    """Leave this answer for later and show the next one."""
    await show_next(update, context, u, press.scope, press.args[2])


async def send_notice(app: Application, message: Outgoing, turn: Turn | None) -> None:
    """The outbox's sender of "your answer was reviewed", in the candidate's language, as much as the
    read rule lets them read of it now (a hiring paper's review option `score`: the total only; `none`:
    nothing is sent)."""
    outcome = reviews.Outcome(**message.payload)
    db = services(app).db
    [seen] = await told(db, outcome.user_id, outcome.question_id, [outcome.attempt_id])
    ref = outcome.ref
    if ref is None:  # a notice queued before the reference was stored with it
        with suppress(NotFound):
            ref = await question_ref(db, outcome.question_id)
    text = render.review_notice(outcome, ref, (await person_voice(app, outcome.user_id)).lang, seen)
    if text is not None:
        await app.bot.send_message(message.chat_id, text, rate_limit_args=turn)

