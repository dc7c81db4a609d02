"""/editq <question>: fix a question's key, stem, an option or its explanation: pick what, send or pick the
new one, see a preview, then Save (a key: Save and regrade, or Save, keep past scores)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from telegram import InlineKeyboardMarkup, Update

from bank.errors import BankError, NotFound, TermsUnavailable
from bank.grading.terms import SegmentIn
from bank.kinds import Kind
from bank.models import Question
from bank.option_order import LETTERS
from bank.paper_store import fill_key_terms
from bank.question_ref import BankId, find_question, question_ref
from bot.authoring.callbacks import EditqAction, WizardPress
from bot.authoring.render import card_text
from bot.authoring.wizard import button, cancel_row, show
from bot.context import Ctx
from bot.core import ack
from bot.i18n import question_text, t
from bot.leads.access import require_bank_admin
from bot.outbox import kick
from bot.text_limits import clip
from bot.userctx import UserCtx
from proctor.errors import ProctorError
from proctor.exams.drafts import toggled
from proctor.exams.visibility import Role, Viewer
from proctor.teams import question_edit as qe
from proctor.teams.authoring import Editq, EditqStep, Wizard, clear_session, put_session
from proctor.teams.question_edit import EditField

log = logging.getLogger(__name__)
_PREVIEW_CLIP = 1200  # each of Before and After in a preview


async def editq(update: Update, context: Ctx) -> None:
    """/editq <question> (its reference, P3 Q43, or its bank id): the question, with a button per thing
    that can change."""
    desk = await require_bank_admin(update, context)
    if desk is None:
        return
    lang, msg = desk.user.lang, context.message
    if desk.in_group:
        await msg.reply_text(t("au_private", lang))
        return
    asked = " ".join(context.args or []).strip()
    if not asked:
        await msg.reply_text(t("eq_usage", lang))
        return
    try:
        qid = await find_question(context.services.db, asked)
    except NotFound:
        await msg.reply_text(t("eq_unknown", lang, asked=asked))
        return
    await _open(update, context, desk.user.id, qid, lang)


async def start_over(update: Update, context: Ctx, u: UserCtx, qid: int) -> None:
    """An /editq this release could not read: the lead is told, and it opens again on its card."""
    await clear_session(context.services.db, u.id)
    await context.bot.send_message(context.chat.id, t("au_expired_editq", u.lang,
                                                      question=await question_ref(context.services.db, qid)))
    await _open(update, context, u.id, qid, u.lang)


async def _open(update: Update, context: Ctx, user_id: int, qid: int, lang: str) -> None:
    """The question's card, at the first step (a question that can't be edited now: why not)."""
    svc = context.services
    q = await _editable(update, context, qid, lang)
    if q is None:
        return
    await put_session(svc.db, user_id, Editq(qid, q.version), svc.now())
    text, kb = card(q, lang)
    await context.bot.send_message(context.chat.id, text, reply_markup=kb)


async def _reply(update: Update, text: str) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(text)


async def _editable(update: Update, context: Ctx, qid: int, lang: str) -> Question | None:
    """The question as the admin may read it now (the read rule: not while their own exam on it runs),
    or they are told why not."""
    svc, user_id = context.services, update.effective_user.id if update.effective_user else 0
    try:
        return await qe.editable(svc.db, qid, Viewer(Role.admin, user_id), now=svc.now())
    except (NotFound, qe.Sealed):
        await _reply(update, await _not_now(context, qid, lang))
    return None


async def _not_now(context: Ctx, qid: int, lang: str) -> str:
    """Why the question can't be edited now: it is on a running exam, or gone."""
    try:
        return t("eq_sealed", lang, question=await question_ref(context.services.db, qid))
    except NotFound:
        return t("eq_unknown", lang, asked=question_text(BankId(qid), lang))


def card(q: Question, lang: str) -> tuple[str, InlineKeyboardMarkup]:
    qid = q.id or 0
    rows = [[button(t("eq_btn_key", lang), Wizard.editq, EditqAction.field, "k", question=qid),
             button(t("eq_btn_stem", lang), Wizard.editq, EditqAction.field, "s", question=qid),
             button(t("eq_btn_expl", lang), Wizard.editq, EditqAction.field, "x", question=qid)]]
    letters = [button(t("eq_btn_option", lang, letter=LETTERS[i]), Wizard.editq, EditqAction.field, f"o{i}", question=qid)
               for i in range(min(len(q.options), len(LETTERS)))]
    rows += [letters[i:i + 4] for i in range(0, len(letters), 4)]
    rows.append(cancel_row(Wizard.editq, lang, question=qid, back=False))
    text = t("eq_card", lang, question=q.ref, version=q.version, body=card_text(q, lang))
    return clip(text), InlineKeyboardMarkup(rows)


async def on_press(update: Update, context: Ctx, u: UserCtx, session: Editq, press: WizardPress) -> None:
    """A button of /editq's screens."""
    svc, lang, qid = context.services, u.lang, session.question
    await ack(context.query)
    if press.action == EditqAction.cancel:
        await clear_session(svc.db, u.id)
        await show(update, context, t("au_cancelled", lang))
        return
    q = await _editable(update, context, qid, lang)
    if q is None:
        await clear_session(svc.db, u.id)
        return
    picking_key = session.field is EditField.key
    match press.action:
        case EditqAction.back:
            await put_session(svc.db, u.id, replace(session, step=EditqStep.field, field=None), svc.now())
            await show(update, context, *card(q, lang))
        case EditqAction.field:
            await _ask(update, context, u, q, session, press.arg)
        case EditqAction.key if picking_key:
            value = {"t": "true", "f": "false"}.get(press.arg) or (
                LETTERS[int(press.arg)] if press.arg.isdigit() and int(press.arg) < len(q.options) else "")
            await _preview(update, context, u, session, value)
        case EditqAction.tick if picking_key and q.kind == Kind.multi:
            # the multiple-choice toggle of exams and daily quizzes, over the options in stored order
            ticks = toggled(q, LETTERS[:len(q.options)], session.ticks, press.arg)
            if ticks is not None:
                session = replace(session, ticks=ticks)
                await put_session(svc.db, u.id, session, svc.now())
            await show(update, context, *_multi_picker(q, session, lang))
        case EditqAction.done if picking_key:
            await _preview(update, context, u, session, session.ticks)
        case EditqAction.save if session.step is EditqStep.preview:
            await _save(update, context, u, session, regrade=press.arg == "r")
        case _:
            await context.bot.send_message(context.chat.id, t("au_stale", lang))


_FIELDS = {"k": EditField.key, "s": EditField.stem, "x": EditField.explanation}  # the field buttons' args


async def _ask(update: Update, context: Ctx, u: UserCtx, q: Question, session: Editq, arg: str) -> None:
    """Ask for the new text, or show the key's buttons."""
    svc, lang, qid = context.services, u.lang, q.id or 0
    option = int(arg[1:]) if arg.startswith("o") and arg[1:].isdigit() else 0
    field = _FIELDS.get(arg, EditField.option if arg.startswith("o") else None)
    if field is None or (field is EditField.option and option >= len(q.options)):
        await context.bot.send_message(context.chat.id, t("au_stale", lang))
        return
    session = replace(session, step=EditqStep.text, field=field, option=option, ticks="")
    await put_session(svc.db, u.id, session, svc.now())
    back = InlineKeyboardMarkup([cancel_row(Wizard.editq, lang, question=qid)])
    now_key = qe.key_text(q.answer)
    match field:
        case EditField.key if q.kind == Kind.multi:
            await show(update, context, *_multi_picker(q, session, lang))
        case EditField.key if q.kind in (Kind.single, Kind.truefalse):
            if q.kind == Kind.single:
                keys = [button(LETTERS[i], Wizard.editq, EditqAction.key, i, question=qid)
                        for i in range(min(len(q.options), len(LETTERS)))]
            else:
                keys = [button(t("tf_true", lang), Wizard.editq, EditqAction.key, "t", question=qid),
                        button(t("tf_false", lang), Wizard.editq, EditqAction.key, "f", question=qid)]
            rows = [keys[i:i + 6] for i in range(0, len(keys), 6)] + [cancel_row(Wizard.editq, lang, question=qid)]
            await show(update, context, t("eq_pick_key", lang, question=q.ref, key=now_key), InlineKeyboardMarkup(rows))
        case EditField.key:
            await show(update, context, t("eq_ask_key", lang, question=q.ref, key=now_key), back)
        case EditField.option:
            await show(update, context, t("eq_ask_option", lang, question=q.ref, letter=LETTERS[option]), back)
        case EditField.stem:
            await show(update, context, t("eq_ask_stem", lang, question=q.ref), back)
        case EditField.explanation:
            await show(update, context, t("eq_ask_expl", lang, question=q.ref), back)


def _multi_picker(q: Question, session: Editq, lang: str) -> tuple[str, InlineKeyboardMarkup]:
    qid, ticks = q.id or 0, session.ticks
    keys = [button(("☑ " if LETTERS[i] in ticks else "☐ ") + LETTERS[i], Wizard.editq, EditqAction.tick, i,
                   question=qid)
            for i in range(min(len(q.options), len(LETTERS)))]
    rows = [keys[i:i + 4] for i in range(0, len(keys), 4)]
    rows.append([button(t("eq_btn_done", lang), Wizard.editq, EditqAction.done, question=qid)])
    rows.append(cancel_row(Wizard.editq, lang, question=qid))
    return t("eq_pick_multi", lang, question=q.ref, key=qe.key_text(q.answer)), InlineKeyboardMarkup(rows)


async def on_text(update: Update, context: Ctx, u: UserCtx, session: Editq) -> bool:
    """The new text the lead was asked for; False when /editq waits for no text (it goes on)."""
    if session.step is not EditqStep.text:
        return False
    value = context.message.text or ""
    if session.field is EditField.explanation and value.strip() == "-":
        value = ""
    await _preview(update, context, u, session, value)
    return True


def _edit(session: Editq, value: str) -> qe.Edit:
    """The edit the session's steps describe (its field is set from the text step on)."""
    if session.field is None:
        raise ValueError("/editq has no field before its text step")
    return qe.Edit(session.field, value, session.option)


def _field_name(edit: qe.Edit, lang: str) -> str:
    if edit.field is EditField.option:
        return t("eq_field_option", lang, letter=LETTERS[edit.option])
    return t(f"eq_field_{edit.field.value}", lang)


def _shown(q: Question, edit: qe.Edit, lang: str) -> str:
    match edit.field:
        case EditField.key:
            text = qe.key_text(q.answer)
        case EditField.stem:
            text = q.stem
        case EditField.explanation:
            text = q.explanation
        case EditField.option:
            text = q.options[edit.option] if q.options else ""
    return clip(text, _PREVIEW_CLIP) if text else t("eq_empty", lang)


async def _preview(update: Update, context: Ctx, u: UserCtx, session: Editq, value: str) -> None:
    """Validate the new value; a preview with Save (a key: regrade or keep), Back and Cancel."""
    svc, lang, qid = context.services, u.lang, session.question
    edit = _edit(session, value)
    try:
        old, new = await qe.preview(svc.db, qid, edit, Viewer(Role.admin, u.id), now=svc.now())
    except (qe.BadKey, qe.BadEdit) as e:
        await context.bot.send_message(context.chat.id, t("eq_bad", lang, why=str(e)))
        return
    except (NotFound, qe.Sealed):
        await clear_session(svc.db, u.id)
        await context.bot.send_message(context.chat.id, await _not_now(context, qid, lang))
        return
    await put_session(svc.db, u.id, replace(session, step=EditqStep.preview, value=value), svc.now())
    text = t("eq_preview", lang, question=old.ref, version=old.version + 1, field=_field_name(edit, lang),
             old=_shown(old, edit, lang), new=_shown(new, edit, lang))
    if edit.field is EditField.key:
        text += "\n\n" + t("eq_preview_key", lang, answers=await qe.answer_count(svc.db, qid))
        save = [button(t("eq_btn_regrade", lang), Wizard.editq, EditqAction.save, "r", question=qid),
                button(t("eq_btn_keep", lang), Wizard.editq, EditqAction.save, "k", question=qid)]
    else:
        save = [button(t("eq_btn_save", lang), Wizard.editq, EditqAction.save, "n", question=qid)]
    await show(update, context, clip(text),
               InlineKeyboardMarkup([save, cancel_row(Wizard.editq, lang, question=qid)]))


async def _save(update: Update, context: Ctx, u: UserCtx, session: Editq, *, regrade: bool) -> None:
    """Save the previewed edit as a new version (one transaction: version, regrade, audit, notices)."""
    svc, lang, qid = context.services, u.lang, session.question
    edit = _edit(session, session.value)
    try:
        done = await qe.edit_question(svc.db, qid, edit, actor=u.id, now=svc.now(), chat_id=None,
                                      regrade=regrade, expected_version=session.version)
    except qe.Changed:
        await clear_session(svc.db, u.id)
        await show(update, context, t("eq_changed", lang, question=await question_ref(svc.db, qid)))
        return
    except qe.Sealed:
        await show(update, context, await _not_now(context, qid, lang))
        return
    except qe.OwnScore:  # nothing written: another admin makes this change
        await clear_session(svc.db, u.id)
        await show(update, context, t("l_own_score", lang, question=await question_ref(svc.db, qid)))
        return
    except (BankError, ProctorError) as e:  # the question went away, or the key no longer fits
        await clear_session(svc.db, u.id)
        await show(update, context, t("eq_bad", lang, why=str(e)))
        return
    await clear_session(svc.db, u.id)
    kick(context.application)  # the notices are committed with the edit; send them now
    if edit.field is EditField.key:
        await _key_terms(svc.db, qid)
    lines = [t("eq_saved", lang, question=await question_ref(svc.db, qid), version=done.version)]
    if edit.field is EditField.key:
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
