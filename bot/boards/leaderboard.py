"""/leaderboard: a group's daily-quiz ranking, your place in each team, best exam scores by paper; by
rating: bot/boards/ratings.py."""

from __future__ import annotations

from telegram import Update

from bank.errors import NotFound
from bank.paper_list import find_paper
from bot.boards import ratings, render
from bot.context import Ctx
from bot.i18n import t
from bot.leads.access import GROUPS, seen
from bot.membership import check_roster
from bot.paper_refs import unknown_paper
from proctor.chats import chat_zone
from proctor.teams import leaderboard as lb
from proctor.teams.roster import Standing, teams_of

DEFAULT_PERIOD = "week"


async def leaderboard(update: Update, context: Ctx) -> None:
    """Rank the group, or show the caller's place in each of their teams."""
    u = await seen(update, context)
    svc = context.services
    chat = context.chat
    args = [a.lower() for a in (context.args or [])]
    if args and args[0] == "paper":
        await _paper(update, context, u, " ".join((context.args or [])[1:]).strip())
        return
    if args and args[0] == "rating":
        await ratings.board(update, context, u, " ".join((context.args or [])[1:]).strip())
        return
    points = lb.Points.live if args and args[0] == lb.Points.live else lb.Points.daily
    if points == lb.Points.live:
        args = args[1:]
    period = args[0] if args else DEFAULT_PERIOD
    if period not in lb.PERIODS or len(args) > 1 or (points == lb.Points.live and chat.type not in GROUPS):
        await context.message.reply_text(t("l_lb_usage", u.lang))  # live boards are a group's own
        return
    if chat.type in GROUPS:
        tz = await chat_zone(svc.db, chat.id, svc.settings.timezone)
        board = await lb.board(svc.db, chat.id, lb.period_bounds(period, svc.now(), tz), me=u.id, points=points,
                               held=True)
        text = (render.live_board_text(board, chat.title or "", u.lang) if points == lb.Points.live
                else render.board_text(board, chat.title or "", u.lang, tz))
        await context.message.reply_text(text)
        return
    boards = []
    for chat_id, title, _ in await lb.my_groups(svc.db, u.id):
        tz = await chat_zone(svc.db, chat_id, svc.settings.timezone)
        boards.append((title, await lb.board(svc.db, chat_id, lb.period_bounds(period, svc.now(), tz),
                                             me=u.id, top=0)))
    await context.message.reply_text(render.positions_text(boards, period, u.lang))


async def _paper(update: Update, context: Ctx, u, key: str) -> None:
    """Best exam scores on one paper: the group's roster, or in private the rosters the caller is on."""
    svc = context.services
    if not key:
        await context.message.reply_text(t("l_lb_usage", u.lang))
        return
    try:
        paper = await find_paper(svc.db, key)
    except NotFound as e:
        await context.message.reply_text(unknown_paper(e, key, u.lang))
        return
    chat = context.chat
    if chat.type in GROUPS:
        scope = [chat.id]
    elif svc.is_admin(u.id):
        scope = None
    else:
        scope = [g[0] for g in await teams_of(svc.db, u.id) if g[2] is Standing.joined]
    for team in scope or ():
        await check_roster(context, team)  # members still in the group (at most every few minutes each)
    # a team's invited candidates are for its leads (the desk, /invites, /report invites): a board in a
    # group is read by all of it and ranks its roster only (whoever asks: a lead is on it if added), and
    # a member's own in private holds the rosters they are on, and their own row
    also = None if chat.type in GROUPS else u.id
    rows = await lb.paper_board(svc.db, paper.id, scope, also=also, invited=False)
    await context.message.reply_text(render.paper_board_text(rows, paper.title or paper.code, u.lang, me=u.id))
