"""Answers: button taps (groups and private chats) and typed answers (replies, or private text).

In a group each member's first answer counts and the feedback is private: a toast for a tap, a
private message for a typed reply. In a private chat the question shows its feedback at once and
the next question follows, then a summary with the streak.
"""

from __future__ import annotations

import logging
from contextlib import nullcontext

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import Application

from bank.kinds import Kind
from bank.question_ref import question_ref
from bot.context import Ctx
from bot.core import ack
from bot.daily import callbacks as cb
from bot.daily import counts, push, render
from bot.daily.locks import chat_lock
from bot.i18n import t
from bot.services import services
from bot.text_limits import MAX_TOAST, clip
from bot.userctx import UserCtx, user_ctx
from proctor.daily import delivery as dstore
from proctor.daily import private_next, steps

log = logging.getLogger(__name__)


def view_of(spot: steps.Spot) -> render.View:
    return render.View(spot.question, spot.delivery.id, spot.item.pos, spot.total, spot.item.option_order)


async def button(update: Update, context: Ctx) -> None:
    """A tap on a daily quiz button: pick, toggle or submit."""
    query = context.query
    app = context.application
    press = cb.parse(query.data)
    msg = query.message
    if press is None or msg is None:
        await ack(query, t("daily_bad_button", (await user_ctx(update, context)).lang))
        return
    svc = services(app)
    private = msg.chat.type == ChatType.PRIVATE
    # a private quiz records, edits and sends the next question under its chat's lock (one at a time)
    async with chat_lock(app, msg.chat.id) if private else nullcontext():
        out = await steps.answer_step(svc.db, press.delivery_id, press.pos, context.user.id, press.action,
                                      press.arg, svc.now(), message=(msg.chat.id, msg.message_id))
        await _render_press(app, query, await user_ctx(update, context), out)


async def _render_press(app: Application, query, u: UserCtx, out: steps.Outcome) -> None:
    """Say what the press did: the handler decides nothing here."""
    match out:
        case steps.Refused() | steps.NotYours():
            await ack(query, t("daily_bad_button", u.lang))
        case steps.Closed():
            await ack(query, t("daily_closed", u.lang))
        case steps.Answered(spot=spot, earlier=earlier):
            await ack(query, render.already_answered_toast(view_of(spot), earlier, u.lang))
        case steps.Toggled(spot=spot, letters=letters):
            await _show_draft(app, query, spot.delivery, view_of(spot), letters, u)
        case steps.Recorded(spot=spot) if spot.delivery.private:
            await _after_private(app, out, u, query=query)
        case steps.Recorded(spot=spot, grade=g, sealed=sealed):
            view = view_of(spot)
            if sealed:
                await ack(query, clip(t("daily_sealed", u.lang), MAX_TOAST), show_alert=True)
            else:
                await ack(query, render.toast(view, g.verdict, g.score, g.max_score, u.lang, u.script,
                                              g.expected), show_alert=True)
            counts.editor(app).touch(app, spot.delivery.id, spot.item.pos)


async def _show_draft(app: Application, query, delivery: dstore.Delivery, view: render.View, letters: str,
                      u: UserCtx) -> None:
    shown = render.draft_text(view, letters, u.lang)
    key = "daily_match_selected" if view.question.kind == Kind.matching else "daily_selected"
    await ack(query, clip(t(key, u.lang, a=shown), MAX_TOAST) if letters else t("daily_selected_none", u.lang))
    if delivery.private:
        text = render.question_text(view, u.lang, u.script, private=True)
        await push.safe_edit(app, delivery.chat_id, query.message.message_id, text,
                             render.question_keyboard(view, u.lang, draft=letters))


async def _after_private(app: Application, out: steps.Recorded, u: UserCtx, *, query=None) -> None:
    """Show the feedback under the question, then the next question or the summary. Call under the lock."""
    delivery, item, g, view = out.spot.delivery, out.spot.item, out.grade, view_of(out.spot)
    if query:
        await ack(query, t("daily_sealed", u.lang) if out.sealed
                  else render.verdict_line(g.verdict, g.score, g.max_score, u.lang))
    fb = t("daily_sealed", u.lang) if out.sealed else \
        render.feedback(view, out.response, g.verdict, g.score, g.max_score, u.lang, u.script, g.expected)
    answered_text = render.answered_text(view, u.lang, u.script, fb)
    if item.message_id is not None:  # None: answered on a copy sent before a crash, not yet resent
        await push.safe_edit(app, delivery.chat_id, item.message_id, answered_text)
    if query and query.message and query.message.message_id != item.message_id:  # the other copy
        await push.safe_edit(app, delivery.chat_id, query.message.message_id, answered_text)
    match out.then:  # decided (and a question counted as sending) in the answer's transaction
        case private_next.Ask() as ask:
            await push.send_asked(app, delivery, ask)
        case private_next.Summary() as summary:
            try:
                await push.send(app, delivery.chat_id, push.summary_text(app, summary, u.lang))
            except push.ChatGone as e:
                await push.turn_off(app, delivery.chat_id, str(e))


async def group_reply(update: Update, context: Ctx) -> None:
    """A reply to a daily question in a group: a typed answer (fill-in questions, or letters)."""
    msg = context.message
    app = context.application
    replied = msg.reply_to_message
    if replied is None or not replied.from_user or replied.from_user.id != context.bot.id:
        return
    svc = services(app)
    # the item found and the step in one trip
    found = await steps.reply_step(svc.db, msg.chat_id, replied.message_id, context.user.id, msg.text or "",
                                   svc.now())
    if found is None:  # not a recorded question: maybe a copy sent twice after a crash
        hit = await _unrecorded_copy(app, msg.chat_id, replied)
        if hit is None:
            return
        delivery, item = hit
        out = await steps.answer_step(svc.db, delivery.id, item.pos, context.user.id, steps.Action.typed, msg.text,
                                      svc.now())
    else:
        delivery, item, out = found
    u = (await user_ctx(update, context)).own()  # everything below goes to the member's private chat
    match out:
        case steps.Closed():
            await _tell_privately(app, u, t("daily_closed", u.lang))
        case steps.Answered(spot=spot, earlier=earlier):
            await _tell_privately(app, u, render.already_answered_toast(view_of(spot), earlier, u.lang))
        case steps.Refused(reason=steps.Refusal.unreadable, spot=spot):
            await _tell_privately(app, u, render.unreadable(spot.question if spot else None, u.lang))
        case steps.Recorded(spot=spot, response=response, grade=g, sealed=sealed):
            view = view_of(spot)
            await _react(app, msg.chat_id, msg.message_id)
            fb = t("daily_sealed", u.lang) if sealed else \
                render.feedback(view, response, g.verdict, g.score, g.max_score, u.lang, u.script, g.expected)
            await _tell_privately(app, u, t("daily_recorded_dm", u.lang, chat=spot.chat_title, question=view.question.ref,
                                            fb=fb))
            counts.editor(app).touch(app, delivery.id, view.pos)


async def _unrecorded_copy(app: Application, chat_id: int, replied) -> tuple[dstore.Delivery, dstore.Item] | None:
    """The item whose copy this is, when the bot sent it but died before recording it (sent again
    since): an older message starting with that item's header line."""
    first_line = (replied.text or "").split("\n", 1)[0]
    lang = (await push.prefs(app, chat_id, False)).lang
    db = services(app).db
    for delivery, item in await dstore.possibly_copied(db, chat_id, replied.message_id):
        total = len(await dstore.items(db, delivery.id))
        if first_line == render.header(item.pos, total, await question_ref(db, item.question_id), lang):
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


async def private_text(update: Update, context: Ctx, out: steps.Outcome | steps.NotTaken) -> None:
    """Say what a private text did to the daily question waiting for an answer (steps.typed_in, run
    by bot.private_text when the exam does not take the text, under the chat's lock)."""
    msg = context.message
    match out:
        case steps.Recorded():  # still under the chat's lock: the next question, or the summary
            await _after_private(context.application, out, await user_ctx(update, context))
        case steps.NotTaken(reason=steps.Untaken.idle):  # nothing takes this text: say what does, rather than stay silent
            await msg.reply_text(t("idle_text_hint", (await user_ctx(update, context)).lang))
        case steps.Refused(reason=steps.Refusal.unreadable, spot=spot):
            await msg.reply_text(render.unreadable(spot.question if spot else None,
                                                   (await user_ctx(update, context)).lang))
