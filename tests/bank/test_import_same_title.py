"""A truncated or renamed copy of a seed file is refused, naming the paper that has its title;
`proctor import --as-new` takes it anyway; re-importing the same file still updates in place."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bank.errors import ImportFailed
from bank.importer import import_files
from bank.models import Paper
from bank.paper_store import list_papers, load_paper, paper_count
from proctor.storage.db import Database
from tests.process_helpers import child_env


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "bank" / "seeds" / "001_c9ee6912cd06a1b6.txt"


def stored(tmp_path: Path) -> list[Paper]:
    """The papers the `proctor` child wrote (read after it exited), retired questions too."""
    async def read() -> list[Paper]:
        db = await Database.open(tmp_path / "p.db")
        try:
            return [await load_paper(db, p.id, include_retired=True) for p in await list_papers(db)]
        finally:
            await db.close()

    return asyncio.run(read())


def proctor(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "bot.cli", "--db", str(tmp_path / "p.db"), *args],
                          env=child_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


def truncated_copy(tmp_path: Path, name: str = "copy.txt") -> Path:
    text = SEED.read_text(encoding="utf-8")
    copy = tmp_path / name
    copy.write_text(text[: len(text) // 2], encoding="utf-8")
    return copy


def test_truncated_copy_is_refused_naming_the_paper_then_imported_with_as_new(tmp_path):
    code, out, err = proctor(tmp_path, "import", str(SEED))
    assert code == 0, err
    [paper] = stored(tmp_path)
    paper_id, title = paper.id, paper.title
    copy = truncated_copy(tmp_path)

    code, out, err = proctor(tmp_path, "import", str(copy))
    assert code == 1 and out == ""
    [line] = err.strip().splitlines()
    assert line.startswith(f"proctor: {copy}: paper copy: paper 001_c9ee6912cd06a1b6 (#{paper_id}")
    assert title in line and "--as-new" in line and "Traceback" not in err
    assert len(stored(tmp_path)) == 1

    code, out, err = proctor(tmp_path, "import", "--as-new", str(copy))
    assert code == 0, err
    assert [p.slug for p in stored(tmp_path)] == [
        "001_c9ee6912cd06a1b6", "copy"]


def test_reimport_of_the_same_file_updates_in_place(tmp_path):
    assert proctor(tmp_path, "import", str(SEED))[0] == 0
    before = [(q.id, q.fingerprint) for p in stored(tmp_path) for q in p.questions()]
    code, out, err = proctor(tmp_path, "import", str(SEED))
    assert code == 0, err
    assert len(stored(tmp_path)) == 1
    assert [(q.id, q.fingerprint) for p in stored(tmp_path) for q in p.questions()] == before


async def test_two_files_with_one_title_in_one_import_write_nothing(db, tmp_path):
    with pytest.raises(ImportFailed) as e:
        await import_files(db, [SEED, truncated_copy(tmp_path, "half.txt")], now=1.0)
    assert e.value.file.endswith("half.txt") and "paper 001_c9ee6912cd06a1b6" in e.value.problem
    assert await paper_count(db) == 0
    written = await import_files(db, [SEED, truncated_copy(tmp_path, "half.txt")], now=1.0, as_new=True)
    assert [p.slug for p in written] == ["001_c9ee6912cd06a1b6", "half"]
