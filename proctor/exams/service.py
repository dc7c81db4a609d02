"""Attempt operations: each one reads, decides and writes in one transaction before anyone is told.

Every function takes `now`; none reads the clock. Raises AttemptClosed, NotYourAttempt, NotFound,
AlreadyRunning, AttemptLimitReached.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable
from typing import Any

from bank import matching_answer
from bank.errors import NotFound
from bank.kinds import CHOICE, Kind
from bank.models import Paper, Question
from bank.option_order import OptionOrder
from bank.paper_store import load_paper
from bank.store import engine_of, least, one_row
from proctor import outbox
from proctor.errors import ProctorError
from proctor.exams import adaptive as adaptive_draw
from proctor.exams import blueprint as blueprints
from proctor.exams import drafts, held, integrity, rated, states
from proctor.exams.model import ADAPTIVE_TITLE, MOCK_TITLE, Attempt, Result, Sheet, compute_result
from proctor.exams.scoring import ATTEMPT_TOTAL
from proctor.exams.sittings import sittings_in
from proctor.exams.states import AttemptMode, AttemptStatus, FinishReason, GradingMethod
from proctor.exams.steps import sheet_in, shown_in
from proctor.exams.visibility import Fact, Visibility
from proctor.invites import attempts as invite_attempts
from proctor.storage.db import Database

MOCK_BLUEPRINT: dict[Kind, int] = {p.kind: p.count for p in blueprints.MOCK.parts}  # /exam random's counts
MOCK_MINUTES = blueprints.MOCK_MINUTES


class AttemptClosed(ProctorError):
    """The attempt is finished or cancelled; it accepts no more answers."""


class NotYourAttempt(ProctorError):
    """The attempt belongs to someone else."""


class AttemptLimitReached(ProctorError):
    """The paper's allowed number of attempts is used up."""


class AlreadyRunning(ProctorError):
    """The user already has a running attempt."""


class ExamOnly(ProctorError):
    """The paper is kept for exams (hiring); it is never used for practice."""


class InviteOnly(ProctorError):
    """The paper is opened only by a hiring invite."""


class ReviewClosed(ProctorError):
    """The paper shows the viewer no keys (its review option: a hiring paper's is `score` by default)."""


class ReviewSealed(ProctorError):
    """A running exam seals a question of the attempt: its keys wait for that exam's hand-in."""


async def mock_size(db: Database) -> blueprints.DrawSize:
    """How many questions /exam random draws from this bank, and their points: what its rules card says."""
    return await blueprints.drawn_size(db, blueprints.MOCK)


# ---- reading ------------------------------------------------------------------------------

async def get_attempt(db: Database, attempt_id: int) -> Attempt:
    """Raises NotFound."""
    row = await db.fetchone("SELECT * FROM attempts WHERE id=?", (attempt_id,))
    if row is None:
        raise NotFound(f"no attempt {attempt_id}")
    return Attempt.from_row(row)


async def running_attempt(db: Database, user_id: int) -> Attempt | None:
    return await db.run(lambda conn: running_in(conn, user_id))


def running_in(conn: sqlite3.Connection, user_id: int) -> Attempt | None:
    """`running_attempt` on the database thread."""
    row = conn.execute(f"SELECT * FROM attempts WHERE user_id=? AND status='{AttemptStatus.running}'",
                       (user_id,)).fetchone()
    return None if row is None else Attempt.from_row(row)


async def current_question_id(db: Database, user_id: int) -> int | None:
    """The question on the screen of the user's running attempt, if any."""
    qid: int | None = await db.scalar(
        "SELECT i.question_id FROM attempts t JOIN attempt_items i ON i.attempt_id = t.id "
        f"AND i.pos = t.current_pos WHERE t.user_id=? AND t.status='{AttemptStatus.running}'", (user_id,))
    return qid


async def load_sheet(db: Database, attempt_id: int, *, positions: Iterable[int] | str | None = None) -> Sheet:
    """The attempt with its items and answers, and the questions at `positions`, in one round trip.
    Raises NotFound.

    By default only the current question is loaded: that is all an answer or a screen needs, and
    building a whole paper's questions would be most of the cost of every tap. "all" loads every one.
    """
    sheet = await db.run(lambda conn: sheet_in(conn, attempt_id, positions))
    if sheet is None:
        raise NotFound(f"no attempt {attempt_id}")
    return sheet


async def own_sheet(db: Database, attempt_id: int, user_id: int, *, running: bool = True,
                    positions: Iterable[int] | str | None = None) -> Sheet:
    """The sheet if it is this user's (and still running). Raises NotFound, NotYourAttempt, AttemptClosed."""
    sheet = await load_sheet(db, attempt_id, positions=positions)
    if sheet.attempt.user_id != user_id:
        raise NotYourAttempt(str(attempt_id))
    if running and not sheet.attempt.running:
        raise AttemptClosed(str(attempt_id))
    return sheet


_REVIEWED = (Fact.key, Fact.reference, Fact.explanation, Fact.result)  # what a review page shows


async def review_sheet(db: Database, vis: Visibility, sheet: Sheet, positions: Iterable[int]) -> Sheet:
    """The handed-in `sheet` with its questions at `positions` loaded, keys and all, when the read rule
    (`vis`: the viewer's, of the attempt's paper) shows the keys, reference answers, explanations and
    results of every question on it. Raises ReviewClosed, ReviewSealed, NotFound."""
    if not all(f in vis.facts for f in _REVIEWED):
        raise ReviewClosed(str(sheet.attempt.id))
    if not all(vis.shows(f, i.question_id) for f in _REVIEWED for i in sheet.items):
        raise ReviewSealed(str(sheet.attempt.id))
    return await load_sheet(db, sheet.attempt.id, positions=positions)


async def timed_running(db: Database) -> list[Attempt]:
    rows = await db.fetchall(
        f"SELECT * FROM attempts WHERE status='{AttemptStatus.running}' AND deadline IS NOT NULL ORDER BY deadline, id")
    return [Attempt.from_row(r) for r in rows]


async def running_counts(db: Database, now: float) -> dict[str, int]:
    """Running attempts: all, timed, and timed ones past their deadline (not yet handed in)."""
    row = one_row(await db.fetchone(
        "SELECT COUNT(*) AS running, COUNT(deadline) AS timed, COUNT(CASE WHEN deadline<=? THEN 1 END) AS overdue "
        f"FROM attempts WHERE status='{AttemptStatus.running}'", (now,)))
    return dict(row)


# ---- building an attempt ------------------------------------------------------------------

def plan_items(questions: list[tuple[str, Question]], *, shuffle: bool,
               rng: random.Random) -> list[tuple[int | None, str, float, str, int]]:
    """(question_id, section, points, option_order, version) per askable question, options maybe
    shuffled (those pinned at import stay in place); a matching question's order is that of its choices."""
    out = []
    for section, q in questions:
        if not q.askable:
            continue
        order = ""
        if q.kind in CHOICE:
            order = OptionOrder.draw(len(q.options), q.pinned, rng, shuffle).order
        elif q.kind == Kind.matching:
            order = OptionOrder.draw(len(matching_answer.choices(q)), [], rng, shuffle).order
        out.append((q.id, section, q.points, order, q.version))
    return out


def paper_questions(paper: Paper) -> list[tuple[str, Question]]:
    return [(s.title, q) for s in paper.sections for q in s.questions]


async def mock_questions(db: Database, counts: dict[Kind, int] | blueprints.Blueprint,
                         rng: random.Random) -> list[tuple[str, Question]]:
    """A mock paper drawn from the whole bank (exam-only papers excluded) by a blueprint."""
    bp = counts if isinstance(counts, blueprints.Blueprint) else blueprints.Blueprint.of_counts(counts)
    return await blueprints.draw(db, bp, rng)


async def start_attempt(db: Database, *, user_id: int, chat_id: int, paper_id: int | None, mode: AttemptMode,
                        now: float, shuffle: bool, blueprint: dict[Kind, int] | None = None,
                        seed: int | None = None, time_limit_min: float | None = None,
                        invite_id: int | None = None, message_id: int | None = None,
                        adaptive: bool = False) -> Attempt:
    """Create a running attempt. Raises AlreadyRunning, AttemptLimitReached, ExamOnly, InviteOnly,
    NotFound, and proctor.invites.states.Refused for an invite that cannot start (checked in the same transaction).

    An invited attempt counts against the invite and gets its extra time; on a hiring paper, /exam and
    invited sittings also share the paper's one count (`sittings_in`), checked in the insert's transaction.
    `message_id`: a message the attempt's screen takes over (an invite's welcome card becomes the
    first question by an edit, so opening an invite costs one message, not two). `adaptive` (no paper):
    questions picked at the person's level (proctor/exams/adaptive.py) rather than a mock's draw."""
    if await running_attempt(db, user_id) is not None:
        raise AlreadyRunning(str(user_id))
    rng = random.Random(seed)
    if paper_id is not None:
        paper = await load_paper(db, paper_id)
        title = paper.title
        limit: float = paper.settings.time_limit_min
        shuffle = shuffle and paper.settings.shuffle_options
        if mode == AttemptMode.practice and paper.settings.exam_only:
            raise ExamOnly(paper.title)
        if paper.settings.invite_only and invite_id is None:
            raise InviteOnly(paper.title)
        chosen = paper_questions(paper)
        if paper.blueprint is not None and paper.per_candidate:  # a composed paper drawn anew for each
            chosen = await blueprints.draw(db, blueprints.Blueprint.from_json(paper.blueprint), rng)
    elif adaptive:
        title, limit = ADAPTIVE_TITLE, MOCK_MINUTES
        chosen = await adaptive_draw.drawn(db, user_id, now, rng)
    else:
        title = MOCK_TITLE
        limit = MOCK_MINUTES
        chosen = await mock_questions(db, MOCK_BLUEPRINT if blueprint is None else blueprint, rng)
    if time_limit_min is not None:
        limit = time_limit_min
    planned = plan_items(chosen, shuffle=shuffle, rng=rng)
    if not planned:
        raise NotFound("this paper has no question that can be asked")

    def transaction(conn: sqlite3.Connection) -> int:
        # re-checked inside the transaction: a double tap on Start creates one attempt
        cur = conn.execute(f"SELECT 1 FROM attempts WHERE user_id=? AND status='{AttemptStatus.running}'",
                           (user_id,))
        if cur.fetchone():
            raise AlreadyRunning(str(user_id))
        minutes = limit
        # the limit, checked with the insert: two taps on Start, or /exam beside an invite, sit once
        sat = sittings_in(conn, user_id, paper_id) if paper_id is not None and mode == AttemptMode.exam else None
        if invite_id is not None:  # the window and the invite's attempts; a hiring paper's shared count
            minutes += invite_attempts.start_in(conn, invite_id, user_id, now,
                                                left=sat.left if sat is not None and sat.hiring else None)
        elif sat is not None and sat.left == 0:
            raise AttemptLimitReached(title)
        deadline = now + minutes * 60 if mode == AttemptMode.exam else None
        cur = conn.execute(
            """INSERT INTO attempts (user_id, chat_id, paper_id, mode, title, started_at, deadline, max_score,
                   invite_id, message_id) VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id""",
            (user_id, chat_id, paper_id, mode, title, now, deadline, sum(p[2] for p in planned), invite_id,
             message_id))
        attempt_id: int = one_row(cur.fetchone())[0]
        if invite_id is not None:
            invite_attempts.attach_in(conn, invite_id, attempt_id)
        conn.executemany(  # the first question goes on screen now (integrity signals time answers)
            "INSERT INTO attempt_items (attempt_id, pos, question_id, section, points, option_order, version, "
            "shown_at) VALUES (?,?,?,?,?,?,?,?)",
            [(attempt_id, pos, *p, now if pos == 0 else None) for pos, p in enumerate(planned)])
        return attempt_id

    return await get_attempt(db, await db.run_write(transaction))


# ---- answering and moving -----------------------------------------------------------------

async def move_to(db: Database, attempt_id: int, pos: int, now: float) -> None:
    def move(conn: sqlite3.Connection) -> None:
        if conn.execute(f"UPDATE attempts SET current_pos=? WHERE id=? AND status='{AttemptStatus.running}'",
                        (pos, attempt_id)).rowcount:
            shown_in(conn, attempt_id, pos, now)

    await db.run_write(move)


async def set_message(db: Database, attempt_id: int, message_id: int) -> None:
    """The message now showing the attempt (bookkeeping of the screen, not the record of an answer).
    A process killed before it leaves the old id: the next step's edit of the old message fails and
    the screen is posted again (bot.exam.show)."""
    await db.run_write(lambda conn: conn.execute("UPDATE attempts SET message_id=? WHERE id=?", (message_id, attempt_id)))


# ---- finishing ----------------------------------------------------------------------------

async def finish_attempt(db: Database, attempt_id: int, now: float, reason: FinishReason) -> tuple[Attempt, Result] | None:
    """Close a running attempt and store its score; None if it was already closed (counted once).

    A finished attempt's result card is queued for delivery in the same transaction. An attempt
    never ends after its deadline: one handed in late (the bot was down) ends at the deadline.
    """
    status = states.closing_move(reason)(AttemptStatus.running)
    return await db.run_write(lambda conn: hand_in_in(conn, attempt_id, now, reason, status))


def hand_in_in(conn: sqlite3.Connection, attempt_id: int, now: float, reason: FinishReason,
               status: AttemptStatus) -> tuple[Attempt, Result] | None:
    """`finish_attempt`'s transaction, run on the database thread: one round trip in all."""
    row = conn.execute("SELECT status FROM attempts WHERE id=?", (attempt_id,)).fetchone()
    if row is not None and row[0] == AttemptStatus.running:
        if status == AttemptStatus.finished:  # ticks not submitted count, as on the screen (Moodle does the same)
            drafts.count_drafts_in(conn, attempt_id, now)
        held.release_in(conn, attempt_id, now)  # a key fixed meanwhile: graded with it now, its notices due
    # the score is summed inside the transaction, so an answer racing the deadline is either in or refused
    row = conn.execute(
        f"""UPDATE attempts SET status=?, finished_at={least(engine_of(conn), "?", "COALESCE(deadline, ?)")},
               finish_reason=?,
               score={ATTEMPT_TOTAL}
           WHERE id=? AND status='{AttemptStatus.running}' RETURNING user_id, chat_id, invite_id, message_id""",
        (status.value, now, now, reason, attempt_id, attempt_id)).fetchone()
    if row is None:
        return None
    if status == AttemptStatus.finished:
        integrity.compute_in(conn, attempt_id, now)  # before the cards that count them are queued
        rated.handed_in_in(conn, attempt_id)  # its final answers count for ratings now, not while it ran
        in_place = row["invite_id"] is not None and row["message_id"] is not None
        outbox.enqueue_in(conn, kind=outbox.Kind.result_in_place if in_place else outbox.Kind.result,
                          ref=str(attempt_id), chat_id=row["chat_id"], user_id=row["user_id"], now=now)
    if row["invite_id"] is not None:  # the team's card goes out with the candidate's
        invite_attempts.finish_in(conn, row["invite_id"], attempt_id, now)
    sheet = sheet_in(conn, attempt_id, ())
    assert sheet is not None
    return sheet.attempt, compute_result(sheet.items, sheet.answers)


async def user_stats(db: Database, user_id: int) -> list[dict[str, Any]]:
    """Per paper: attempts used as the attempt limit counts them (`used`, of which `cancelled`), best
    and last score of the finished ones as the paper's grading method counts, and how many of their
    answers still await review (`pending`; `last_pending` for the last one): a score that may change."""
    finished, seen = (f"'{AttemptStatus.finished}'", f"'{AttemptStatus.finished}', '{AttemptStatus.cancelled}'")
    same = f"b.user_id=a.user_id AND b.paper_id IS NOT DISTINCT FROM a.paper_id AND b.mode='{AttemptMode.exam}' AND b.invite_id IS NULL"
    rows = await db.fetchall(
        f"""SELECT a.paper_id, a.title, COUNT(*) AS used,
                  COUNT(*) FILTER (WHERE a.status='{AttemptStatus.cancelled}') AS cancelled,
                  MAX(CASE WHEN a.status={finished} THEN a.score END) AS best, MAX(a.max_score) AS max_score,
                  (SELECT b.score FROM attempts b WHERE {same} AND b.status={finished}
                     ORDER BY b.finished_at DESC LIMIT 1) AS last,
                  (SELECT COUNT(*) FROM answers x JOIN attempts b ON b.id = x.attempt_id
                     WHERE {same} AND b.status={finished} AND x.final = 0) AS pending,
                  (SELECT COUNT(*) FROM answers x WHERE x.final = 0 AND x.attempt_id =
                     (SELECT b.id FROM attempts b WHERE {same} AND b.status={finished}
                      ORDER BY b.finished_at DESC LIMIT 1)) AS last_pending,
                  COALESCE(p.grading_method, '{GradingMethod.best}') AS method
           FROM attempts a LEFT JOIN papers p ON p.id=a.paper_id
           WHERE a.user_id=? AND a.status IN ({seen}) AND a.mode='{AttemptMode.exam}'
             AND a.invite_id IS NULL
           GROUP BY a.paper_id, a.title, a.user_id, p.grading_method ORDER BY MAX(a.finished_at) DESC""", (user_id,))
    return [dict(r) for r in rows]
