"""A player's vote in a round's quiz poll (a `poll_answer` update: no chat, the poll id finds the round)."""

from __future__ import annotations

import logging

from telegram import Update

from bot.context import Ctx
from proctor.live import answers

log = logging.getLogger(__name__)


async def poll_answer(update: Update, context: Ctx) -> None:
    """Score and store the vote; Telegram shows the player whether it was right, the bot says nothing."""
    vote = update.poll_answer
    if vote is None or vote.user is None:  # an anonymous (channel) vote: no player to score
        return
    svc = context.services
    outcome = await answers.answer(svc.db, vote.poll_id, vote.user.id, list(vote.option_ids), svc.now())
    match outcome:
        case answers.Recorded(round_id=round_id, points=points):
            log.debug("live round %s: user %s scored %s", round_id, vote.user.id, points)
        case answers.Ignored():
            pass
