"""/newpaper: compose a paper in a few steps (title, time limit, blueprint), see a preview (counts,
points, minutes; exam-only and the draw switchable there), then Create. Back and Cancel throughout."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardMarkup, Update

from bank.errors import BankError
from bank.kinds import Kind
from bot.context import Ctx
from bot.core import ack
from bot.i18n import joined, kind_name, t
from bot.leads.access import require_bank_admin
from bot.leads.authoring import NewPaperAction, button, cancel_row, show
from bot.text_limits import clip
from bot.userctx import UserCtx
from proctor.errors import ProctorError
from proctor.exams import blueprint as bp
from proctor.exams import compose
from proctor.teams.authoring import NEWPAPER, Session, clear_session, put_session

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
    await put_session(svc.db, desk.user.id, NEWPAPER, {"step": "title"}, svc.now())
    await context.message.reply_text(
        t("np_ask_title", lang), reply_markup=InlineKeyboardMarkup([cancel_row(NEWPAPER, lang, back=False)]))


async def _step(update: Update, context: Ctx, u: UserCtx, state: dict[str, Any]) -> None:
    """Store the state and show its step's screen."""
    svc, lang = context.services, u.lang
    await put_session(svc.db, u.id, NEWPAPER, state, svc.now())
    step = state["step"]
    if step == "title":
        await show(update, context, t("np_ask_title", lang),
                    InlineKeyboardMarkup([cancel_row(NEWPAPER, lang, back=False)]))
    elif step == "minutes":
        picks = [button(t("np_minutes", lang, n=m), NEWPAPER, NewPaperAction.minutes, m) for m in MINUTES]
        await show(update, context, t("np_ask_minutes", lang, title=state["title"]),
                    InlineKeyboardMarkup([picks[:3], picks[3:], cancel_row(NEWPAPER, lang)]))
    elif step == "parts":
        counts = await bp.pool_counts(svc.db)
        # the kinds' codes, as the blueprint is typed ("single 5 2")
        pool = joined((f"{k.value} {n}" for k, n in counts.items()), lang) or "0"
        await show(update, context, t("np_ask_parts", lang, title=state["title"], minutes=state["minutes"], pool=pool),
                    InlineKeyboardMarkup([cancel_row(NEWPAPER, lang)]))
    else:
        await _preview(update, context, u, state)


async def _draft(context: Ctx, state: dict[str, Any]) -> compose.Draft:
    """The paper the state describes. Raises BadBlueprint, BadPaper."""
    ids = await bp.paper_ids(context.services.db)
    return compose.Draft(str(state["title"]), int(state["minutes"]), bp.parse_lines(str(state["parts"]), ids),
                         per_candidate=bool(state.get("each")), exam_only=bool(state.get("exam_only")))


def _shortfall(e: bp.Shortfall, lang: str) -> str:
    parts = "; ".join(t("np_short_part", lang, kind=kind_name(s.part.kind, lang), want=s.part.count, have=s.available)
                      for s in e.short)
    return t("np_short", lang, parts=parts)


async def _preview(update: Update, context: Ctx, u: UserCtx, state: dict[str, Any]) -> None:
    """Counts per kind, total points and minutes, the switches, Create; a shortfall goes back a step."""
    lang = u.lang
    try:
        draft = await _draft(context, state)
        p = await compose.preview(context.services.db, draft)
    except bp.Shortfall as e:
        state["step"] = "parts"
        await put_session(context.services.db, u.id, NEWPAPER, state, context.services.now())
        await show(update, context, _shortfall(e, lang), InlineKeyboardMarkup([cancel_row(NEWPAPER, lang)]))
        return
    except (BankError, ProctorError) as e:
        state["step"] = "parts"
        await put_session(context.services.db, u.id, NEWPAPER, state, context.services.now())
        await show(update, context, t("np_bad", lang, why=str(e)), InlineKeyboardMarkup([cancel_row(NEWPAPER, lang)]))
        return
    kinds = joined((f"{kind_name(Kind(k), lang)} {n}" for k, n in p.by_kind.items()), lang)
    text = t("np_preview", lang, title=draft.title, n=p.questions, kinds=kinds, points=f"{p.points:g}",
             minutes=draft.minutes, draw=t("np_draw_each" if draft.per_candidate else "np_draw_frozen", lang),
             mode=t("np_mode_exam" if draft.exam_only else "np_mode_practice", lang))
    on_off = t("np_on" if draft.exam_only else "np_off", lang)
    kb = InlineKeyboardMarkup([
        [button(t("np_btn_exam_only", lang, state=on_off), NEWPAPER, NewPaperAction.exam_only),
         button(t("np_btn_frozen" if draft.per_candidate else "np_btn_each", lang), NEWPAPER, NewPaperAction.per_candidate)],
        [button(t("np_btn_create", lang), NEWPAPER, NewPaperAction.create)],
        cancel_row(NEWPAPER, lang),
    ])
    await show(update, context, clip(text), kb)


async def on_text(update: Update, context: Ctx, u: UserCtx, session: Session) -> bool:
    """The title, the minutes or the blueprint the builder asked for; False at a step with no text."""
    state = dict(session.state)
    text = (context.message.text or "").strip()
    step, lang = state.get("step"), u.lang
    if step in ("title", "minutes"):
        try:
            if step == "title":
                state.update(step="minutes", title=compose.checked_title(text))
            else:
                state.update(step="parts", minutes=compose.checked_minutes(text))
        except compose.BadPaper as e:
            await context.message.reply_text(t("np_bad", lang, why=str(e)))
            return True
    elif step == "parts":
        try:
            bp.parse_lines(text, await bp.paper_ids(context.services.db))
        except bp.BadBlueprint as e:
            await context.message.reply_text(t("np_bad", lang, why=str(e)))
            return True
        state.update(step="preview", parts=text)
    else:
        return False
    await _step(update, context, u, state)
    return True


_BACK = {"minutes": "title", "parts": "minutes", "preview": "parts"}


async def on_press(update: Update, context: Ctx, u: UserCtx, session: Session, press: Any) -> None:
    """A button of the builder's screens."""
    svc, lang = context.services, u.lang
    state = dict(session.state)
    step = state.get("step")
    await ack(context.query)
    match press.action:
        case NewPaperAction.cancel:
            await clear_session(svc.db, u.id)
            await show(update, context, t("au_cancelled", lang))
        case NewPaperAction.back if step in _BACK:
            state["step"] = _BACK[str(step)]
            await _step(update, context, u, state)
        case NewPaperAction.minutes if step == "minutes" and press.arg.isdigit() and int(press.arg) in MINUTES:
            state.update(step="parts", minutes=int(press.arg))
            await _step(update, context, u, state)
        case NewPaperAction.exam_only | NewPaperAction.per_candidate if step == "preview":
            key = "exam_only" if press.action == NewPaperAction.exam_only else "each"
            state[key] = not state.get(key)
            await _step(update, context, u, state)
        case NewPaperAction.create if step == "preview":
            await _create(update, context, u, state)
        case _:
            await show(update, context, t("au_stale", lang))


async def _create(update: Update, context: Ctx, u: UserCtx, state: dict[str, Any]) -> None:
    """Draw and store the paper (the same checks as the preview, again: the bank may have changed)."""
    svc, lang = context.services, u.lang
    try:
        draft = await _draft(context, state)
        made = await compose.compose_paper(svc.db, draft, actor=u.id, now=svc.now())
    except bp.Shortfall as e:
        await show(update, context, _shortfall(e, lang), InlineKeyboardMarkup([cancel_row(NEWPAPER, lang)]))
        return
    except (BankError, ProctorError) as e:  # a title taken meanwhile, ...
        await show(update, context, t("np_bad", lang, why=str(e)), InlineKeyboardMarkup([cancel_row(NEWPAPER, lang)]))
        return
    await clear_session(svc.db, u.id)
    await show(update, context, t("np_created", lang, title=draft.title, code=made.code))
