"""/newpaper: compose a paper in a few steps (title, time limit, blueprint), see a preview (counts,
points, minutes; exam-only and the draw switchable there), then Create. Back and Cancel throughout."""

from __future__ import annotations

from dataclasses import replace

from telegram import InlineKeyboardMarkup, Update

from bank.errors import BankError
from bot.authoring.callbacks import NewPaperAction, WizardPress
from bot.authoring.wizard import button, cancel_row, show
from bot.context import Ctx
from bot.core import ack
from bot.i18n import joined, kind_name, t
from bot.leads.access import require_bank_admin
from bot.text_limits import clip
from bot.userctx import UserCtx
from proctor.errors import ProctorError
from proctor.exams import blueprint as bp
from proctor.exams import compose
from proctor.teams.authoring import NewPaper, Wizard, clear_session, put_session
from proctor.teams.authoring import NewPaperStep as Step

MINUTES = (15, 30, 45, 60, 90, 120)


async def newpaper(update: Update, context: Ctx) -> None:
    """/newpaper: start the builder (its first step asks for the title)."""
    desk = await require_bank_admin(update, context)
    if desk is None:
        return
    lang = desk.user.lang
    if desk.in_group:
        await context.message.reply_text(t("au_private", lang))
        return
    svc = context.services
    await put_session(svc.db, desk.user.id, NewPaper(), svc.now())
    await context.message.reply_text(
        t("np_ask_title", lang), reply_markup=InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang, back=False)]))


async def start_over(context: Ctx, u: UserCtx) -> None:
    """A /newpaper this release could not read: the lead is told, and it asks for the title again."""
    svc, lang = context.services, u.lang
    await put_session(svc.db, u.id, NewPaper(), svc.now())
    await context.bot.send_message(context.chat.id, t("au_expired_newpaper", lang) + "\n\n" + t("np_ask_title", lang),
                                   reply_markup=InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang, back=False)]))


async def _step(update: Update, context: Ctx, u: UserCtx, session: NewPaper) -> None:
    """Store the session and show its step's screen."""
    svc, lang = context.services, u.lang
    await put_session(svc.db, u.id, session, svc.now())
    match session.step:
        case Step.title_:
            await show(update, context, t("np_ask_title", lang),
                       InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang, back=False)]))
        case Step.minutes:
            picks = [button(t("np_minutes", lang, n=m), Wizard.newpaper, NewPaperAction.minutes, m) for m in MINUTES]
            await show(update, context, t("np_ask_minutes", lang, title=session.title),
                       InlineKeyboardMarkup([picks[:3], picks[3:], cancel_row(Wizard.newpaper, lang)]))
        case Step.parts:
            counts = await bp.pool_counts(svc.db)
            # the kinds' codes, as the blueprint is typed ("single 5 2")
            pool = joined((f"{k.value} {n}" for k, n in counts.items()), lang) or "0"
            await show(update, context, t("np_ask_parts", lang, title=session.title, minutes=session.minutes,
                                          pool=pool),
                       InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang)]))
        case Step.preview:
            await _preview(update, context, u, session)


async def _draft(context: Ctx, session: NewPaper) -> compose.Draft:
    """The paper the session describes. Raises BadBlueprint, BadPaper."""
    ids = await bp.paper_ids(context.services.db)
    return compose.Draft(session.title, session.minutes, bp.parse_lines(session.parts, ids),
                         per_candidate=session.per_candidate, exam_only=session.exam_only)


def _shortfall(e: bp.Shortfall, lang: str) -> str:
    parts = "; ".join(t("np_short_part", lang, kind=kind_name(s.part.kind, lang), want=s.part.count, have=s.available)
                      for s in e.short)
    return t("np_short", lang, parts=parts)


async def _preview(update: Update, context: Ctx, u: UserCtx, session: NewPaper) -> None:
    """Counts per kind, total points and minutes, the switches, Create; a shortfall goes back a step."""
    lang = u.lang
    try:
        draft = await _draft(context, session)
        p = await compose.preview(context.services.db, draft)
    except (bp.Shortfall, BankError, ProctorError) as e:
        why = _shortfall(e, lang) if isinstance(e, bp.Shortfall) else t("np_bad", lang, why=str(e))
        await put_session(context.services.db, u.id, replace(session, step=Step.parts), context.services.now())
        await show(update, context, why, InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang)]))
        return
    kinds = joined((f"{kind_name(k, lang)} {n}" for k, n in p.by_kind.items()), lang)
    text = t("np_preview", lang, title=draft.title, n=p.questions, kinds=kinds, points=f"{p.points:g}",
             minutes=draft.minutes, draw=t("np_draw_each" if draft.per_candidate else "np_draw_frozen", lang),
             mode=t("np_mode_exam" if draft.exam_only else "np_mode_practice", lang))
    on_off = t("np_on" if draft.exam_only else "np_off", lang)
    kb = InlineKeyboardMarkup([
        [button(t("np_btn_exam_only", lang, state=on_off), Wizard.newpaper, NewPaperAction.exam_only),
         button(t("np_btn_frozen" if draft.per_candidate else "np_btn_each", lang), Wizard.newpaper,
                NewPaperAction.per_candidate)],
        [button(t("np_btn_create", lang), Wizard.newpaper, NewPaperAction.create)],
        cancel_row(Wizard.newpaper, lang),
    ])
    await show(update, context, clip(text), kb)


async def on_text(update: Update, context: Ctx, u: UserCtx, session: NewPaper) -> bool:
    """The title, the minutes or the blueprint the builder asked for; False at a step with no text."""
    text, lang = (context.message.text or "").strip(), u.lang
    try:
        match session.step:
            case Step.title_:
                session = replace(session, step=Step.minutes, title=compose.checked_title(text))
            case Step.minutes:
                session = replace(session, step=Step.parts, minutes=compose.checked_minutes(text))
            case Step.parts:
                bp.parse_lines(text, await bp.paper_ids(context.services.db))
                session = replace(session, step=Step.preview, parts=text)
            case Step.preview:
                return False
    except (compose.BadPaper, bp.BadBlueprint) as e:
        await context.message.reply_text(t("np_bad", lang, why=str(e)))
        return True
    await _step(update, context, u, session)
    return True


_BACK = {Step.minutes: Step.title_, Step.parts: Step.minutes, Step.preview: Step.parts}


async def on_press(update: Update, context: Ctx, u: UserCtx, session: NewPaper, press: WizardPress) -> None:
    """A button of the builder's screens."""
    svc, lang, step = context.services, u.lang, session.step
    await ack(context.query)
    match press.action:
        case NewPaperAction.cancel:
            await clear_session(svc.db, u.id)
            await show(update, context, t("au_cancelled", lang))
        case NewPaperAction.back if step in _BACK:
            await _step(update, context, u, replace(session, step=_BACK[step]))
        case NewPaperAction.minutes if step is Step.minutes and press.arg.isdigit() and int(press.arg) in MINUTES:
            await _step(update, context, u, replace(session, step=Step.parts, minutes=int(press.arg)))
        case NewPaperAction.exam_only if step is Step.preview:
            await _step(update, context, u, replace(session, exam_only=not session.exam_only))
        case NewPaperAction.per_candidate if step is Step.preview:
            await _step(update, context, u, replace(session, per_candidate=not session.per_candidate))
        case NewPaperAction.create if step is Step.preview:
            await _create(update, context, u, session)
        case _:
            await show(update, context, t("au_stale", lang))


async def _create(update: Update, context: Ctx, u: UserCtx, session: NewPaper) -> None:
    """Draw and store the paper (the same checks as the preview, again: the bank may have changed)."""
    svc, lang = context.services, u.lang
    try:
        draft = await _draft(context, session)
        made = await compose.compose_paper(svc.db, draft, actor=u.id, now=svc.now())
    except bp.Shortfall as e:
        await show(update, context, _shortfall(e, lang), InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang)]))
        return
    except (BankError, ProctorError) as e:  # a title taken meanwhile, ...
        await show(update, context, t("np_bad", lang, why=str(e)),
                   InlineKeyboardMarkup([cancel_row(Wizard.newpaper, lang)]))
        return
    await clear_session(svc.db, u.id)
    await show(update, context, t("np_created", lang, title=draft.title, code=made.code))
