"""A player's vote in a round's quiz poll (a `poll_answer` update: no chat, the poll id finds the round).

A vote counts only from someone in the round's group: a known member counts at once; anyone else is
asked about once per round (getChatMember, the answer kept for the round in `_ASKED`), so a stranger
voting on every poll of a round costs one call, and nothing of theirs is scored or recorded."""

from __future__ import annotations

import logging

from telegram import Update

from bot.context import Ctx
from bot.membership import in_group
from bot.services import HasBotData, Slot
from proctor.live import answers

log = logging.getLogger(__name__)

# round id -> {voter who is not a known member: whether Telegram said they are in the group}
_ASKED: Slot[dict[int, dict[int, bool]]] = Slot("live_asked", dict)


def forget_round(app: HasBotData, round_id: int) -> None:
    """The round is over: its voters need not be remembered."""
    _ASKED.of(app).pop(round_id, None)


async def poll_answer(update: Update, context: Ctx) -> None:
    """Score and store the vote; Telegram shows the player whether it was right, the bot says nothing."""
    vote = update.poll_answer
    if vote is None or vote.user is None:  # an anonymous (channel) vote: no player to score
        return
    svc = context.services
    user_id, chosen = vote.user.id, list(vote.option_ids)
    outcome = await answers.answer(svc.db, vote.poll_id, user_id, chosen, svc.now())
    if isinstance(outcome, answers.Unknown):
        asked = _ASKED.of(context).setdefault(outcome.round_id, {})
        inside = asked.get(user_id)
        if inside is None:
            inside = await in_group(context, outcome.chat_id, user_id)
            if inside is not None:  # Telegram could not be asked: not counted now, asked again next time
                asked[user_id] = inside
        outcome = await answers.answer(svc.db, vote.poll_id, user_id, chosen, svc.now(), in_group=inside is True)
    match outcome:
        case answers.Recorded(round_id=round_id, points=points):
            log.debug("live round %s: user %s scored %s", round_id, user_id, points)
        case answers.Ignored() | answers.Unknown():
            pass
