"""The bundled bank: imported on first start when the database has no papers."""

from __future__ import annotations

from pathlib import Path

import bank
from bank.importer import import_files
from bank.paper_store import paper_count
from proctor.storage.db import Database

SEEDS_DIR = Path(bank.__file__).resolve().parent / "seeds"


async def ensure_default_bank(db: Database, now: float) -> int:
    """Import bank/seeds/*.txt if the papers table is empty; returns how many papers it imported.

    Raises ImportFailed if a bundled paper cannot be parsed (nothing is written then).
    """
    if await paper_count(db):
        return 0
    papers = await import_files(db, sorted(SEEDS_DIR.glob("*.txt")), now)
    return len(papers)
