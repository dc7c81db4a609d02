"""Start-up work on the database: open it, migrate it and fill what a migration cannot compute;
the bundled bank, imported on first start when the database has no papers."""

from __future__ import annotations

from pathlib import Path

import bank
from bank.importer import import_files
from bank.paper_store import paper_count
from bank.question_checks import fill_missing
from proctor.storage.db import Database

SEEDS_DIR = Path(bank.__file__).resolve().parent / "seeds"


async def open_database(path: Path | str | None = None) -> Database:
    """The database as the bot and the CLI start with it: opened, migrated, and with the data a SQL
    migration cannot compute (it needs Python) filled for rows that lack it: migration 013's
    import-time question checks (bank/question_checks.py)."""
    db = await Database.open(path)
    try:
        await fill_missing(db)
    except BaseException:
        await db.close()
        raise
    return db


async def ensure_default_bank(db: Database, now: float) -> int:
    """Import bank/seeds/*.txt if the papers table is empty; returns how many papers it imported.

    Raises ImportFailed if a bundled paper cannot be parsed (nothing is written then).
    """
    if await paper_count(db):
        return 0
    papers = await import_files(db, sorted(SEEDS_DIR.glob("*.txt")), now)
    return len(papers)
