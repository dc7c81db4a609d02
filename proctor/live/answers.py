"""A player's answer to a round's poll: scored and stored in one transaction; the standings and the
podium read from what is stored.

Telegram sends a poll's answers as `poll_answer` updates with no chat: the poll id finds the round
(live_items.poll_id). Telegram accepts votes only while the poll is open, so every answer to a poll
of ours counts, also one the bot receives after a restart; its points use the time the bot received
it (at most the poll's time: 500 for a right answer at worst).

Only the group's players count: a known member (recorded in the group, `chat_members`, or on its
roster), or one Telegram says is in the group now (the caller asks getChatMember once per voter and
round and answers again with `in_group`). Anyone else's vote is not scored and records nothing: a vote
makes nobody a member."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from proctor.chats import note_member_in
from proctor.live import rated, scoring
from proctor.live.model import ITEM_COLUMNS, item_of
from proctor.live.states import RoundStatus
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Recorded:
    """The answer counted."""

    round_id: int
    points: int
    share: float


@dataclass(frozen=True)
class Ignored:
    """Not counted: not a poll of a round, a retracted vote, a second answer, a round already over and
    its podium posted, or a voter who is not in the group."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """The voter is not a known member of the round's group: ask Telegram whether they are in it, then
    answer again with `in_group`."""

    round_id: int
    chat_id: int


Outcome = Recorded | Ignored | Unknown

# a known member of the group: recorded there (who wrote or answered in it) or on its roster
_KNOWN = """EXISTS (SELECT 1 FROM chat_members WHERE chat_id = :chat AND user_id = :user)
            OR EXISTS (SELECT 1 FROM team_roster WHERE chat_id = :chat AND user_id = :user)"""


def _run(conn: sqlite3.Connection, round_id: int, pos: int, user_id: int) -> int:
    """How many right answers in a row `user_id` gave just before question `pos`."""
    rows = conn.execute("SELECT pos, fraction FROM live_answers WHERE round_id=? AND user_id=? AND pos<? "
                        "ORDER BY pos DESC", (round_id, user_id, pos)).fetchall()
    run, expected = 0, pos - 1
    for r in rows:
        if r["pos"] != expected or r["fraction"] < 1:
            break
        run, expected = run + 1, expected - 1
    return run


def answer_on(conn: sqlite3.Connection, poll_id: str, user_id: int, option_ids: list[int], now: float,
              in_group: bool | None = None) -> Outcome:
    """`answer` on the database thread, inside its transaction."""
    row = conn.execute(
        f"SELECT {', '.join('i.' + c.strip() for c in ITEM_COLUMNS.split(','))}, r.chat_id, r.seconds, "
        "r.status AS round_status, r.podium_posted, length(i.option_order) AS n_options "
        "FROM live_items i JOIN live_rounds r ON r.id = i.round_id WHERE i.poll_id=?", (poll_id,)).fetchone()
    if row is None or not option_ids:
        return Ignored()
    if row["podium_posted"] or RoundStatus(row["round_status"]) == RoundStatus.gone:
        return Ignored()
    item = item_of(row)
    if not conn.execute(f"SELECT {_KNOWN}", {"chat": row["chat_id"], "user": user_id}).fetchone()[0]:
        if in_group is None:
            return Unknown(item.round_id, row["chat_id"])
        if not in_group:
            return Ignored()
    chosen = frozenset(option_ids)
    share = scoring.fraction(item.correct, chosen, multiple=item.multiple, policy=item.policy,
                             n_options=row["n_options"])
    taken = now - (item.posted_at if item.posted_at is not None else now)
    run = _run(conn, item.round_id, item.pos, user_id) + 1 if share >= 1 else 0
    points = scoring.points(share, taken, row["seconds"], run)
    cur = conn.execute(
        """INSERT INTO live_answers (round_id, pos, user_id, chat_id, option_ids, fraction, points, received_at)
           VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING""",
        (item.round_id, item.pos, user_id, row["chat_id"], json.dumps(sorted(chosen)), share, points, now))
    if cur.rowcount != 1:
        return Ignored()
    rated.answered_in(conn, item.round_id, item.pos, user_id)  # counts for ratings at once
    note_member_in(conn, row["chat_id"], user_id, now)
    return Recorded(item.round_id, points, share)


async def answer(db: Database, poll_id: str, user_id: int, option_ids: list[int], now: float,
                 in_group: bool | None = None) -> Outcome:
    """Score and store a poll answer (the first per player and question counts) of a known member of
    the round's group; `in_group`: what Telegram said of a voter who is not known (None: not asked
    yet, the outcome is then Unknown). The voter is recorded as seen in the group with their answer."""
    return await db.run_write(lambda conn: answer_on(conn, poll_id, user_id, option_ids, now, in_group))


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    name: str
    points: int
    right: int  # fully right answers
    answers: int  # questions answered: a player's 'right' counts out of these, here and on /leaderboard live


@dataclass(frozen=True, slots=True)
class Standings:
    top: list[Standing]
    players: int
    me: Standing | None = None


_STANDINGS = """
WITH agg AS (SELECT user_id, SUM(points) AS points, COUNT(*) FILTER (WHERE fraction >= 1) AS right, COUNT(*) AS answers, MAX(received_at) AS last_at
             FROM live_answers WHERE round_id=:round GROUP BY user_id),
ranked AS (SELECT agg.*, ROW_NUMBER() OVER (ORDER BY points DESC, last_at ASC, user_id ASC) AS rank,
                  COUNT(*) OVER () AS players FROM agg)
SELECT ranked.*, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name
FROM ranked JOIN users u ON u.id = ranked.user_id
WHERE rank <= :top OR ranked.user_id = :me ORDER BY rank
"""


async def standings(db: Database, round_id: int, top: int, me: int | None = None) -> Standings:
    """The round's top `top` by points (ties: who got there first), how many played, and `me`."""
    rows = await db.fetchall(_STANDINGS, {"round": round_id, "top": top, "me": me if me is not None else 0})
    out = [Standing(r["rank"], r["user_id"], r["name"], r["points"], r["right"], r["answers"]) for r in rows]
    return Standings(top=[s for s in out if s.rank <= top], players=rows[0]["players"] if rows else 0,
                     me=next((s for s in out if s.user_id == me), None))
