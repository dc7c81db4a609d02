"""/editq <id>: fix a question's key, stem, an option or its explanation: pick what, send or pick the
new one, see a preview, then Save (a key: Save and regrade, or Save, keep past scores)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from telegram import InlineKeyboardMarkup, Update

from bank.errors import BankError, NotFound, TermsUnavailable
from bank.grading.terms import SegmentIn
from bank.kinds import Kind
from bank.option_order import LETTERS
from bank.paper_store import fill_key_terms
from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.leads.access import require_bank_admin
from bot.leads.authoring import EditqAction, button, cancel_row, show
from bot.leads.question_card import question_text
from bot.outbox import kick
from bot.text_limits import clip
from bot.userctx import UserCtx
from proctor.errors import ProctorError
from proctor.teams import question_edit as qe
from proctor.teams.authoring import EDITQ, Session, clear_session, put_session

if TYPE_CHECKING:
    from bank.models import Question

log = logging.getLogger(__name__)
_PREVIEW_CLIP = 1200  # each of Before and After in a preview


async def editq(update: Update, context: Ctx) -> None:
    """/editq <id>: the question, with a button per thing that can change."""
    desk = await require_bank_admin(update, context)
    if desk is None:
        return
    lang, msg = desk.user.lang, context.message
    if desk.in_group:
        await msg.reply_text(t("au_private", lang))
        return
    args = context.args or []
    if len(args) != 1 or not args[0].lstrip("#").isdigit():
        await msg.reply_text(t("eq_usage", lang))
        return
    qid = int(args[0].lstrip("#"))
    svc = context.services
    q = await _editable(update, svc.db, qid, lang)
    if q is None:
        return
    await put_session(svc.db, desk.user.id, EDITQ, {"q": qid, "v": q.version, "step": "field"}, svc.now())
    text, kb = card(q, lang)
    await msg.reply_text(text, reply_markup=kb)


async def _reply(update: Update, text: str) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(text)


async def _editable(update: Update, db: Any, qid: int, lang: str) -> Question | None:
    try:
        return await qe.editable(db, qid)
    except NotFound:
        await _reply(update, t("eq_unknown", lang, id=qid))
    except qe.Sealed:
        await _reply(update, t("eq_sealed", lang, id=qid))
    return None


def card(q: Question, lang: str) -> tuple[str, InlineKeyboardMarkup]:
    qid = q.id or 0
    rows = [[button(t("eq_btn_key", lang), EDITQ, EditqAction.field, "k", question=qid),
             button(t("eq_btn_stem", lang), EDITQ, EditqAction.field, "s", question=qid),
             button(t("eq_btn_expl", lang), EDITQ, EditqAction.field, "x", question=qid)]]
    letters = [button(t("eq_btn_option", lang, letter=LETTERS[i]), EDITQ, EditqAction.field, f"o{i}", question=qid)
               for i in range(min(len(q.options), len(LETTERS)))]
    rows += [letters[i:i + 4] for i in range(0, len(letters), 4)]
    rows.append(cancel_row(EDITQ, lang, question=qid, back=False))
    text = t("eq_card", lang, id=qid, version=q.version, question=question_text(q, lang))
    return clip(text), InlineKeyboardMarkup(rows)


async def on_press(update: Update, context: Ctx, u: UserCtx, session: Session, press: Any) -> None:
    """A button of /editq's screens."""
    svc = context.services
    state = dict(session.state)
    qid, lang = int(state["q"]), u.lang
    await ack(context.query)
    if press.action == EditqAction.cancel:
        await clear_session(svc.db, u.id)
        await show(update, context, t("au_cancelled", lang))
        return
    q = await _editable(update, svc.db, qid, lang)
    if q is None:
        await clear_session(svc.db, u.id)
        return
    match press.action:
        case EditqAction.back:
            state.update(step="field", field=None)
            await put_session(svc.db, u.id, EDITQ, state, svc.now())
            await show(update, context, *card(q, lang))
        case EditqAction.field:
            await _ask(update, context, u, q, state, press.arg)
        case EditqAction.key if state.get("field") == "key":
            value = {"t": "true", "f": "false"}.get(press.arg) or (
                LETTERS[int(press.arg)] if press.arg.isdigit() and int(press.arg) < len(q.options) else "")
            await _preview(update, context, u, state, value)
        case EditqAction.tick if state.get("field") == "key" and q.kind == Kind.multi and press.arg.isdigit():
            i = int(press.arg)
            if i < len(q.options):
                state["ticks"] = "".join(sorted(set(state.get("ticks", "")) ^ {LETTERS[i]}))
                await put_session(svc.db, u.id, EDITQ, state, svc.now())
            await show(update, context, *_multi_picker(q, state, lang))
        case EditqAction.done if state.get("field") == "key":
            await _preview(update, context, u, state, state.get("ticks", ""))
        case EditqAction.save if state.get("step") == "preview":
            await _save(update, context, u, state, regrade=press.arg == "r")
        case _:
            await context.bot.send_message(context.chat.id, t("au_stale", lang))


async def _ask(update: Update, context: Ctx, u: UserCtx, q: Question,
               state: dict[str, Any], arg: str) -> None:
    """Ask for the new text, or show the key's buttons."""
    svc, lang, qid = context.services, u.lang, q.id or 0
    option = int(arg[1:]) if arg.startswith("o") and arg[1:].isdigit() else 0
    field = {"k": "key", "s": "stem", "x": "explanation"}.get(arg, "option" if arg.startswith("o") else "")
    if not field or (field == "option" and option >= len(q.options)):
        await context.bot.send_message(context.chat.id, t("au_stale", lang))
        return
    state.update(step="text", field=field, option=option, ticks="")
    await put_session(svc.db, u.id, EDITQ, state, svc.now())
    back = InlineKeyboardMarkup([cancel_row(EDITQ, lang, question=qid)])
    now_key = qe.key_text(q.answer)
    if field == "key" and q.kind == Kind.multi:
        await show(update, context, *_multi_picker(q, state, lang))
    elif field == "key" and q.kind in (Kind.single, Kind.truefalse):
        if q.kind == Kind.single:
            keys = [button(LETTERS[i], EDITQ, EditqAction.key, i, question=qid) for i in range(min(len(q.options), len(LETTERS)))]
        else:
            keys = [button(t("tf_true", lang), EDITQ, EditqAction.key, "t", question=qid),
                    button(t("tf_false", lang), EDITQ, EditqAction.key, "f", question=qid)]
        rows = [keys[i:i + 6] for i in range(0, len(keys), 6)] + [cancel_row(EDITQ, lang, question=qid)]
        await show(update, context, t("eq_pick_key", lang, id=qid, key=now_key), InlineKeyboardMarkup(rows))
    elif field == "key":
        await show(update, context, t("eq_ask_key", lang, id=qid, key=now_key), back)
    elif field == "option":
        await show(update, context, t("eq_ask_option", lang, id=qid, letter=LETTERS[option]), back)
    else:
        await show(update, context, t("eq_ask_stem" if field == "stem" else "eq_ask_expl", lang, id=qid), back)


def _multi_picker(q: Question, state: dict[str, Any], lang: str) -> tuple[str, InlineKeyboardMarkup]:
    qid, ticks = q.id or 0, state.get("ticks", "")
    keys = [button(("☑ " if LETTERS[i] in ticks else "☐ ") + LETTERS[i], EDITQ, EditqAction.tick, i, question=qid)
            for i in range(min(len(q.options), len(LETTERS)))]
    rows = [keys[i:i + 4] for i in range(0, len(keys), 4)]
    rows.append([button(t("eq_btn_done", lang), EDITQ, EditqAction.done, question=qid)])
    rows.append(cancel_row(EDITQ, lang, question=qid))
    return t("eq_pick_multi", lang, id=qid, key=qe.key_text(q.answer)), InlineKeyboardMarkup(rows)


async def on_text(update: Update, context: Ctx, u: UserCtx, session: Session) -> bool:
    """The new text the lead was asked for; False when /editq waits for no text (it goes on)."""
    state = dict(session.state)
    if state.get("step") != "text":
        return False
    value = context.message.text or ""
    if state.get("field") == "explanation" and value.strip() == "-":
        value = ""
    await _preview(update, context, u, state, value)
    return True


def _field_name(state: dict[str, Any], lang: str) -> str:
    field = state.get("field", "")
    if field == "option":
        return t("eq_field_option", lang, letter=LETTERS[int(state.get("option", 0))])
    return t(f"eq_field_{field}", lang)


def _shown(q: Question, state: dict[str, Any], lang: str) -> str:
    field = state.get("field")
    text = {"key": qe.key_text(q.answer), "stem": q.stem, "explanation": q.explanation}.get(
        str(field), q.options[int(state.get("option", 0))] if q.options else "")
    return clip(text, _PREVIEW_CLIP) if text else t("eq_empty", lang)


async def _preview(update: Update, context: Ctx, u: UserCtx, state: dict[str, Any],
                   value: str) -> None:
    """Validate the new value; a preview with Save (a key: regrade or keep), Back and Cancel."""
    svc, lang, qid = context.services, u.lang, int(state["q"])
    edit = qe.Edit(str(state["field"]), value, int(state.get("option", 0)))
    try:
        old, new = await qe.preview(svc.db, qid, edit)
    except (qe.BadKey, qe.BadEdit) as e:
        await context.bot.send_message(context.chat.id, t("eq_bad", lang, why=str(e)))
        return
    except (NotFound, qe.Sealed):
        await clear_session(svc.db, u.id)
        await context.bot.send_message(context.chat.id, t("eq_sealed", lang, id=qid))
        return
    state.update(step="preview", value=value)
    await put_session(svc.db, u.id, EDITQ, state, svc.now())
    text = t("eq_preview", lang, id=qid, version=old.version + 1, field=_field_name(state, lang),
             old=_shown(old, state, lang), new=_shown(new, state, lang))
    if edit.field == "key":
        text += "\n\n" + t("eq_preview_key", lang, answers=await qe.answer_count(svc.db, qid))
        save = [button(t("eq_btn_regrade", lang), EDITQ, EditqAction.save, "r", question=qid),
                button(t("eq_btn_keep", lang), EDITQ, EditqAction.save, "k", question=qid)]
    else:
        save = [button(t("eq_btn_save", lang), EDITQ, EditqAction.save, "n", question=qid)]
    await show(update, context, clip(text), InlineKeyboardMarkup([save, cancel_row(EDITQ, lang, question=qid)]))


async def _save(update: Update, context: Ctx, u: UserCtx, state: dict[str, Any], *,
                regrade: bool) -> None:
    """Save the previewed edit as a new version (one transaction: version, regrade, audit, notices)."""
    svc, lang, qid = context.services, u.lang, int(state["q"])
    edit = qe.Edit(str(state["field"]), str(state.get("value", "")), int(state.get("option", 0)))
    try:
        done = await qe.edit_question(svc.db, qid, edit, actor=u.id, now=svc.now(), chat_id=None,
                                      regrade=regrade, expected_version=int(state["v"]))
    except qe.Changed:
        await clear_session(svc.db, u.id)
        await show(update, context, t("eq_changed", lang, id=qid))
        return
    except qe.Sealed:
        await show(update, context, t("eq_sealed", lang, id=qid))
        return
    except qe.OwnScore:  # nothing written: another admin makes this change
        await clear_session(svc.db, u.id)
        await show(update, context, t("l_own_score", lang, qid=qid))
        return
    except (BankError, ProctorError) as e:  # the question went away, or the key no longer fits
        await clear_session(svc.db, u.id)
        await show(update, context, t("eq_bad", lang, why=str(e)))
        return
    await clear_session(svc.db, u.id)
    kick(context.application)  # the notices are committed with the edit; send them now
    if edit.field == "key":
        await _key_terms(svc.db, qid)
    lines = [t("eq_saved", lang, id=qid, version=done.version)]
    if edit.field == "key":
        lines.append(t("eq_regraded", lang, answers=done.answers, changed=len(done.changes)) if regrade
                     else t("eq_kept", lang))
    await show(update, context, "\n".join(lines))



async def _key_terms(db: Any, qid: int) -> None:
    """The edited reference answer's key terms, found again (in a child process, as at start-up; best
    effort); the other questions' are left alone."""
    try:
        await fill_key_terms(db, [qid], segment_in=SegmentIn.CHILD)
    except TermsUnavailable:
        log.warning("could not find the key terms of an edited reference answer", exc_info=True)
