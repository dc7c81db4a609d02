"""What the candidate's result card shows, read in one round trip (the outbox sends it during a
deadline's burst of hand-ins: one hop to the database thread per card, not four); and what a later
notice about one of their answers (a review, a key fix) may tell them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from bank.errors import NotFound
from bank.kinds import ReviewOption
from bank.paper_settings import pass_mark_in, review_option_in
from proctor.exams.model import Sheet
from proctor.exams.steps import sheet_in
from proctor.exams.visibility import Fact, Role, Viewer, Visibility, visibility_in
from proctor.people.users import UserPrefs, prefs_in
from proctor.storage.db import Database


class ResultCard(NamedTuple):
    sheet: Sheet  # no question loaded: a card shows none
    prefs: UserPrefs | None  # the candidate's; None for a user without a record
    review: ReviewOption  # `none`: not even the total
    vis: Visibility  # what the candidate may read of the paper: sections, a mark per question, the keys
    pass_percent: float | None


async def load_result_card(db: Database, attempt_id: int) -> ResultCard:
    """Raises NotFound (the attempt is gone)."""
    return await db.run(lambda conn: result_card_in(conn, attempt_id))


def result_card_in(conn: sqlite3.Connection, attempt_id: int) -> ResultCard:
    """`load_result_card` on the database thread: the card of the attempt's own candidate, as the
    read rule lets them read it. Raises NotFound."""
    sheet = sheet_in(conn, attempt_id, ())
    if sheet is None:
        raise NotFound(f"no attempt {attempt_id}")
    a = sheet.attempt
    return ResultCard(sheet, prefs_in(conn, a.user_id), review_option_in(conn, a.paper_id),
                      visibility_in(conn, Viewer(Role.person, a.user_id), None, a.paper_id),
                      pass_mark_in(conn, a.paper_id))


class Told(NamedTuple):
    """What a notice to a candidate about one of their answers may say, by the read rule as it stands
    for them when it is sent."""

    result: bool  # the question and its score (their per-question result)
    total: bool  # the attempt's total (not under the review option `none`)


def told_in(conn: sqlite3.Connection, user_id: int, question_id: int, attempt_id: int | None) -> Told:
    """`told` of one answer: on attempt `attempt_id`, whose paper decides (None, or an attempt since
    gone: the question's own paper, as a daily-quiz answer's)."""
    row = None if attempt_id is None else conn.execute("SELECT paper_id FROM attempts WHERE id=?",
                                                       (attempt_id,)).fetchone()
    if row is None:
        row = conn.execute("SELECT paper_id FROM questions WHERE id=?", (question_id,)).fetchone()
    paper_id = None if row is None else row[0]
    vis = visibility_in(conn, Viewer(Role.person, user_id), None, paper_id)
    return Told(vis.shows(Fact.result, question_id), review_option_in(conn, paper_id) != ReviewOption.none)


async def told(db: Database, user_id: int, question_id: int, attempt_ids: Sequence[int | None]) -> list[Told]:
    """What the candidate's notice may say of their answers to the question on each of these attempts
    (None: a daily-quiz answer), in one read."""
    return await db.run(lambda conn: [told_in(conn, user_id, question_id, a) for a in attempt_ids])
