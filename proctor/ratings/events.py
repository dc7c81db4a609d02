"""Rating events: each person's first answer to a question, written in the transaction that makes
the answer final, and the ratings it moves.

A source of answers (proctor/exams/rated.py, proctor/daily/rated.py, proctor/live/rated.py) says which
of its answers count and when as a `Counting`; its hooks call `count_in` inside the transaction that
makes an answer final. Each counted answer gets the next sequence number and moves the person's rating
and the question's measured difficulty at once (rule.play). A regrade or a forgotten person changes
answers that already counted: `regraded_in` and `forgotten_in` fold the ratings again from the events,
so the ratings are always what replaying the events by sequence number gives (proctor/ratings/replay.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bank.grading.result import Verdict
from bank.kinds import Kind
from bank.store import Engine, engine_of, ids_in, json_length
from proctor.ratings import rule
from proctor.ratings.replay import Answer, Ratings, Start, replay
from proctor.ratings.rule import Rating


class Source(StrEnum):
    """Where a counted answer was given, and so when it counted."""

    exam = "exam"  # an exam's final answers, at its hand-in (nothing moves while it runs)
    practice = "practice"  # a practice answer, at once
    daily = "daily"  # a private daily quiz's answer, at once
    group_daily = "group_daily"  # a group's daily quiz's answers, at the close that posts its keys
    live = "live"  # a live round's answer, at once
    review = "review"  # a written answer, at its review


@dataclass(frozen=True, slots=True)
class Counting:
    """Which answers of one source count: `sql` selects user_id, question_id, correct (0..1), at (when
    it counted), ref_id and ref_pos (where the answer is stored) of every answer that counts by now,
    and ends in its WHERE clause, so a hook narrows it to the answers it makes final."""

    source: Source
    sql: str


def correct_sql(t: str) -> str:
    """How right a stored answer is (0..1) from table alias `t`'s score, max_score and verdict."""
    return (f"CASE WHEN {t}.max_score > 0 THEN CASE WHEN {t}.score <= 0 THEN 0.0 WHEN {t}.score >= {t}.max_score "
            f"THEN 1.0 ELSE {t}.score * 1.0 / {t}.max_score END "
            f"WHEN {t}.verdict = '{Verdict.correct}' THEN 1.0 ELSE 0.0 END")


ORDER = "at, ref_id, ref_pos, user_id"  # the order answers made final together count in


def count_in(conn: sqlite3.Connection, counting: Counting, where: str, params: Sequence[object]) -> int:
    """Count the answers of `counting` that `where` narrows it to (each person's first answer to a
    question only) and move both ratings of each; call inside the transaction that makes them final.
    Returns how many counted."""
    cur = conn.execute(
        "INSERT INTO rating_events (user_id, question_id, correct, at, source, ref_id, ref_pos) "
        f"SELECT user_id, question_id, correct, at, ?, ref_id, ref_pos FROM ({counting.sql} AND {where}) counting "
        f"WHERE true ORDER BY {ORDER} ON CONFLICT (user_id, question_id) DO NOTHING "
        "RETURNING seq, user_id, question_id, correct, at", (counting.source, *params))
    counted = sorted(tuple(r) for r in cur.fetchall())
    for _seq, user_id, question_id, correct, at in counted:
        _play_in(conn, user_id, question_id, correct, at)
    return len(counted)


# the usual points of a question's kind in its paper: a label-less question's points are read against it
_USUAL = "(SELECT AVG(o.points) FROM questions o WHERE o.paper_id = q.paper_id AND o.kind = q.kind)"
# the question (what its start needs, if it has no rating yet) and both ratings, in one read
_STATE = {engine: f"""SELECT q.kind, {json_length(engine, "q.options")} AS options, q.difficulty, q.points,
                    CASE WHEN r.question_id IS NULL THEN {_USUAL} END AS usual,
                    r.measured, r.deviation AS q_deviation, r.answers AS q_answers, r.at AS q_at,
                    p.mean, p.deviation, p.answers, p.at
             FROM questions q LEFT JOIN question_ratings r ON r.question_id = q.id
             LEFT JOIN person_ratings p ON p.user_id = ? WHERE q.id = ?""" for engine in Engine}


def _start(kind: Kind, options: int | None, label: str, points: float, usual: float | None) -> Start:
    """Where a question starts and its floor, from its stored kind, options, label and points."""
    return Start(rule.question_prior(label, points, usual), rule.guess_floor(kind, options or 0))


def _play_in(conn: sqlite3.Connection, user_id: int, question_id: int, correct: float, at: float) -> None:
    s = conn.execute(_STATE[engine_of(conn)], (user_id, question_id)).fetchone()
    start = _start(Kind(s["kind"]), s["options"], s["difficulty"], s["points"], s["usual"])
    question = start.prior if s["measured"] is None else Rating(s["measured"], s["q_deviation"], s["q_answers"],
                                                                 s["q_at"])
    person = rule.newcomer(at) if s["mean"] is None else Rating(s["mean"], s["deviation"], s["answers"], s["at"])
    person, question = rule.play(person, question, correct, start.floor, at)
    conn.execute("INSERT INTO person_ratings (user_id, mean, deviation, answers, at) VALUES (?,?,?,?,?) "
                 "ON CONFLICT (user_id) DO UPDATE SET mean = excluded.mean, deviation = excluded.deviation, "
                 "answers = excluded.answers, at = excluded.at",
                 (user_id, person.mean, person.deviation, person.answers, person.at))
    conn.execute("INSERT INTO question_ratings (question_id, measured, deviation, answers, at) VALUES (?,?,?,?,?) "
                 "ON CONFLICT (question_id) DO UPDATE SET measured = excluded.measured, "
                 "deviation = excluded.deviation, answers = excluded.answers, at = excluded.at", (question_id, question.mean, question.deviation, question.answers, question.at))


def beliefs_in(conn: sqlite3.Connection, question_ids: Iterable[int]) -> dict[int, tuple[Rating, float]]:
    """Each question's measured difficulty as it stands (its prior if no answer counted yet) and its
    guessing floor: what a rating is read against."""
    rows = conn.execute(
        f"""SELECT q.id, q.kind, {json_length(engine_of(conn), "q.options")} AS options, q.difficulty, q.points,
                   CASE WHEN r.question_id IS NULL THEN {_USUAL} END AS usual, r.measured, r.deviation,
                   r.answers, r.at
            FROM questions q LEFT JOIN question_ratings r ON r.question_id = q.id
            WHERE q.id IN ({ids_in(engine_of(conn))})""", (json.dumps(sorted(set(question_ids))),))
    out = {}
    for r in rows:
        start = _start(Kind(r["kind"]), r["options"], r["difficulty"], r["points"], r["usual"])
        belief = start.prior if r["measured"] is None else Rating(r["measured"], r["deviation"], r["answers"], r["at"])
        out[r["id"]] = (belief, start.floor)
    return out


# when the work behind an event began (a team sees what a member did after joining, as
# proctor/teams/consent.py reads it): an attempt's start, a daily answer's time, a live answer's
BEGAN = f"""CASE WHEN e.source IN ('{Source.exam}', '{Source.practice}', '{Source.review}')
    THEN (SELECT t.started_at FROM attempts t WHERE t.id = e.ref_id)
    WHEN e.source IN ('{Source.daily}', '{Source.group_daily}')
    THEN (SELECT a.answered_at FROM daily_answers a WHERE a.delivery_id = e.ref_id AND a.pos = e.ref_pos
          AND a.user_id = e.user_id)
    ELSE e.at END"""


def fold_in(conn: sqlite3.Connection) -> Ratings[int]:
    """Replay every event by sequence number, each question starting from its prior as it stands."""
    starts = {r[0]: _start(Kind(r[1]), *r[2:]) for r in conn.execute(
        f"""SELECT q.id, q.kind, {json_length(engine_of(conn), "q.options")}, q.difficulty, q.points, {_USUAL}
            FROM questions q WHERE q.id IN (SELECT question_id FROM rating_events)""")}
    rows = conn.execute("SELECT user_id, question_id, correct, at FROM rating_events ORDER BY seq")
    return replay((Answer(u, q, c, at) for u, q, c, at in rows), lambda q: starts.get(q, Start()))


def refold_in(conn: sqlite3.Connection) -> Ratings[int]:
    """Store what folding the events gives, in place of the ratings held."""
    folded = fold_in(conn)
    conn.execute("DELETE FROM person_ratings")
    conn.execute("DELETE FROM question_ratings")
    conn.executemany("INSERT INTO person_ratings (user_id, mean, deviation, answers, at) VALUES (?,?,?,?,?)",
                     [(u, r.mean, r.deviation, r.answers, r.at) for u, r in folded.people.items()])
    conn.executemany("INSERT INTO question_ratings (question_id, measured, deviation, answers, at) VALUES (?,?,?,?,?)",
                     [(q, r.mean, r.deviation, r.answers, r.at) for q, r in folded.questions.items()])
    return folded


# how right each event's answer is now: an exam's or a reviewed answer as it stands; a practice answer
# only while it is the one first given (changed since, the first is gone: it keeps what it counted
# with); a daily answer as regraded; a live answer never changes
_NOW = f"""COALESCE(CASE
    WHEN source IN ('{Source.exam}', '{Source.review}') THEN (SELECT {correct_sql('x')} FROM answers x
        WHERE x.attempt_id = ref_id AND x.pos = ref_pos AND x.final = 1)
    WHEN source = '{Source.practice}' THEN (SELECT {correct_sql('x')} FROM answers x
        WHERE x.attempt_id = ref_id AND x.pos = ref_pos AND x.final = 1 AND x.changes = 0)
    WHEN source IN ('{Source.daily}', '{Source.group_daily}') THEN (SELECT {correct_sql('a')} FROM daily_answers a
        WHERE a.delivery_id = ref_id AND a.pos = ref_pos AND a.user_id = rating_events.user_id)
    END, correct)"""


def resync_in(conn: sqlite3.Connection, question_ids: Iterable[int] | None = None) -> int:
    """Each event of these questions (None: all) takes how right its answer is now; returns how many changed."""
    where = "" if question_ids is None else f"question_id IN ({ids_in(engine_of(conn))}) AND "
    params = () if question_ids is None else (json.dumps(sorted(set(question_ids))),)
    return conn.execute(f"UPDATE rating_events SET correct = {_NOW} WHERE {where}correct IS DISTINCT FROM {_NOW}",
                        params).rowcount


def regraded_in(conn: sqlite3.Connection, question_ids: Iterable[int]) -> None:
    """After a regrade of these questions' answers (a key fix, an edit, a held regrade at a hand-in),
    inside its transaction: the events take the new scores, and if any changed, the ratings are
    folded again (everyone after them in the order moved against them)."""
    ids = list(question_ids)
    if ids and resync_in(conn, ids):
        refold_in(conn)


def forgotten_in(conn: sqlite3.Connection, user_id: int) -> None:
    """/forgetme: the person's events and rating go, and the ratings are folded again without them."""
    conn.execute("DELETE FROM person_ratings WHERE user_id=?", (user_id,))
    if conn.execute("DELETE FROM rating_events WHERE user_id=?", (user_id,)).rowcount:
        refold_in(conn)
