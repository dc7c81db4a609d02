"""/bankstats, /retire, /restore, /examonly and /dispute: the state of the bank and its curation."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup, Update

from bank import item_stats as stats
from bank.errors import NotFound
from bank.paper_list import find_paper, paper_summary
from bank.question_checks import held_questions
from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.leads import render
from bot.leads.access import Desk, bank_admins_only, require_bank_admin, require_lead, seen
from bot.leads.callbacks import Action, Press
from bot.leads.held import held_section
from bot.paper_refs import unknown_paper
from bot.userctx import UserCtx
from proctor import hiring
from proctor.exams.seal import sealed_for
from proctor.exams.service import current_question_id
from proctor.teams import curation, key_fix
from proctor.teams import disputes as dsp
from proctor.teams.curation import confirm_key
from proctor.teams.item_stats import item_stats


async def bankstats(update: Update, context: Ctx) -> None:
    """Open disputes and the questions to look at; with a paper, every question's statistics."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    db, lang = context.services.db, desk.user.lang
    seal = await sealed_for(db, desk.user.id)  # the lead's own running exam: none of its questions here
    key = " ".join(context.args or []).strip()
    keyboard: InlineKeyboardMarkup | None
    if key:
        try:
            paper = await find_paper(db, key)
        except NotFound as e:
            await context.message.reply_text(unknown_paper(e, key, lang))
            return
        if seal.touches_paper(paper.id):
            await context.message.reply_text(t("l_bs_sealed", lang))
            return
        if (withheld := await hiring.withheld(db, desk.scope, paper.id)) is not None:
            await context.message.reply_text(t("hv_withheld", lang, paper=withheld.title))
            return
        text, keyboard = render.bankstats_paper(paper, await item_stats(db, paper.id), lang, desk.scope)
    else:
        hidden = await hiring.withheld_titles(db, desk.scope)
        disputes = [d for d in await dsp.open_disputes(db, desk.scope) if not seal.covers(d.question_id)]
        attention = [s for s in stats.needs_attention(await item_stats(db))
                     if not seal.covers(s.question_id) and s.paper not in hidden]
        text, keyboard = render.bankstats_overview(disputes, attention, lang, desk.scope)
        held = [h for h in await held_questions(db) if not seal.covers(h.question_id) and h.paper not in hidden]
        text, keyboard = held_section(text, keyboard, held, lang, desk.scope,
                                      can_confirm=context.services.is_admin(desk.user.id))
    await context.message.reply_text(text, reply_markup=keyboard)


async def _set_retired(update: Update, context: Ctx, desk: Desk, retired: bool) -> None:
    args = context.args or []
    if len(args) != 1 or not args[0].lstrip("#").isdigit():
        await context.message.reply_text(t("l_retire_usage", desk.user.lang))
        return
    qid = int(args[0].lstrip("#"))
    svc = context.services
    try:
        await curation.set_retired(svc.db, qid, retired, lead=desk.user.id, chat_id=desk.scope, now=svc.now())
    except NotFound:
        await context.message.reply_text(t("l_q_unknown", desk.user.lang, qid=qid))
        return
    await context.message.reply_text(t("l_retired_ok" if retired else "l_restored_ok", desk.user.lang,
                                                qid=qid))


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
    """A candidate flags a question: by replying to it, on the exam screen, or by its id."""
    u = await seen(update, context)
    svc = context.services
    msg = context.message
    args = list(context.args or [])
    qid = None
    if args and args[0].lstrip("#").isdigit() and len(args) > 1:
        qid = int(args.pop(0).lstrip("#"))
    elif msg.reply_to_message is not None:
        qid = await dsp.question_for_message(svc.db, msg.chat_id, msg.reply_to_message.message_id)
    elif context.chat.type == "private":
        qid = await current_question_id(svc.db, u.id)
    if qid is None or not args:
        await msg.reply_text(t("l_dp_usage", u.lang))
        return
    try:
        did = await dsp.raise_dispute(db=svc.db, question_id=qid, user_id=u.id, chat_id=msg.chat_id,
                                      reason=" ".join(args), now=svc.now())
    except NotFound:
        await msg.reply_text(t("l_q_unknown", u.lang, qid=qid))
        return
    except dsp.AlreadyDisputed:
        await msg.reply_text(t("l_dp_dup", u.lang, qid=qid))
        return
    except dsp.NoReason:
        await msg.reply_text(t("l_dp_usage", u.lang))
        return
    await msg.reply_text(t("l_dp_ok", u.lang, id=did, qid=qid))


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
                text = t("l_retired_ok" if retired else "l_restored_ok", u.lang, qid=target)
            case Action.confirm_key:
                done = await confirm_key(svc.db, target, actor=u.id, now=svc.now(), chat_id=press.scope)
                text = t("l_key_confirmed" if done else "l_key_not_held", u.lang, qid=target)
            case Action.uphold | Action.dismiss:
                upheld = press.action == Action.uphold
                qid, _ = await dsp.resolve(svc.db, target, upheld=upheld, lead=u.id, chat_id=press.scope,
                                           now=svc.now())
                text = t("l_dispute_upheld" if upheld else "l_dispute_dismissed", u.lang, id=target)
                if upheld:  # upholding opens the key fix: the lead is shown how, with the key as it is
                    prompt = t("l_kf_prompt", u.lang, id=target, qid=qid, key=await key_fix.current_key(svc.db, qid))
                    await ack(query, text)
                    await context.message.reply_text(text + "\n" + prompt)
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
