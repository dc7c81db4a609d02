"""Migrated databases made once per test process and copied per test: migrating costs ~40 ms of CPU
and importing the bundled bank as much again, for every `db` fixture and every BotEnv start.

A template is made by the real code (Database.open migrates; ensure_default_bank imports the bank at
the `now` the bot would have used), closed, and only then copied. Why a copy is never torn:
- closing the last connection checkpoints the WAL into the main file and deletes -wal and -shm
  (checked below: a template with a -wal or -shm beside it is an error, not a copy), so the main
  file alone is the whole database;
- each test process (each xdist worker) makes its own templates in its own temporary folder, so no
  process reads a file another is writing; within a process a template is built under a unique name
  and renamed into place (two coroutines building the same one both finish a complete file);
- a copy goes only where no database is yet (no file, no -wal, no -shm), so no stale journal of an
  earlier database can be replayed onto it.
A template is what the code makes when first asked in a process: a test that changed what migrating or
the bundled bank produce (no test does) would have to make its own database.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
from pathlib import Path

from proctor.storage.bootstrap import ensure_default_bank
from proctor.storage.db import Database

_folder: Path | None = None
_made: dict[tuple[str, float], Path] = {}
_names = itertools.count()


def _here() -> Path:
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix=f"proctor-templates-{os.getpid()}-"))
        atexit.register(shutil.rmtree, _folder, True)
    return _folder


def _fresh(path: Path) -> bool:
    return not any(Path(f"{path}{end}").exists() for end in ("", "-wal", "-shm", "-journal"))


async def _template(kind: str, now: float) -> Path:
    key = (kind, now)
    if key in _made:
        return _made[key]
    building = _here() / f"building-{next(_names)}.db"
    db = await Database.open(building)
    try:
        if kind == "bank":
            await ensure_default_bank(db, now)
    finally:
        await db.close()
    if any(Path(f"{building}{end}").exists() for end in ("-wal", "-shm", "-journal")):
        raise RuntimeError(f"{building}: its WAL was not checkpointed on close; a copy could be torn")
    done = _here() / f"{kind}-{now!r}.db"
    os.replace(building, done)
    _made[key] = done
    return done


async def _copy(kind: str, path: Path, now: float) -> bool:
    if not _fresh(path):
        return False
    shutil.copyfile(await _template(kind, now), path)
    return True


async def copy_migrated(path: Path) -> bool:
    """A migrated, empty database at `path` if none is there yet; returns whether it copied one."""
    return await _copy("migrated", path, 0.0)


async def copy_with_bundled_bank(path: Path, now: float) -> bool:
    """What the bot's first start at `now` leaves (migrated, the bundled bank imported), if no database
    is at `path` yet; returns whether it copied one."""
    return await _copy("bank", path, now)
