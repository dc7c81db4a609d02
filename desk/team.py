"""Team page: the daily-quiz leaderboard by period and best exam scores per paper, the same
domain functions (and so the same numbers) as the chat's /leaderboard."""

from __future__ import annotations

from aiohttp import web

from bank.errors import NotFound
from bank.item_stats import find_paper
from bank.paper_store import list_papers
from desk import svg
from desk.web import Lead, csv_response, ctx, lead_page, render
from proctor.chats import chat_zone
from proctor.teams import leaderboard as lb
from proctor.teams.charts import chart_data
from proctor.teams.mastery import daily_trend, topic_mastery
from proctor.teams.reports import team_members

DEFAULT_PERIOD = "week"
EVERYONE = 1 << 40  # the desk lists the whole team, not the chat's top ten


async def _daily(request: web.Request, lead: Lead):
    """(team, period, board) for the request's team and period."""
    _, team = lead.access.scope(request.query.get("team"), allow_all=False)
    if team is None:  # allow_all=False: scope names a team or refuses
        raise web.HTTPBadRequest(text="team: which one")
    period = request.query.get("period", DEFAULT_PERIOD)
    if period not in lb.PERIODS:
        raise web.HTTPBadRequest(text="period: today, week, month or all")
    c = ctx(request)
    tz = await chat_zone(c.db, team.chat_id, c.default_zone)
    board = await lb.board(c.db, team.chat_id, lb.period_bounds(period, c.now(), tz), top=EVERYONE)
    return team, period, board


async def _paper(request: web.Request, lead: Lead, key: str):
    """(team, title, rows): best exams on the paper, by the team (or every candidate for "all")."""
    scope, team = lead.access.scope(request.query.get("team"))
    c = ctx(request)
    try:
        paper_id, slug, title = await find_paper(c.db, key)
    except NotFound:
        raise web.HTTPNotFound(text="no such paper") from None
    rows = await lb.paper_board(c.db, paper_id, None if scope is None else [scope])
    return team, title or slug, rows


async def _idle_this_week(request: web.Request, chat_id: int, board: lb.Board) -> list[tuple[int, str]]:
    """The team's members with no daily-quiz answer this week."""
    c = ctx(request)
    if board.period.name != "week":
        tz = await chat_zone(c.db, chat_id, c.default_zone)
        board = await lb.board(c.db, chat_id, lb.period_bounds("week", c.now(), tz), top=EVERYONE)
    active = {r.user_id for r in board.top}
    return [(uid, name) for uid, name in await team_members(c.db, chat_id) if uid not in active]


@lead_page
async def team_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/team?team=&period= or &paper=."""
    papers = [(p.slug, p.title or p.slug) for p in await list_papers(ctx(request).db)]
    if not lead.access.teams:  # a configured admin before the bot has met any team group
        return render(request, lead, "refused.html", {"message": lead.t("d_no_teams")})
    if key := request.query.get("paper"):
        team, title, rows = await _paper(request, lead, key)
        return render(request, lead, "team_paper.html", {"team": team, "paper": key, "title": title,
                                                          "rows": rows, "papers": papers})
    team, period, board = await _daily(request, lead)
    db = ctx(request).db
    chart = await chart_data(db, team.chat_id, board.period, team.title)
    trend = await daily_trend(db, team.chat_id, board.period)
    return render(request, lead, "team.html", {"team": team, "period": period, "board": board,
                                                "periods": lb.PERIODS, "papers": papers,
                                                "days_chart": svg.points_per_day(chart.days, lead.t("d_chart_days")),
                                                "papers_chart": svg.share_bars(chart.papers, lead.t("d_chart_papers")),
                                                "sparks": {uid: svg.sparkline(days, lead.t("d_col_trend"))
                                                           for uid, days in trend.items()},
                                                "mastery": await topic_mastery(db, team.chat_id, board.period),
                                                "members": await team_members(db, team.chat_id),
                                                "heat": svg.heat_class,
                                                "idle": await _idle_this_week(request, team.chat_id, board)})


@lead_page
async def team_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/team.csv: the table on the team page, as CSV."""
    if key := request.query.get("paper"):
        _, _, rows = await _paper(request, lead, key)
        return csv_response(f"paper-{key}.csv", ["rank", "user_id", "name", "score", "max_score", "seconds",
                                                 "provisional"],
                            [[r.rank, r.user_id, r.name, r.score, r.max_score, round(r.seconds), int(r.provisional)]
                             for r in rows])
    team, period, board = await _daily(request, lead)
    return csv_response(f"leaderboard-{abs(team.chat_id)}-{period}.csv",
                        ["rank", "user_id", "name", "points", "max_points", "answers", "correct", "accuracy",
                         "streak"],
                        [[r.rank, r.user_id, r.name, r.points, r.max_points, r.answers, r.correct,
                          f"{r.accuracy:.3f}", r.streak] for r in board.top])
