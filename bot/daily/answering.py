"""Answers: button taps (groups and private chats) and typed answers (replies, or private text).

In a group each member's first answer counts and the feedback is private: a toast for a tap, a
private message for a typed reply. In a private chat the question shows its feedback at once and
the next question follows, then a summary with the streak.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bank import typed_answer
from bank.errors import NotFound
from bank.grading import grade
from bank.grading.result import Grade
from bank.models import Kind
from bot.core import ack
from bot.daily import callbacks as cb
from bot.daily import counts, push, render
from bot.i18n import t
from bot.services import services
from bot.text_limits import MAX_TOAST, clip
from bot.userctx import UserCtx, user_ctx
from proctor.daily import answers as answer_store
from proctor.daily import delivery as dstore
from proctor.daily import subscriptions as subs
from proctor.daily.answers import QuizClosed
from proctor.daily.papers import multi_policy
from proctor.exams.seal import sealed_for
from proctor.exams.service import running_attempt

log = logging.getLogger(__name__)


async def _grade(app: Application, view: render.View, response: object) -> Grade:
    policy = await multi_policy(services(app).db, view.question.id)
    return grade(view.question, response, multi_policy=policy)


async def _sealed(app: Application, user_id: int, view: render.View) -> bool:
    """Whether this user's running exam seals the question: then no verdict, key or explanation."""
    return (await sealed_for(services(app).db, user_id)).covers(view.question.id)


async def _record(app: Application, delivery: dstore.Delivery, view: render.View, user_id: int,
                  response: object) -> tuple[bool, Grade]:
    """Grade and record; (first answer?, grade). Raises QuizClosed."""
    g = await _grade(app, view, response)
    item = await dstore.get_item(services(app).db, delivery.id, view.pos)
    first = await answer_store.record_answer(services(app).db, delivery, item, user_id, response,
                                             g.score, g.max_score, g.verdict.value, services(app).now())
    return first, g


def typed_response(view: render.View, text: str) -> object | None:
    """A typed answer as the grader wants it: original letters, True/False, or the text itself."""
    return typed_answer.typed_response(view.question, view.order, text)


async def _located(app: Application, delivery_id: int, pos: int) -> tuple[dstore.Delivery, render.View] | None:
    try:
        delivery = await dstore.get_delivery(services(app).db, delivery_id)
    except NotFound:
        return None
    view = next((v for v in await push.views(app, delivery) if v.pos == pos), None)
    return (delivery, view) if view is not None else None


async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A tap on a daily quiz button: pick, toggle or submit."""
    query = update.callback_query
    u = await user_ctx(update, context)
    app = context.application
    press = cb.parse(query.data)
    found = await _located(app, press.delivery_id, press.pos) if press else None
    if press is None or found is None or not await _is_that_message(app, found[0], press.pos, query):
        await ack(query, t("daily_bad_button", u.lang))
        return
    delivery, view = found
    if delivery.private and u.id != delivery.chat_id:
        await ack(query, t("daily_bad_button", u.lang))
        return
    if not delivery.accepts_answers:
        await ack(query, t("daily_closed", u.lang))
        return
    db = services(context).db
    earlier = await answer_store.user_answer(db, delivery.id, view.pos, u.id)
    if earlier is not None:
        await ack(query, render.already_answered_toast(view, earlier, u.lang))
        return
    response = await _response_of(app, press, view, u)
    if response is None:
        await ack(query, t("daily_bad_button", u.lang))
        return
    if isinstance(response, _Toggled):
        await _show_draft(app, query, delivery, view, response.letters, u)
        return
    if delivery.private:
        await _answer_private(app, delivery, view, u, response, query=query)
    else:
        await _answer_group_tap(app, delivery, view, u, response, query)


class _Toggled:
    def __init__(self, letters: str):
        self.letters = letters


async def _response_of(app: Application, press: cb.Press, view: render.View, u: UserCtx) -> object | None:
    """The answer the press stands for, a _Toggled draft, or None if it does not fit the question."""
    kind, svc = view.question.kind, services(app)
    if press.action == "pick" and kind == Kind.truefalse and press.arg in ("t", "f"):
        return press.arg == "t"
    if press.action == "pick" and kind == Kind.single and press.arg not in (None, "t", "f"):
        return view.original_letter(int(press.arg))
    if press.action == "toggle" and kind == Kind.multi:
        letter = view.original_letter(int(press.arg))
        if letter is None:
            return None
        return _Toggled(await answer_store.toggle_draft(svc.db, view.delivery_id, view.pos, u.id, letter, svc.now()))
    if press.action == "submit" and kind == Kind.multi:
        return await answer_store.draft(svc.db, view.delivery_id, view.pos, u.id) or _Toggled("")
    return None


async def _is_that_message(app: Application, delivery: dstore.Delivery, pos: int, query) -> bool:
    """The press is on the item's message, or on an unrecorded copy of an item sent twice (a crash)."""
    item = await dstore.get_item(services(app).db, delivery.id, pos)
    msg = query.message
    if msg is None or msg.chat.id != delivery.chat_id:
        return False
    return msg.message_id == item.message_id or item.maybe_duplicated


async def _show_draft(app: Application, query, delivery: dstore.Delivery, view: render.View, letters: str,
                      u: UserCtx) -> None:
    shown = ", ".join(sorted(view.shown_letter(c) for c in letters))
    await ack(query, t("daily_selected", u.lang, a=shown) if letters else t("daily_selected_none", u.lang))
    if delivery.private:
        text = render.question_text(view, u.lang, u.script, private=True)
        await push.safe_edit(app, delivery.chat_id, query.message.message_id, text,
                             render.question_keyboard(view, u.lang, draft=letters))


async def _answer_group_tap(app: Application, delivery: dstore.Delivery, view: render.View, u: UserCtx,
                            response: object, query) -> None:
    try:
        first, g = await _record(app, delivery, view, u.id, response)
    except QuizClosed:
        await ack(query, t("daily_closed", u.lang))
        return
    if not first:
        earlier = await answer_store.user_answer(services(app).db, delivery.id, view.pos, u.id)
        await ack(query, render.already_answered_toast(view, earlier, u.lang))
        return
    if await _sealed(app, u.id, view):
        await ack(query, clip(t("daily_sealed", u.lang), MAX_TOAST), show_alert=True)
    else:
        await ack(query, render.toast(view, g.verdict.value, g.score, g.max_score, u.lang, u.script,
                                      g.expected), show_alert=True)
    counts.editor(app).touch(app, delivery.id, view.pos)


async def _answer_private(app: Application, delivery: dstore.Delivery, view: render.View, u: UserCtx,
                          response: object, *, query=None) -> None:
    """Record, show the feedback under the question, then the next question or the summary."""
    svc = services(app)
    async with push.chat_lock(app, delivery.chat_id):
        try:
            first, g = await _record(app, delivery, view, u.id, response)
        except QuizClosed:
            if query:
                await ack(query, t("daily_closed", u.lang))
            return
        if not first:
            earlier = await answer_store.user_answer(svc.db, delivery.id, view.pos, u.id)
            if query:
                await ack(query, render.already_answered_toast(view, earlier, u.lang))
            return
        sealed = await _sealed(app, u.id, view)
        if query:
            await ack(query, t("daily_sealed", u.lang) if sealed
                      else render.verdict_line(g.verdict.value, g.score, g.max_score, u.lang))
        item = await dstore.get_item(svc.db, delivery.id, view.pos)
        fb = t("daily_sealed", u.lang) if sealed else \
            render.feedback(view, response, g.verdict.value, g.score, g.max_score, u.lang, u.script, g.expected)
        answered_text = render.answered_text(view, u.lang, u.script, fb)
        if item.message_id is not None:  # None: answered on a copy sent before a crash, not yet resent
            await push.safe_edit(app, delivery.chat_id, item.message_id, answered_text)
        if query and query.message and query.message.message_id != item.message_id:  # the other copy
            await push.safe_edit(app, delivery.chat_id, query.message.message_id, answered_text)
        delivery = await dstore.get_delivery(svc.db, delivery.id)
        answered = await answer_store.user_answers(svc.db, delivery.id, u.id)
        if len(answered) < view.total:
            await push.send_unsent(app, delivery)
        else:
            try:
                await push.send(app, delivery.chat_id, await push.private_summary(app, delivery, u.lang))
            except push.ChatGone as e:
                await push.turn_off(app, delivery.chat_id, str(e))


async def group_reply(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A reply to a daily question in a group: a typed answer (fill-in questions, or letters)."""
    msg = update.effective_message
    app = context.application
    replied = msg.reply_to_message
    if replied is None or not replied.from_user or replied.from_user.id != context.bot.id:
        return
    hit = await dstore.item_by_message(services(context).db, msg.chat_id, replied.message_id)
    if hit is None:
        hit = await _unrecorded_copy(app, msg.chat_id, replied)
    if hit is None:
        return
    u = await user_ctx(update, context)
    delivery, item = hit
    found = await _located(app, delivery.id, item.pos)
    if found is None:
        return
    view = found[1]
    if not delivery.accepts_answers:
        await _tell_privately(app, u, t("daily_closed", u.lang))
        return
    response = typed_response(view, msg.text)
    if response is None:
        return
    try:
        first, g = await _record(app, delivery, view, u.id, response)
    except QuizClosed:
        return
    if not first:
        earlier = await answer_store.user_answer(services(app).db, delivery.id, view.pos, u.id)
        await _tell_privately(app, u, render.already_answered_toast(view, earlier, u.lang))
        return
    await _react(app, msg.chat_id, msg.message_id)
    title = await subs.chat_title(services(app).db, delivery.chat_id)
    fb = t("daily_sealed", u.lang) if await _sealed(app, u.id, view) else \
        render.feedback(view, response, g.verdict.value, g.score, g.max_score, u.lang, u.script, g.expected)
    await _tell_privately(app, u, t("daily_recorded_dm", u.lang, chat=title, n=view.pos + 1, fb=fb))
    counts.editor(app).touch(app, delivery.id, view.pos)


async def _unrecorded_copy(app: Application, chat_id: int, replied) -> tuple[dstore.Delivery, dstore.Item] | None:
    """The item whose copy this is, when the bot sent it but died before recording it (sent again
    since): an older message starting with that item's header line."""
    first_line = (replied.text or "").split("\n", 1)[0]
    lang, _script = await push.prefs(app, chat_id, False)
    db = services(app).db
    for delivery, item in await dstore.possibly_copied(db, chat_id, replied.message_id):
        if first_line == render.header(item.pos, len(await dstore.items(db, delivery.id)), lang):
            return delivery, item
    return None


async def _react(app: Application, chat_id: int, message_id: int) -> None:
    """A neutral ✍ on the member's reply: recorded, without saying whether it is right."""
    try:
        await app.bot.set_message_reaction(chat_id, message_id, "✍")
    except TelegramError as e:
        log.debug("no reaction in %s: %s", chat_id, e)


async def _tell_privately(app: Application, u: UserCtx, text: str) -> None:
    """Feedback to a member in their private chat; if they never started me, they see it at close."""
    try:
        await push.send(app, u.id, render.clip(text))
    except (push.ChatGone, TelegramError) as e:
        log.info("no private feedback for %s: %s", u.id, e)


async def private_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Typed text in a private chat: an answer to the daily question waiting for one, if any.

    Text belongs to the exam while the user has a running attempt, unless it replies to a daily
    question message.
    """
    msg = update.effective_message
    app = context.application
    db = services(context).db
    user_id = update.effective_user.id
    hit = None
    if msg.reply_to_message is not None:
        hit = await dstore.item_by_message(db, msg.chat_id, msg.reply_to_message.message_id)
    if hit is None:
        if await running_attempt(db, user_id) is not None:  # typed text is the exam's
            return
        hit = await dstore.waiting_item(db, msg.chat_id, user_id)
        if hit is None:  # nothing takes this text: say what does, rather than stay silent
            await msg.reply_text(t("idle_text_hint", (await user_ctx(update, context)).lang))
            return
    delivery, item = hit
    if not delivery.private or not delivery.accepts_answers:
        return
    found = await _located(app, delivery.id, item.pos)
    if found is None:
        return
    view = found[1]
    u = await user_ctx(update, context)
    response = typed_response(view, msg.text)
    if response is None:
        await msg.reply_text(t("daily_unreadable", u.lang, n=view.pos + 1))
        return
    await _answer_private(app, delivery, view, u, response)

