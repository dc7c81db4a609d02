"""What the inviting lead's result card shows, read in one round trip: the outbox sends these cards
during a deadline's burst of hand-ins, one hop to the database thread each."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from bank.errors import NotFound
from proctor.exams.ability import estimates_in
from proctor.exams.integrity import counts_in
from proctor.exams.model import Sheet
from proctor.exams.states import AttemptMode
from proctor.exams.steps import sheet_in
from proctor.exams.visibility import Fact, Viewer, Visibility, visibility_in
from proctor.integrity.signals import Signal
from proctor.invites.store import Invite, find_in
from proctor.people.users import UserPrefs, prefs_in
from proctor.ratings.shown import Shown
from proctor.storage.db import Database
from proctor.teams.roster import display_name_in


class LeadCard(NamedTuple):
    sheet: Sheet  # no question loaded: a card shows none
    invite: Invite
    lead: UserPrefs | None  # the lead's; None for a user without a record
    vis: Visibility  # what the lead, for the invite's team, may read of the paper (sections, answers, results)
    signals: dict[Signal, int] | None  # the attempt's integrity signals by kind; None: none
    candidate: str  # the candidate's display name
    sat_before: int  # the candidate's sittings of the paper through /exam before this attempt
    ability: Shown | None  # the ability estimate on the paper, where the lead may read per-question results


# the candidate's own exams of the paper (not invited) started before this attempt (ids grow with starts)
_SAT_BEFORE = f"""SELECT COUNT(*) FROM attempts b WHERE b.user_id = :user AND b.paper_id = :paper
                  AND b.mode = '{AttemptMode.exam}' AND b.invite_id IS NULL AND b.id < :attempt"""


async def load_lead_card(db: Database, attempt_id: int, invite_id: int, lead: Viewer) -> LeadCard:
    """Raises NotFound (the attempt or the invite is gone)."""
    return await db.run(lambda conn: lead_card_in(conn, attempt_id, invite_id, lead))


def lead_card_in(conn: sqlite3.Connection, attempt_id: int, invite_id: int, lead: Viewer) -> LeadCard:
    """`load_lead_card` on the database thread: the card as `lead` (a lead, or a configured admin) may
    read it for the invite's team. Raises NotFound."""
    sheet = sheet_in(conn, attempt_id, ())
    if sheet is None:
        raise NotFound(f"no attempt {attempt_id}")
    inv = find_in(conn, invite_id)
    if inv is None:
        raise NotFound(f"no invite {invite_id}")
    a = sheet.attempt
    before = 0 if a.paper_id is None else conn.execute(
        _SAT_BEFORE, {"user": a.user_id, "paper": a.paper_id, "attempt": a.id}).fetchone()[0]
    vis = visibility_in(conn, lead, inv.team_chat_id, a.paper_id)
    # which answers were right moves the estimate: only where the lead may read per-question results
    ability = estimates_in(conn, [a.id]).get(a.id) if vis.shows(Fact.result) else None
    return LeadCard(sheet, inv, prefs_in(conn, lead.user_id) if lead.user_id is not None else None, vis,
                    counts_in(conn, [a.id]).get(a.id), display_name_in(conn, a.user_id), before, ability)
