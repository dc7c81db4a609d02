"""What the inviting lead's result card shows, read in one round trip: the outbox sends these cards
during a deadline's burst of hand-ins, one hop to the database thread each."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from bank.errors import NotFound
from proctor import hiring
from proctor.exams.integrity import counts_in
from proctor.exams.model import Sheet
from proctor.exams.steps import sheet_in
from proctor.integrity.signals import Signal
from proctor.invites.store import Invite, find_in
from proctor.people.users import UserPrefs, prefs_in
from proctor.storage.db import Database
from proctor.teams.roster import display_name_in


class LeadCard(NamedTuple):
    sheet: Sheet  # no question loaded: a card shows none
    invite: Invite
    lead: UserPrefs | None  # the lead's; None for a user without a record
    team_may_see: bool  # the invite's team may see the paper's sections (hiring.may_see); admins always may
    signals: dict[Signal, int] | None  # the attempt's integrity signals by kind; None: none
    candidate: str  # the candidate's display name


async def load_lead_card(db: Database, attempt_id: int, invite_id: int, lead_id: int) -> LeadCard:
    """Raises NotFound (the attempt or the invite is gone)."""
    return await db.run(lambda conn: lead_card_in(conn, attempt_id, invite_id, lead_id))


def lead_card_in(conn: sqlite3.Connection, attempt_id: int, invite_id: int, lead_id: int) -> LeadCard:
    """`load_lead_card` on the database thread. Raises NotFound."""
    sheet = sheet_in(conn, attempt_id, ())
    if sheet is None:
        raise NotFound(f"no attempt {attempt_id}")
    inv = find_in(conn, invite_id)
    if inv is None:
        raise NotFound(f"no invite {invite_id}")
    a = sheet.attempt
    return LeadCard(sheet, inv, prefs_in(conn, lead_id), hiring.may_see_in(conn, inv.team_chat_id, inv.paper_id),
                    counts_in(conn, [a.id]).get(a.id), display_name_in(conn, a.user_id))
