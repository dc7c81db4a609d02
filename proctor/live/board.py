"""Live-round points on the group's boards: /leaderboard live, the desk's team page, /report live."""

from __future__ import annotations

from proctor.live import scoring
from proctor.storage.db import Database


def source(start: float | None, end: float | None, chat_param: str = ":chat") -> tuple[str, dict[str, object]]:
    """(SELECT, parameters): the chat's live answers in [start, end) as rows (user_id, score,
    max_score, answers, correct, last_at), the shape proctor/teams/leaderboard.py ranks."""
    sql = (f"SELECT user_id, points AS score, {scoring.FULL} AS max_score, 1 AS answers, "
           f"CASE WHEN fraction >= 1 THEN 1 ELSE 0 END AS correct, received_at AS last_at FROM live_answers "
           f"WHERE chat_id = {chat_param} "
           "AND received_at >= :live_lo AND received_at < :live_hi")
    return sql, {"live_lo": start if start is not None else float("-inf"),
                 "live_hi": end if end is not None else float("inf")}


async def points_by_member(db: Database, chat_id: int, start: float | None, end: float | None) -> dict[int, int]:
    """Each member's live points in the period (the desk's team page column)."""
    sql, values = source(start, end)
    rows = await db.fetchall(f"SELECT user_id, SUM(score) FROM ({sql}) live GROUP BY user_id", {"chat": chat_id, **values})
    return {r[0]: int(r[1]) for r in rows}


async def podiums(db: Database, chat_id: int, start: float | None, end: float | None,
                  places: int = 3) -> list[tuple[int, float, list[tuple[str, int]]]]:
    """The group's rounds that ended in the period, newest first: (round id, ended at, the top
    `places` who scored as (name, points): no medal for 0 points, as on the round's own podium)."""
    rounds = await db.fetchall(
        "SELECT id, ended_at FROM live_rounds WHERE chat_id=? AND ended_at IS NOT NULL AND ended_at >= ? "
        "AND ended_at < ? ORDER BY id DESC",
        (chat_id, start if start is not None else float("-inf"), end if end is not None else float("inf")))
    out = []
    for r in rounds:
        top = await db.fetchall(
            """SELECT COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name, SUM(a.points) AS points
               FROM live_answers a JOIN users u ON u.id = a.user_id WHERE a.round_id=?
               GROUP BY a.user_id, u.id HAVING SUM(a.points) > 0 ORDER BY points DESC, MAX(a.received_at) ASC, a.user_id LIMIT ?""",
            (r["id"], places))
        out.append((r["id"], r["ended_at"], [(t["name"], int(t["points"])) for t in top]))
    return out
