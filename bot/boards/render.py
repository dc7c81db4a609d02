"""Pure rendering of /leaderboard: a group's board (daily-quiz or live points), a user's place in each
of their teams, and the best exam scores on a paper."""

from __future__ import annotations

from datetime import tzinfo

from bot.i18n import t
from bot.leads.render import duration, num, pct, period_name, pts
from bot.text_limits import MAX_TEXT, clip
from proctor.local_time import moment
from proctor.teams.leaderboard import Board, ExamRow, Row


def _row_fields(r: Row, lang: str) -> dict:
    return {"rank": r.rank, "name": r.name or str(r.user_id), "points": pts(r.points, lang),
            "acc": pct(r.accuracy), "streak": r.streak}


def board_text(b: Board, title: str, lang: str, tz: tzinfo) -> str:
    lines = [t("l_lb_title", lang, title=title, period=period_name(b.period.name, lang)),
             t("l_lb_rule", lang), ""]
    if b.held_until is not None:  # its answers would tell who was right before its keys do
        lines[2:2] = [t("l_lb_held", lang, at=moment(b.held_until, tz))]
    if not b.top:
        lines.append(t("l_lb_empty", lang))
    lines += [t("l_lb_row", lang, **_row_fields(r, lang)) for r in b.top]
    lines.append("")
    if b.me is None:
        lines.append(t("l_lb_you_none", lang))
    else:
        lines.append(t("l_lb_you", lang, n=b.ranked, **_row_fields(b.me, lang)))
    return clip("\n".join(lines).rstrip(), MAX_TEXT)


def live_board_text(b: Board, title: str, lang: str) -> str:
    """A group's live-round points over a period (/leaderboard live)."""
    lines = [t("l_lb_title", lang, title=title, period=period_name(b.period.name, lang)), t("lv_lb_rule", lang), ""]
    if not b.top:
        lines.append(t("lv_lb_empty", lang))
    lines += [t("lv_lb_row", lang, rank=r.rank, name=r.name or str(r.user_id), points=num(r.points),
                right=r.correct, answers=r.answers) for r in b.top]
    lines.append("")
    lines.append(t("l_lb_you_none", lang) if b.me is None else
                 t("lv_lb_you", lang, rank=b.me.rank, n=b.ranked, points=num(b.me.points)))
    return clip("\n".join(lines).rstrip(), MAX_TEXT)


def positions_text(boards: list[tuple[str, Board]], period: str, lang: str) -> str:
    """A user's position in each of their teams (private chat)."""
    if not boards:
        return t("l_lb_no_groups", lang)
    lines = [t("l_lb_private_head", lang, period=period_name(period, lang))]
    for title, b in boards:
        if b.me is None:
            lines.append(t("l_lb_private_none", lang, title=title))
        else:
            lines.append(t("l_lb_private_row", lang, title=title, n=b.ranked, **_row_fields(b.me, lang)))
    return clip("\n".join(lines), MAX_TEXT)


def paper_board_text(rows: list[ExamRow], paper: str, lang: str, top: int = 10,
                     me: int | None = None) -> str:
    lines = [t("l_lb_paper_title", lang, paper=paper), ""]
    if not rows:
        lines.append(t("l_lb_paper_empty", lang))
    shown = [r for r in rows if r.rank <= top or r.user_id == me]
    for r in shown:
        if r.rank > top:
            lines.append("…")
        lines.append(t("l_lb_paper_row", lang, rank=r.rank, name=r.name or str(r.user_id), score=num(r.score),
                       max=num(r.max_score), time=duration(r.seconds),
                       prov=t("l_provisional", lang) if r.provisional else ""))
    return clip("\n".join(lines), MAX_TEXT)
