"""Team page: the daily-quiz leaderboard by period, every member's rating and best exam scores per
paper, the same domain functions (and so the same numbers) as the chat's /leaderboard (the ratings:
every member, named or not, proctor/teams/rating_board.py). What it shows of a paper is
the read rule's (the lead's Lens, asked at each request): the mastery heatmap counts the papers whose
sections the team may read, and a hiring paper's board is for the configured admins and the teams
verified for it (any other answers the line /bankstats <paper> says)."""

from __future__ import annotations

from aiohttp import web

from bank.csv_safety import file_stem
from bank.errors import NotFound
from bank.paper_list import find_paper
from bank.paper_store import paper_titles
from desk import svg
from desk.web import Lead, Withheld, csv_response, ctx, lead_page, lens_of, render
from proctor.chats import chat_zone
from proctor.live.board import points_by_member as live_points
from proctor.teams import leaderboard as lb
from proctor.teams.charts import chart_data
from proctor.teams.mastery import daily_trend, topic_mastery
from proctor.teams.rating_board import team_board
from proctor.teams.reports import team_members

DEFAULT_PERIOD = "week"
EVERYONE = 1 << 40  # the CSV and "show everyone" list the whole team
SHOWN = 100  # rows on the page by default (a phone screen; streaks are computed for these only)


async def _daily(request: web.Request, lead: Lead, top: int = EVERYONE):
    """(team, period, board) for the request's team and period, its first `top` rows."""
    _, team = lead.access.scope(request.query.get("team"), allow_all=False)
    if team is None:  # allow_all=False: scope names a team or refuses
        raise web.HTTPBadRequest(text="team: which one")
    period = request.query.get("period", DEFAULT_PERIOD)
    if period not in lb.PERIODS:
        raise web.HTTPBadRequest(text="period: today, week, month or all")
    c = ctx(request)
    await c.bridge.check_roster(team.chat_id)  # members still in the group (consent.py)
    tz = await chat_zone(c.db, team.chat_id, c.default_zone)
    board = await lb.board(c.db, team.chat_id, lb.period_bounds(period, c.now(), tz), top=top)
    return team, period, board


async def _paper(request: web.Request, lead: Lead, key: str):
    """(team, paper, rows): best exams on the paper, by the team (or every candidate for "all").
    Raises Withheld for a paper the lead's Lens shows nothing of."""
    scope, team = lead.access.scope(request.query.get("team"))
    c = ctx(request)
    try:
        paper = await find_paper(c.db, key)
    except NotFound:
        raise web.HTTPNotFound(text="no such paper") from None
    if not (await lens_of(request, lead, scope)).of(paper.id).facts:
        raise Withheld(paper.title or paper.code)
    await c.bridge.check_roster(scope)
    rows = await lb.paper_board(c.db, paper.id, None if scope is None else [scope], invited=True)  # a lead
    return team, paper, rows


async def _idle_this_week(request: web.Request, chat_id: int, board: lb.Board,
                          members: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The team's `members` (team_members, read once by the caller) with no daily-quiz answer this week."""
    c = ctx(request)
    if board.period.name == "week" and len(board.top) == board.ranked:
        active = {r.user_id for r in board.top}
    else:  # who scored this week, without their streaks
        tz = await chat_zone(c.db, chat_id, c.default_zone)
        active = {r.user_id for r in await lb.full_ranking(c.db, chat_id, lb.period_bounds("week", c.now(), tz))}
    return [(uid, name) for uid, name in members if uid not in active]


@lead_page
async def team_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/team?team=&period= or &paper=."""
    papers = await paper_titles(ctx(request).db)
    if not lead.access.teams:  # a configured admin before the bot has met any team group
        return render(request, lead, "refused.html", {"message": lead.t("d_no_teams")})
    if key := request.query.get("paper"):
        team, paper, rows = await _paper(request, lead, key)
        return render(request, lead, "team_paper.html", {"team": team, "paper": paper.code,
                                                          "title": f"{paper.code} {paper.title}",
                                                          "rows": rows, "papers": papers})
    everyone = request.query.get("rows") == "all"
    team, period, board = await _daily(request, lead, EVERYONE if everyone else SHOWN)
    db = ctx(request).db
    seen_by = await lens_of(request, lead, team.chat_id)
    chart = await chart_data(db, seen_by, board.period, team.title)
    trend = await daily_trend(db, team.chat_id, board.period, [r.user_id for r in board.top])
    mastery = await topic_mastery(db, team.chat_id, board.period, seen_by)
    scored = {uid for uid, _ in mastery.cells}  # the heatmap: members with answers in the period
    members = await team_members(db, team.chat_id)
    heat_rows = [(uid, name) for uid, name in members if uid in scored]
    heat_rows = heat_rows if everyone else heat_rows[:SHOWN]
    return render(request, lead, "team.html", {"team": team, "period": period, "board": board,
                                                "periods": lb.PERIODS, "papers": papers,
                                                "more": board.ranked - len(board.top),
                                                "days_chart": svg.points_per_day(chart.days, lead.t("d_chart_days")),
                                                "papers_chart": svg.share_bars([(f"{code} · {name}", share, n) for name, share, n, code in chart.papers],
                                                                               lead.t("d_chart_papers")),
                                                "sparks": {r.user_id: svg.sparkline(trend[r.user_id], lead.t("d_col_trend"))
                                                           for r in board.top if r.user_id in trend},
                                                "mastery": mastery,
                                                "members": heat_rows,
                                                "heat": svg.heat_class,
                                                "live": await live_points(db, team.chat_id, board.period.start,
                                                                          board.period.end),
                                                "idle": await _idle_this_week(request, team.chat_id, board, members),
                                                "ratings": await team_board(db, team.chat_id, ctx(request).now())})


@lead_page
async def team_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/team.csv: a table on the team page, as CSV: the leaderboard (default), the paper's
    board (paper=), the topic mastery (table=mastery), who has not practised (table=idle) or the
    ratings (table=ratings)."""
    if key := request.query.get("paper"):
        team, paper, rows = await _paper(request, lead, key)
        where = file_stem(team.title) if team is not None else "all"
        return csv_response(f"paper-{file_stem(paper.title or paper.code, 'paper')}-{where}.csv",
                            ["rank", "user_id", "name", "score", "max_score", "seconds", "provisional"],
                            [[r.rank, r.user_id, r.name, r.score, r.max_score, round(r.seconds), int(r.provisional)]
                             for r in rows])
    team, period, board = await _daily(request, lead)
    table, db, name = request.query.get("table", "board"), ctx(request).db, f"{file_stem(team.title)}-{period}"
    if table == "mastery":
        mastery = await topic_mastery(db, team.chat_id, board.period, await lens_of(request, lead, team.chat_id))
        return csv_response(f"mastery-{name}.csv", ["user_id", "name",
                                                     *(t or lead.t("d_heat_no_topic") for t in mastery.topics)],
                            [[uid, who, *("" if (uid, t) not in mastery.cells else f"{mastery.cells[uid, t][0]:.3f}"
                                          for t in mastery.topics)]
                             for uid, who in await team_members(db, team.chat_id)])
    if table == "idle":
        return csv_response(f"idle-{file_stem(team.title)}.csv", ["user_id", "name"],
                            [list(r) for r in await _idle_this_week(request, team.chat_id, board,
                                                                    await team_members(db, team.chat_id))])
    if table == "ratings":
        rated = await team_board(db, team.chat_id, ctx(request).now())
        return csv_response(f"ratings-{file_stem(team.title)}.csv",
                            ["rank", "user_id", "name", "rating", "very_likely_low", "very_likely_high", "answers",
                             "provisional", "named_in_group"],
                            [[r.rank or "", r.user_id, r.name, r.shown.rating, r.shown.low, r.shown.high,
                              r.shown.answers, int(r.shown.provisional), int(r.listed)]
                             for r in (*rated.ranked, *rated.provisional)])
    if table != "board":
        raise web.HTTPBadRequest(text="table: board, mastery, idle or ratings")
    return csv_response(f"leaderboard-{name}.csv",
                        ["rank", "user_id", "name", "points", "max_points", "answers", "correct", "accuracy",
                         "streak"],
                        [[r.rank, r.user_id, r.name, r.points, r.max_points, r.answers, r.correct,
                          f"{r.accuracy:.3f}", r.streak] for r in board.top])
