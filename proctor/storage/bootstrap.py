"""Start-up work on the database: open it, migrate it and fill what a migration cannot compute;
the bundled bank, imported on first start when the database has no papers."""

from __future__ import annotations

import json
from pathlib import Path

import bank
from bank.grading.terms import SEED_TERMS, key_terms
from bank.importer import import_files, parse_file, parse_files
from bank.kinds import SUBJECTIVE
from bank.models import Paper
from bank.paper_store import paper_count
from bank.question_checks import fill_missing
from proctor.storage.db import Database
from proctor.storage.location import DbLocation

SEEDS_DIR = Path(bank.__file__).resolve().parent / "seeds"
SUBJECTS = SEEDS_DIR / "subjects.json"  # each bundled paper's subject, by slug (migration 037 gives the same)


async def open_database(path: DbLocation | str, *, create: bool = True) -> Database:
    """The database as the bot and the CLI start with it: opened, migrated, and with the data a SQL
    migration cannot compute (it needs Python) filled for rows that lack it: migration 013's
    import-time question checks (bank/question_checks.py). A missing file is created only if `create`
    (else DatabaseUnusable)."""
    db = await Database.open(path, create=create)
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

    papers = await import_files(db, sorted(SEEDS_DIR.glob("*.txt")), now, parse=_bundled_paper)
    return len(papers)


def _bundled_paper(path: Path | str) -> list[Paper]:
    """A bundled paper with its subject (the seed text format has no place for one)."""
    subjects: dict[str, str] = json.loads(SUBJECTS.read_text(encoding="utf-8"))
    return [p.model_copy(update={"subject": subjects.get(p.slug, p.subject)}) for p in parse_file(path)]


def seed_key_terms() -> dict[str, list[str]]:
    """Every bundled subjective reference answer and its key terms, found with jieba in this process.

    bank/seeds/key_terms.json holds this (a test checks it), so that importing the bundled bank
    segments nothing: `python -c "import proctor.storage.bootstrap as b; b.write_seed_key_terms()"` rewrites it.
    """

    refs = {q.answer for p in parse_files(sorted(SEEDS_DIR.glob("*.txt"))) for q in p.questions()
            if q.kind in SUBJECTIVE and isinstance(q.answer, str) and q.answer.strip()}
    return {r: list(key_terms(r)) for r in sorted(refs)}


def write_seed_key_terms() -> None:
    SEED_TERMS.write_text(json.dumps(seed_key_terms(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
