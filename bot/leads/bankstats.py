"""/bankstats, /retire, /restore, /examonly and /dispute: the state of the bank and its curation."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.error import Forbidden

from bank.errors import NotFound
from bank.paper_list import find_paper, paper_summaries, paper_summary
from bank.question_ref import BankId, find_question, question_id, question_ref, split_question
from bot.context import Ctx
from bot.core import ack, open_private_button
from bot.i18n import question_text, t
from bot.leads import render
from bot.leads.access import (
    Desk,
    bank_admins_only,
    lead_viewer,
    require_bank_admin,
    require_lead,
    seen,
    send_private,
)
from bot.leads.callbacks import Action, Press
from bot.leads.held import held_section
from bot.paper_refs import unknown_paper
from bot.userctx import UserCtx
from proctor.exams.service import current_question_id
from proctor.exams.visibility import lens
from proctor.teams import bankstats as bank_view
from proctor.teams import curation, key_fix
from proctor.teams import disputes as dsp
from proctor.teams.curation import confirm_key
from proctor.teams.measured import measured
from proctor.teams.paper_counts import paper_tallies, shown_tallies


async def bankstats(update: Update, context: Ctx) -> None:
    """Open disputes and the questions to look at; with a paper, every question's statistics. What the
    read rule shows the lead for their team, in their private chat (doubts name keys: never in a group);
    buttons for configured admins only (the bank is theirs)."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    svc = context.services
    own = desk.user.own()  # the answer goes to their private chat
    admin = svc.is_admin(desk.user.id)
    seen_by = await lens(svc.db, desk.viewer, desk.scope)
    key = " ".join(context.args or []).strip()
    keyboard: InlineKeyboardMarkup | None
    if key:
        try:
            paper = await find_paper(svc.db, key)
        except NotFound as e:
            await context.message.reply_text(unknown_paper(e, key, desk.user.lang))
            return
        try:
            stats = await bank_view.paper_stats(svc.db, seen_by.of(paper.id))
        except bank_view.Sealed:
            await context.message.reply_text(t("l_bs_sealed", desk.user.lang))
            return
        except bank_view.Withheld:
            await context.message.reply_text(t("hv_withheld", desk.user.lang, paper=paper.title))
            return
        counts = (await paper_tallies(svc.db, [paper.id]))[paper.id]
        text, keyboard = render.bankstats_paper(paper, counts, stats, own.lang, desk.scope, curate=admin,
                                                measured=await measured(svc.db, seen_by, paper.id))
    else:
        found = await bank_view.overview(svc.db, seen_by, now=svc.now())
        counted = await shown_tallies(svc.db, seen_by)
        codes = [(p.code, counted[p.id]) for p in await paper_summaries(svc.db, composed=True) if p.id in counted]
        text, keyboard = render.bankstats_overview(found.disputes, found.attention, own.lang, desk.scope,
                                                   curate=admin, counted=codes, flagged=found.flagged)
        text, keyboard = held_section(text, keyboard, found.held, own.lang, desk.scope, can_confirm=admin)

    async def send(chat_id: int) -> None:
        await context.bot.send_message(chat_id, text, reply_markup=keyboard)

    await send_private(update, context, desk.user, send)


async def _set_retired(update: Update, context: Ctx, desk: Desk, retired: bool) -> None:
    asked = " ".join(context.args or []).strip()
    if not asked:
        await context.message.reply_text(t("l_retire_usage", desk.user.lang))
        return
    svc = context.services
    try:
        qid = await find_question(svc.db, asked)
        await curation.set_retired(svc.db, qid, retired, lead=desk.user.id, chat_id=desk.scope, now=svc.now())
    except NotFound:
        await context.message.reply_text(t("l_q_unknown", desk.user.lang, asked=asked))
        return
    await context.message.reply_text(t("l_retired_ok" if retired else "l_restored_ok", desk.user.lang,
                                       question=await question_ref(svc.db, qid)))


async def retire(update: Update, context: Ctx) -> None:
    """Retire a question: it is never asked again."""
    desk = await require_bank_admin(update, context)
    if desk is not None:
        await _set_retired(update, context, desk, True)


async def restore(update: Update, context: Ctx) -> None:
    """Bring a retired question back."""
    desk = await require_bank_admin(update, context)
    if desk is not None:
        await _set_retired(update, context, desk, False)


async def exam_only(update: Update, context: Ctx) -> None:
    """Keep a paper for exams only (out of practice and daily quizzes), or release it."""
    desk = await require_bank_admin(update, context)
    if desk is None:
        return
    args = context.args or []
    if len(args) < 2 or args[-1].lower() not in ("on", "off"):
        await context.message.reply_text(t("l_examonly_usage", desk.user.lang))
        return
    key, on = " ".join(args[:-1]), args[-1].lower() == "on"
    svc = context.services
    try:
        paper = await find_paper(svc.db, key)
    except NotFound as e:
        await context.message.reply_text(unknown_paper(e, key, desk.user.lang))
        return
    await curation.set_exam_only(svc.db, paper.id, on, lead=desk.user.id, chat_id=desk.scope, now=svc.now())
    await context.message.reply_text(t("l_examonly_on" if on else "l_examonly_off", desk.user.lang,
                                                paper=paper.title))


async def dispute(update: Update, context: Ctx) -> None:
    """A candidate flags a question: by replying to it, on the exam screen, or by its reference (P3 Q43)
    or bank id."""
    u = await seen(update, context)
    svc = context.services
    msg = context.message
    text = " ".join(context.args or []).strip()
    named = split_question(text)
    qid = replied = None
    try:
        if named is not None and named[1]:  # a question named, then the reason
            text = named[1]
            qid = await question_id(svc.db, named[0])
        elif msg.reply_to_message is not None:
            replied = msg.reply_to_message.message_id  # the options as that message showed them
            qid = await dsp.question_for_message(svc.db, msg.chat_id, replied)
        elif context.chat.type == ChatType.PRIVATE:
            qid = await current_question_id(svc.db, u.id)
        if qid is None or not text:
            await msg.reply_text(t("l_dp_usage", u.lang))
            return
        did = await dsp.raise_dispute(db=svc.db, question_id=qid, user_id=u.id, chat_id=msg.chat_id,
                                      reason=text, now=svc.now(), message_id=replied)
    except NotFound:  # no such question, or one never asked of this person: told alike
        asked = question_text(named[0], u.lang) if named is not None and named[1] else \
            question_text(BankId(qid or 0), u.lang)
        await msg.reply_text(t("l_q_unknown", u.lang, asked=asked))
        return
    except dsp.AlreadyDisputed:
        await msg.reply_text(t("l_dp_dup", u.lang, question=await question_ref(svc.db, qid or 0)))
        return
    except dsp.NoReason:
        await msg.reply_text(t("l_dp_usage", u.lang))
        return
    await msg.reply_text(t("l_dp_ok", u.lang, id=did, question=await question_ref(svc.db, qid)))


async def curate_button(update: Update, context: Ctx, u: UserCtx, press: Press) -> None:
    """Retire / restore / uphold / dismiss / exam-only, from a /bankstats message."""
    svc = context.services
    query = context.query
    if not svc.is_admin(u.id):  # the bank is shared by every team
        await ack(query, await bank_admins_only(context, u.lang), show_alert=True)
        return
    target = press.args[0]
    try:
        match press.action:
            case Action.retire | Action.restore:
                retired = press.action == Action.retire
                await curation.set_retired(svc.db, target, retired, lead=u.id, chat_id=press.scope, now=svc.now())
                text = t("l_retired_ok" if retired else "l_restored_ok", u.lang,
                         question=await question_ref(svc.db, target))
            case Action.confirm_key:
                done = await confirm_key(svc.db, target, actor=u.id, now=svc.now(), chat_id=press.scope)
                text = t("l_key_confirmed" if done else "l_key_not_held", u.lang,
                         question=await question_ref(svc.db, target))
            case Action.uphold | Action.dismiss:
                upheld = press.action == Action.uphold
                qid, _ = await dsp.resolve(svc.db, target, upheld=upheld, lead=u.id, chat_id=press.scope,
                                           now=svc.now())
                text = t("l_dispute_upheld" if upheld else "l_dispute_dismissed", u.lang, id=target)
                if upheld:  # upholding opens the key fix: the lead is shown how, privately, with the key as it is
                    await ack(query, text)
                    await context.message.reply_text(text)
                    await _key_fix_prompt(context, u, press.scope, target, qid)
                    return
            case _:  # exam_only
                on = bool(press.args[1])
                await curation.set_exam_only(svc.db, target, on, lead=u.id, chat_id=press.scope, now=svc.now())
                text = t("l_examonly_on" if on else "l_examonly_off", u.lang,
                         paper=(await paper_summary(svc.db, target)).title)
    except dsp.OwnDispute:
        await ack(query, t("l_dispute_own", u.lang), show_alert=True)
        return
    except NotFound:
        await ack(query, t("l_dispute_gone" if press.action in (Action.uphold, Action.dismiss) else "l_button_bad",
                             u.lang), show_alert=True)
        return
    await ack(query, text)
    await context.message.reply_text(text)


async def _key_fix_prompt(context: Ctx, u: UserCtx, scope: int | None, dispute_id: int, qid: int) -> None:
    """How to fix an upheld dispute's key, with the key as it is, in the letters the disputer saw, when
    the read rule shows it to the lead: in their private chat, whatever chat the button was pressed in."""
    svc = context.services
    own = u.own()
    key = await key_fix.current_key(svc.db, await lens(svc.db, lead_viewer(context, u.id), scope), dispute_id,
                                    now=svc.now())
    ref = await question_ref(svc.db, qid)
    prompt = (t("l_kf_prompt", own.lang, id=dispute_id, question=ref, key=render.key_words(key, own.lang, own.script))
              if key is not None else t("l_kf_prompt_withheld", own.lang, id=dispute_id, question=ref))
    try:
        await context.bot.send_message(u.id, prompt)
    except Forbidden:  # no private chat with the bot yet: a button to open one
        await context.message.reply_text(t("l_open_private", u.lang),
                                         reply_markup=open_private_button(context.bot.username, u.lang))
