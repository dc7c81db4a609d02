"""Daily-quiz points of a chat over a period, read from the `daily_scores` summary (migration 024).

The design, in short:
- `daily_scores` holds, per chat, member, quiz day and *slot* (a quarter hour of UTC:
  `CAST(answered_at AS INTEGER) / 900`), the sum of the daily answers' scores and maximum scores,
  their count, how many were correct and the latest `answered_at`.
- Triggers on `daily_answers` keep it: each insert, rescore (key fix, regrade) or delete (/forgetme,
  a deleted chat's cascade) recomputes the one slot row it touches, inside the statement that wrote
  the answer, so in its transaction and with no extra round trip. No writer has to remember it.
- Why quarter hours of UTC and not the chat's local days: periods (today, week, month) start at the
  chat's local midnight, and every time zone's midnight falls on a quarter hour of UTC. A period
  is then a whole range of slots in any zone, and a chat whose zone changes (or a changed default
  zone) needs no recomputation. A member answering a quiz within a few minutes makes one row.
- A period whose bounds are not on a quarter hour (the weekly digest's "the last seven days") reads
  its two partial edges from `daily_answers` itself; the whole slots between come from here.
- `answered_at` is Unix time (never negative), so the slot arithmetic is exact integer arithmetic.

`source` is the one source the leaderboard (`/leaderboard`, the desk, digests), the trend and the
points per day read; the numbers are those a scan of `daily_answers` would give (sums of the same
scores, grouped differently: equal but for the last bit of a sum of non-binary fractions).
"""

from __future__ import annotations

import math

from bank.grading.result import Verdict
from bank.store import Engine, indexed_by

SLOT = 900  # seconds per slot: a quarter hour
_NONE = (0.0, 0.0)  # an empty range of answered_at
_LOW, _HIGH = -(1 << 62), 1 << 62


def slot_range(start: float | None, end: float | None) -> tuple[int, int, tuple[float, float], tuple[float, float]]:
    """(first slot, slot after the last, raw edge before, raw edge after) for the period
    [start, end): the slots wholly inside it, and the answered_at ranges outside any whole slot."""
    lo = _LOW if start is None else -(-math.ceil(start) // SLOT)
    hi = _HIGH if end is None else math.floor(end) // SLOT
    if start is not None and end is not None and lo >= hi:  # shorter than a slot: all raw
        return 0, 0, (start, end), _NONE
    before = (start, float(lo * SLOT)) if start is not None and start < lo * SLOT else _NONE
    after = (float(hi * SLOT), end) if end is not None and hi * SLOT < end else _NONE
    return lo, hi, before, after


def held(chat_param: str = ":chat") -> str:
    """The ids of the chat's group quizzes whose keys are not posted yet (`closed_at` NULL): until then
    their answers are on no board, in no trend or report, as they count for no rating
    (proctor/daily/rated.py): a member's points would tell the group who was right before the keys do.
    A private quiz's answers count at once (its key comes with each answer)."""
    return ("SELECT d.id FROM daily_deliveries d JOIN chats c ON c.id = d.chat_id "
            f"WHERE d.chat_id = {chat_param} AND c.type != 'private' AND d.closed_at IS NULL")


def period_source(engine: Engine, start: float | None, end: float | None, *, summary: str, answers: str,
                  joins: str = "", chat_param: str = ":chat") -> tuple[str, dict[str, object]]:
    """(SELECT, parameters): a chat's daily answers in the period [start, end) as rows of a summary
    kept by quarter-hour slot, `summary` (`SELECT <columns> FROM <table>`; its rows have `chat_id` and
    `slot`), and of the answers themselves, `answers` (the same columns over `daily_answers a`, with
    `joins`): the whole slots from the summary, the edges off the quarter hours from the answers, and
    the answers of a quiz still `held` left out (the few slots they fall in read from the answers
    without them). The SELECT names the chat as `chat_param`; the caller adds that parameter."""
    lo, hi, (s1, e1), (s2, e2) = slot_range(start, end)
    held_ids = held(chat_param)
    held_slots = f"SELECT {slot_of(engine, 'answered_at')} AS s FROM daily_answers WHERE delivery_id IN ({held_ids})"
    rows = f"SELECT {answers} FROM {indexed_by(engine, 'daily_answers a', 'daily_answers_leaderboard')} {joins}"
    sql = (f"{summary} WHERE chat_id = {chat_param} AND slot >= :lo AND slot < :hi AND slot NOT IN ({held_slots})"
           f" UNION ALL {rows} JOIN (SELECT DISTINCT s FROM ({held_slots}) AS slots) AS h "
           f"ON a.chat_id = {chat_param} AND a.answered_at >= h.s * {SLOT} AND a.answered_at < (h.s + 1) * {SLOT} "
           f"WHERE h.s >= :lo AND h.s < :hi AND a.delivery_id NOT IN ({held_ids})")
    values: dict[str, object] = {"lo": lo, "hi": hi}
    for n, (s, e) in enumerate(((s1, e1), (s2, e2)), 1):
        if s < e:
            sql += (f" UNION ALL {rows} WHERE a.chat_id = {chat_param} AND a.answered_at >= :s{n} "
                    f"AND a.answered_at < :e{n} AND a.delivery_id NOT IN ({held_ids})")
            values.update({f"s{n}": s, f"e{n}": e})
    return sql, values


def slot_of(engine: Engine, column: str) -> str:
    """The slot of a Unix time `column` (migration 024's `CAST(x AS INTEGER) / 900`: SQLite's CAST
    truncates, PostgreSQL's rounds, so there the time is truncated first, as the baseline's triggers do)."""
    if engine is Engine.postgres:
        return f"CAST(trunc({column}) AS BIGINT) / {SLOT}"
    return f"CAST({column} AS INTEGER) / {SLOT}"


def source(engine: Engine, start: float | None, end: float | None,
           chat_param: str = ":chat") -> tuple[str, dict[str, object]]:
    """(SELECT, parameters): the chat's daily points in the period [start, end) as rows (user_id, day,
    score, max_score, answers, correct, last_at), from the daily_scores summary (`period_source`)."""
    return period_source(
        engine, start, end, chat_param=chat_param,
        summary="SELECT user_id, day, score, max_score, answers, correct, last_at FROM daily_scores",
        answers=("a.user_id, a.day, a.score, a.max_score, 1, "
                 f"CASE WHEN a.verdict = '{Verdict.correct}' THEN 1 ELSE 0 END, a.answered_at"))
