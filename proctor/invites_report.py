"""The hiring view of /report (`/report invites`): one CSV row per invite, safe for spreadsheets."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from bank.csv_safety import safe_cell
from proctor import hiring
from proctor.exams import integrity
from proctor.integrity.signals import summary
from proctor.invites import Invite
from proctor.storage.db import Database


async def hiring_csv(db: Database, scope: int | None, now: float) -> tuple[bytes, int]:
    """The hiring view of /report: one row per invite (newest first) with its status, times (UTC),
    scores section by section and integrity signals (`similar:1 fast:3`). Text cells are made safe
    for spreadsheets."""
    def when(ts: float | None) -> str:
        return "" if ts is None else datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M:%S")

    def num(x: float | None) -> str:
        return "" if x is None else f"{round(x, 2):g}"

    where, params = ("WHERE i.team_chat_id=?", [scope]) if scope is not None else ("", [])
    # a hiring paper's sections only for the teams verified for it (proctor.hiring): an oracle on its keys
    shown, shown_params = (hiring.open_sql("?", "i.paper_id"), [scope]) if scope is not None else ("1", [])
    rows = await db.fetchall(
        f"""SELECT i.*, p.title AS paper, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS candidate,
                   u.username, a.score, a.max_score, a.finish_reason,
                   (SELECT COUNT(*) FROM answers x WHERE x.attempt_id = a.id AND x.final = 0) AS pending,
                   CASE WHEN {shown} THEN (SELECT group_concat(sec, '; ') FROM (
                      SELECT t.section || ' ' || ROUND(COALESCE(SUM(x.score), 0), 2) || '/' || SUM(t.points) AS sec
                      FROM attempt_items t LEFT JOIN answers x ON x.attempt_id = t.attempt_id AND x.pos = t.pos
                      WHERE t.attempt_id = a.id GROUP BY t.section ORDER BY MIN(t.pos))) END AS sections
            FROM invites i JOIN papers p ON p.id = i.paper_id LEFT JOIN users u ON u.id = i.candidate_id
            LEFT JOIN attempts a ON a.id = i.attempt_id {where}
            ORDER BY i.created_at DESC, i.id DESC""", [*shown_params, *params])
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["invite", "paper", "status", "candidate", "username", "created_at", "closes_at", "claimed_at",
                "started_at", "finished_at", "finish_reason", "extra_min", "attempts_used", "score", "max_score",
                "sections", "awaiting_review", "signals"])
    signals = await integrity.counts(db, [r["attempt_id"] for r in rows if r["attempt_id"] is not None])
    for r in rows:
        inv = Invite.from_row(r)
        w.writerow([inv.id, safe_cell(r["paper"]), inv.status_at(now).value, safe_cell(r["candidate"] or ""),
                    safe_cell(r["username"] or ""), when(r["created_at"]), when(r["closes_at"]),
                    when(r["claimed_at"]), when(r["started_at"]), when(r["finished_at"]), r["finish_reason"] or "",
                    inv.extra_min, inv.attempts_used, num(r["score"]), num(r["max_score"]),
                    safe_cell(r["sections"] or ""), r["pending"] or 0,
                    summary(signals.get(r["attempt_id"], {}))])
    return out.getvalue().encode("utf-8-sig"), len(rows)
