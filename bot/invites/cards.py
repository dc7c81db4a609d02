"""The outbox's senders for invites: the inviting lead's result card (again after a regrade changed
its score) and the team group's note."""

from __future__ import annotations

from telegram.ext import Application

from bot.exam.render import clip
from bot.invites import render
from bot.leads.access import lead_viewer
from bot.pacing import Turn
from bot.services import services
from bot.userctx import prefs_ctx
from bot.voice import group_voice
from proctor.exams import service as attempts
from proctor.exams.model import compute_result
from proctor.invite_cards import load_lead_card
from proctor.outbox import Outgoing


async def send_card(app: Application, message: Outgoing, turn: Turn | None) -> None:
    """Raises NotFound (the attempt or invite is gone) and TelegramError (the outbox retries)."""
    svc, p = services(app), message.payload
    viewer = lead_viewer(app, message.chat_id)
    card = await load_lead_card(svc.db, int(p.get("attempt", message.ref)), p["invite"], viewer)  # one trip
    sheet, inv, lead = card.sheet, card.invite, prefs_ctx(app, message.chat_id, card.lead)
    text, kb = render.result_card(inv, sheet.attempt, compute_result(sheet.items, sheet.answers),
                                  card.candidate, lead.lang, card.signals, vis=card.vis, sat_before=card.sat_before,
                                  ability=card.ability)
    if "question" in p:  # a regrade changed the score: the card as it is now, and what it was
        ref = next((i.ref for i in sheet.items if i.question_id == p["question"]), None)
        text = clip(render.regraded(card.vis, ref, p["old"], p["new"], lead.lang) + text)
    await app.bot.send_message(message.chat_id, text, reply_markup=kb, rate_limit_args=turn)


async def send_note(app: Application, message: Outgoing, turn: Turn | None) -> None:
    svc = services(app)
    a = await attempts.get_attempt(svc.db, int(message.ref))
    there = await group_voice(app, message.chat_id)  # posted in the team group: the group's voice
    text = render.team_note(a, there.lang)
    await app.bot.send_message(message.chat_id, text, rate_limit_args=turn)
