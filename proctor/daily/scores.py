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


def source(engine: Engine, start: float | None, end: float | None,
           chat_param: str = ":chat") -> tuple[str, dict[str, object]]:
    """(SELECT, parameters): the chat's daily points in the period [start, end) as rows (user_id, day,
    score, max_score, answers, correct, last_at): the whole slots from daily_scores, the edges (when
    the bounds are off the quarter hours) from daily_answers. The SELECT names the chat as
    `chat_param`; the caller adds that parameter."""
    lo, hi, (s1, e1), (s2, e2) = slot_range(start, end)
    sql = ("SELECT user_id, day, score, max_score, answers, correct, last_at FROM daily_scores "
           f"WHERE chat_id = {chat_param} AND slot >= :lo AND slot < :hi")
    values: dict[str, object] = {"lo": lo, "hi": hi}
    for n, (s, e) in enumerate(((s1, e1), (s2, e2)), 1):
        if s < e:
            sql += (f" UNION ALL SELECT user_id, day, score, max_score, 1, "
                    f"CASE WHEN verdict = '{Verdict.correct}' THEN 1 ELSE 0 END, answered_at "
                    f"FROM {indexed_by(engine, 'daily_answers', 'daily_answers_leaderboard')} "
                    f"WHERE chat_id = {chat_param} AND answered_at >= :s{n} AND answered_at < :e{n}")
            values.update({f"s{n}": s, f"e{n}": e})
    return sql, values
