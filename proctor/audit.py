"""The audit log's writer: one row per lead action, inside the transaction of the action itself.

Its reading side is proctor/teams/audit.py. The writer sits here, beneath the packages, because
actions outside proctor/teams write entries too (an attempt's regrade, invites, hiring papers, a
paper composed, the daily schedule) and proctor/teams imports those packages: a writer inside it
would close an import circle.
"""

from __future__ import annotations

import json
import sqlite3
from enum import StrEnum
from typing import Any


class AuditAction(StrEnum):
    """What an entry records; each has its sentence (bot/catalogue/audit.py, `audit_<action>`)."""
    add_question = "add_question"
    bank_upload = "bank_upload"
    chart = "chart"
    confirm_key = "confirm_key"
    daily_off = "daily_off"
    daily_on = "daily_on"
    digest = "digest"
    dispute_dismissed = "dispute_dismissed"
    dispute_upheld = "dispute_upheld"
    invite_claim = "invite_claim"
    invite_create = "invite_create"
    invite_resend = "invite_resend"
    invite_revoke = "invite_revoke"
    key_fix = "key_fix"
    key_read = "key_read"  # a lead or an admin read a hiring paper's keys (proctor/exams/visibility.py)
    paper_compose = "paper_compose"
    paper_settings = "paper_settings"
    question_edit = "question_edit"
    regrade = "regrade"
    report = "report"
    restore = "restore"
    retire = "retire"
    review = "review"
    roster_accept = "roster_accept"
    roster_consent = "roster_consent"
    roster_decline = "roster_decline"
    roster_invite = "roster_invite"
    roster_leave = "roster_leave"
    roster_reject = "roster_reject"
    roster_remove = "roster_remove"
    team_unverify = "team_unverify"
    team_verify = "team_verify"


_AUDIT = ("INSERT INTO audit_log (at, actor_id, chat_id, action, target, target_user, detail) "
          "VALUES (?,?,?,?,?,?,?)")


def record_audit(conn: sqlite3.Connection, *, at: float, actor: int, chat_id: int | None,
                 action: AuditAction, target: str = "", target_user: int | None = None, **detail: Any) -> None:
    """Append one audit entry inside the action's transaction (`Database.run_write`), so it commits with it."""
    conn.execute(_AUDIT, (at, actor, chat_id, action, target, target_user, json.dumps(detail, ensure_ascii=False)))
