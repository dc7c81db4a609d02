"""Shared fixtures: a real SQLite file per test, migrated (a copy of one migrated in this process)."""

from pathlib import Path

import pytest

from proctor.storage.db import Database
from tests.template_db import copy_migrated

SEEDS_DIR = Path(__file__).resolve().parents[1] / "bank" / "seeds"


@pytest.fixture
async def db(tmp_path):
    await copy_migrated(tmp_path / "proctor.db")  # the migrations ran once in this process (tests/template_db.py)
    database = await Database.open(tmp_path / "proctor.db")
    yield database
    await database.close()


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS_DIR.glob("*.txt"))


def pytest_collection_modifyitems(items):
    """Tests that start a real `proctor` child process (tests/process_helpers.py) are `slow`."""
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and hasattr(module, "ProctorProcess"):
            item.add_marker(pytest.mark.slow)


# the fake Bot API a real `proctor` child process talks to (the process tests' `api`; a module may define its own)
from tests.process_helpers import api  # noqa: E402,F401
