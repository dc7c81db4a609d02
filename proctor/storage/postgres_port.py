"""How far the record's SQL runs on PostgreSQL: the modules whose SQL does not yet (`NOT_YET`).

docs/postgres-port.md lists every module that runs SQL as ported (its tests run on both engines),
not yet, or one engine only (backups, the schema checks, the copy's two sides); tests/project/test_postgres_port.py holds this tuple and that
list equal, and checks that no ported module holds a construct only SQLite takes. The bot refuses to
start on a PostgreSQL URL while `NOT_YET` holds a module (`unported`): a half-ported bot would fail
in the middle of a candidate's exam, not at start-up.
"""

from __future__ import annotations

NOT_YET: tuple[str, ...] = ()


def unported() -> str | None:
    """Why the bot cannot run on PostgreSQL yet, in one line naming what is missing; None once it can."""
    if not NOT_YET:
        return None
    return (f"the bot does not run on PostgreSQL yet: the SQL of {len(NOT_YET)} modules is SQLite's only "
            f"({', '.join(NOT_YET)}); see docs/postgres-port.md, or run it on a SQLite file")
