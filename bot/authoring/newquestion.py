"""/newquestion: a question in a few messages (kind, stem, options, key, explanation, points, paper),
with Back and Cancel at each step and a preview before Save. The draft lives in SQLite."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop

from bank.authoring import draft as dr
from bank.authoring.add import BadTarget
from bank.errors import TermsUnavailable
from bank.grading.terms import SegmentIn
from bank.paper_store import list_papers, load_paper
from bot.authoring import render
from bot.authoring.callbacks import DraftAction, DraftPress
from bot.authoring.drafting import answers_elsewhere
from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.section_names import section_name
from bot.userctx import UserCtx, user_ctx
from proctor.teams.curation import add_question

log = logging.getLogger(__name__)


async def newquestion(update: Update, context: Ctx) -> None:
    """Start a draft (a draft the lead had is dropped) and ask for its kind."""
    svc, msg = context.services, context.message
    u = await user_ctx(update, context)
    if not svc.is_admin(u.id):
        await msg.reply_text(t("nq_admins_only", u.lang))
        return
    if context.chat.type != ChatType.PRIVATE:
        await msg.reply_text(t("nq_private_only", u.lang))
        return
    d = await dr.start_draft(svc.db, u.id, context.chat.id, svc.now())
    await _ask(context, d, u)


async def _start_over(update: Update, context: Ctx) -> None:
    """A draft this release could not read: the lead is told, and a new draft asks for its kind."""
    svc, u = context.services, await user_ctx(update, context)
    d = await dr.start_draft(svc.db, u.id, context.chat.id, svc.now())  # the unreadable one is dropped
    await context.bot.send_message(context.chat.id, t("nq_expired", u.lang))
    await _ask(context, d, u)


async def _ask(context: Ctx, d: dr.Draft, u: UserCtx) -> None:
    db, papers = context.services.db, []
    if d.step is dr.Step.paper:
        papers = await list_papers(db)
    elif d.step is dr.Step.section and d.paper_id is not None:
        papers = [await load_paper(db, d.paper_id)]
    text, keyboard = render.step_prompt(d, papers, u.lang, u.script)
    await context.bot.send_message(d.chat_id, text, reply_markup=keyboard)


async def typed(update: Update, context: Ctx) -> None:
    """Text from a configured admin whose draft waits for text. Anything else goes on to the exam's
    and the daily quiz's typed answers: a running attempt's text is the exam's, a reply is the daily
    question's, and text at a button step is not taken."""
    svc, msg = context.services, context.message
    if not svc.is_admin(context.user.id):  # a candidate's text costs no query here
        return
    try:
        d = await dr.load_draft(svc.db, context.user.id)
    except dr.DraftUnreadable:
        if not await answers_elsewhere(svc.db, msg, context.user.id):
            await _start_over(update, context)
            raise ApplicationHandlerStop from None
        return
    if d is None or d.chat_id != context.chat.id or not d.expects_text:
        return
    if await answers_elsewhere(svc.db, msg, d.user_id):
        return
    u = await user_ctx(update, context)
    text = msg.text or ""
    steps = {dr.Step.stem: dr.give_stem, dr.Step.options: dr.add_option, dr.Step.key: dr.give_key,
             dr.Step.explanation: dr.give_explanation, dr.Step.points: dr.give_points,
             dr.Step.new_paper: dr.give_paper_title}
    try:
        new = steps[d.step](d, text)
        await dr.save_draft(svc.db, new, svc.now())
    except dr.BadInput as e:
        await msg.reply_text(t(e.code, u.lang))
        raise ApplicationHandlerStop from None
    except dr.DraftGone:
        raise ApplicationHandlerStop from None
    await _ask(context, new, u)
    raise ApplicationHandlerStop


async def pressed(update: Update, context: Ctx, press: DraftPress) -> None:
    """A step's button: the draft moves on (or back), is cancelled, or is saved."""
    query, svc = context.query, context.services
    u = await user_ctx(update, context)
    if not svc.is_admin(u.id):
        await ack(query, t("nq_admins_only", u.lang), show_alert=True)
        return
    try:
        d = await dr.load_draft(svc.db, u.id)
    except dr.DraftUnreadable:
        await ack(query)
        await _start_over(update, context)
        return
    if d is None or d.id != press.draft_id:
        await ack(query, t("nq_gone", u.lang), show_alert=True)
        return
    match press.action:
        case DraftAction.cancel:
            await _cancel(update, context, d, u)
            return
        case DraftAction.save:
            await _save(update, context, d, u)
            return
    try:
        new = await _step(context, d, press)
        await dr.save_draft(svc.db, new, svc.now())
    except dr.BadInput as e:
        await ack(query, t(e.code, u.lang), show_alert=True)
        return
    except dr.DraftGone:
        await ack(query, t("nq_gone", u.lang), show_alert=True)
        return
    await ack(query)
    if press.action == DraftAction.pick and new.step is dr.Step.key:  # a multi toggle: the same message, new ticks
        _, keyboard = render.step_prompt(new, [], u.lang, u.script)
        await _edit_markup(query, keyboard)
        return
    await _edit_markup(query, None)
    await _ask(context, new, u)


async def _step(context: Ctx, d: dr.Draft, press: DraftPress) -> dr.Draft:
    arg = press.arg if press.arg is not None else -1
    match press.action:
        case DraftAction.kind:
            if not 0 <= arg < len(dr.KINDS):
                raise dr.BadInput("nq_bad_step")
            return dr.choose_kind(d, dr.KINDS[arg])
        case DraftAction.paper:
            papers = {p.id: p for p in await list_papers(context.services.db)}
            if arg not in papers:
                raise dr.BadInput("nq_bad_step")
            return dr.choose_paper(d, arg, papers[arg].title)
        case DraftAction.section:
            if d.paper_id is None:
                raise dr.BadInput("nq_bad_step")
            sections = (await load_paper(context.services.db, d.paper_id)).sections
            if not 0 <= arg <= len(sections) or (arg and sections[arg - 1].kind is not d.kind):
                raise dr.BadInput("nq_bad_step")
            return dr.choose_section(d, arg, sections[arg - 1].title if arg else "")
        case DraftAction.back:
            return dr.back(d)
        case DraftAction.options_done:
            return dr.options_done(d)
        case DraftAction.pick:
            return dr.pick_key(d, arg)
        case DraftAction.key_done:
            return dr.key_done(d)
        case DraftAction.tf:
            return dr.pick_truefalse(d, arg == 1)
        case DraftAction.skip:
            return dr.give_explanation(d, None)
        case DraftAction.points:
            return dr.give_points(d, str(arg))
        case DraftAction.new_paper:
            return dr.ask_new_paper(d)
        case DraftAction.cancel | DraftAction.save:  # answered by `pressed` before a step
            raise dr.BadInput("nq_bad_step")


async def _cancel(update: Update, context: Ctx, d: dr.Draft, u: UserCtx) -> None:
    query = context.query
    try:
        await dr.drop_draft(context.services.db, d.id)
    except dr.DraftGone:
        await ack(query, t("nq_gone", u.lang), show_alert=True)
        return
    await ack(query)
    await _edit_markup(query, None)
    await context.bot.send_message(context.chat.id, t("nq_cancelled", u.lang))


async def end_draft(context: Ctx, u: UserCtx) -> list[str]:
    """/cancel: the admin's draft is discarded (its buttons then say it is gone)."""
    return [t("nq_ended", u.lang)] if await dr.drop_draft_of(context.services.db, u.id) else []


async def _save(update: Update, context: Ctx, d: dr.Draft, u: UserCtx) -> None:
    query, svc = context.query, context.services
    if d.step is not dr.Step.preview:
        await ack(query, t("nq_bad_step", u.lang), show_alert=True)
        return

    def claim(conn) -> None:
        dr.claim_draft(conn, d.id)

    try:
        added = await add_question(svc.db, d.question(), paper_id=d.paper_id, new_title=d.paper_title,
                                   section=d.section, actor=u.id, now=svc.now(), chat_id=d.chat_id, claim=claim,
                                   segment_in=SegmentIn.CHILD)
    except dr.DraftGone:
        await ack(query, t("nq_gone", u.lang), show_alert=True)
        return
    except (BadTarget, TermsUnavailable) as e:
        await ack(query)
        back = dr.back(d)  # to the section or the new paper's title: pick another
        await dr.save_draft(svc.db, back, svc.now())
        await _edit_markup(query, None)
        await context.bot.send_message(context.chat.id, t("nq_bad_target", u.lang, why=str(e)))
        await _ask(context, back, u)
        return
    await ack(query)
    await _edit_markup(query, None)
    await context.bot.send_message(context.chat.id, t("nq_saved", u.lang, question=added.ref, paper=added.paper,
                                     section=section_name(added.section, u.lang)))


async def _edit_markup(query, keyboard) -> None:
    try:
        await query.edit_message_reply_markup(keyboard)
    except TelegramError:  # the step is committed; a stale keyboard is only cosmetic
        log.info("could not update the step's buttons", exc_info=True)

