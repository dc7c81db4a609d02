"""What the candidate's result card shows, read in one round trip (the outbox sends it during a
deadline's burst of hand-ins: one hop to the database thread per card, not four)."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from bank.errors import NotFound
from bank.kinds import ReviewOption
from bank.paper_settings import pass_mark_in, review_option_in
from proctor.exams.model import Sheet
from proctor.exams.steps import sheet_in
from proctor.exams.visibility import Role, Viewer, Visibility, visibility_in
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
