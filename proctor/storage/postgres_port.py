"""How far the record's SQL runs on PostgreSQL: the modules whose SQL does not yet (`NOT_YET`).

docs/postgres-port.md lists every module that runs SQL as ported (its tests run on both engines),
not yet, or SQLite files only (backups); tests/project/test_postgres_port.py holds this tuple and that
list equal, and checks that no ported module holds a construct only SQLite takes. The bot refuses to
start on a PostgreSQL URL while `NOT_YET` holds a module (`unported`): a half-ported bot would fail
in the middle of a candidate's exam, not at start-up.
"""

from __future__ import annotations

NOT_YET: tuple[str, ...] = (
    "desk/audit_words.py",
    "proctor/daily/plan.py",
    "proctor/daily/selection.py",
    "proctor/daily/streaks.py",
    "proctor/daily/subscriptions.py",
    "proctor/exams/cards.py",
    "proctor/hiring.py",
    "proctor/invite_cards.py",
    "proctor/invites/attempts.py",
    "proctor/invites/listing.py",
    "proctor/invites/store.py",
    "proctor/live/answers.py",
    "proctor/live/board.py",
    "proctor/live/draw.py",
    "proctor/live/rounds.py",
    "proctor/outbox.py",
    "proctor/storage/message_ids.py",
    "proctor/teams/audit.py",
    "proctor/teams/bankstats.py",
    "proctor/teams/desk_tokens.py",
    "proctor/teams/digest.py",
    "proctor/teams/disputes.py",
    "proctor/teams/doubts.py",
    "proctor/teams/item_stats.py",
    "proctor/teams/key_fix.py",
    "proctor/teams/roster.py",
)


def unported() -> str | None:
    """Why the bot cannot run on PostgreSQL yet, in one line naming what is missing; None once it can."""
    if not NOT_YET:
        return None
    return (f"the bot does not run on PostgreSQL yet: the SQL of {len(NOT_YET)} modules is SQLite's only "
            f"({', '.join(NOT_YET)}); see docs/postgres-port.md, or run it on a SQLite file")
