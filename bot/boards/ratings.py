"""Rating boards and the choice to be named on them: /leaderboard rating [topic] and /rating public|private
(docs/ratings.md, "Who sees which rating")."""

from __future__ import annotations

from telegram import Update
from telegram.error import Forbidden

from bot.boards import rating_render as render
from bot.context import Ctx
from bot.i18n import t
from bot.leads.access import GROUPS, seen
from bot.membership import check_roster
from bot.userctx import UserCtx
from proctor.ratings.listing import is_listed, set_listed
from proctor.teams.rating_board import team_board
from proctor.teams.roster import Standing, teams_of


async def rating(update: Update, context: Ctx) -> None:
    """/rating public|private: whether the person's groups' rating boards name them."""
    u = await seen(update, context)
    svc = context.services
    args = [a.lower() for a in context.args or []]
    if args not in (["public"], ["private"]):
        state = t("rt_state_public" if await is_listed(svc.db, u.id) else "rt_state_private", u.lang)
        await context.message.reply_text(t("rt_usage", u.lang, state=state))
        return
    public = args == ["public"]
    await set_listed(svc.db, u.id, public, svc.now())
    await context.message.reply_text(t("rt_set_public" if public else "rt_set_private", u.lang))


async def board(update: Update, context: Ctx, u: UserCtx, topic: str) -> None:
    """/leaderboard rating [topic]: in a group, its board naming only the members who chose it (and a
    member who is not named gets their own place privately); in private, the person's place on each
    of their teams' boards."""
    svc = context.services
    chat = context.chat
    if chat.type not in GROUPS:
        await context.message.reply_text(await _places(context, u, topic))
        return
    await check_roster(context, chat.id)  # members still in the group (at most every few minutes each)
    whole = await team_board(svc.db, chat.id, svc.now(), topic)
    if topic and not whole.ranked and not whole.provisional:
        await context.message.reply_text(t("rt_board_no_topic", u.lang, topic=topic))
        return
    named = whole.named()
    unnamed = len(whole.ranked) + len(whole.provisional) - len(named.ranked) - len(named.provisional)
    await context.message.reply_text(render.board_text(named, chat.title or "", topic, unnamed, u.lang))
    mine = whole.place(u.id)
    if mine is not None and not mine.listed:  # their own place, in their private chat
        own = u.own()
        try:
            await context.bot.send_message(u.id, render.places_text([(chat.title or "", whole)], u.id, topic,
                                                                    own.lang))
        except Forbidden:  # no private chat with the bot yet: the board's last line says how to ask
            pass


async def _places(context: Ctx, u: UserCtx, topic: str) -> str:
    """The person's place on the board of each team whose roster they joined."""
    svc = context.services
    places = []
    for chat_id, title, standing in await teams_of(svc.db, u.id):
        if standing is Standing.joined:
            await check_roster(context, chat_id)
            places.append((title, await team_board(svc.db, chat_id, svc.now(), topic)))
    return render.places_text(places, u.id, topic, u.lang)
