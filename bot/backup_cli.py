"""`proctor backup FILE` and `proctor restore FILE`: the record survives the machine
(proctor/storage/backups.py does the work on a SQLite file, proctor/storage/pg_backups.py on a
PostgreSQL record; docs/operations-backups.md says how to run them)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from bank.errors import BankError
from proctor.errors import ProctorError
from proctor.storage import backups, pg_backups
from proctor.storage.location import DbLocation, PostgresUrl


def add_backup_commands(subparsers: argparse._SubParsersAction) -> None:
    b = subparsers.add_parser("backup", help="copy the database to FILE, also while the bot runs (a consistent copy)")
    b.add_argument("file", type=Path)
    b.set_defaults(backup_command=_backup)
    r = subparsers.add_parser("restore", help="put the backup FILE in place of the database (stop the bot first)")
    r.add_argument("file", type=Path)
    r.set_defaults(backup_command=_restore)


def run_backup_command(args: argparse.Namespace, db: DbLocation) -> int:
    """Run `backup` or `restore` on the record at `db` (a SQLite file or a PostgreSQL URL); an expected
    failure prints one line to stderr and exits 1."""
    try:
        args.backup_command(args, db)
    except (BankError, ProctorError) as e:
        print(f"proctor: {e}", file=sys.stderr)
        return 1
    return 0


def _backup(args: argparse.Namespace, db: DbLocation) -> None:
    copy = pg_backups.backup(db, args.file) if isinstance(db, PostgresUrl) else backups.backup(db, args.file)
    print(f"backed up {db} to {copy.path}: {copy.size / 1e6:.1f} MB, "
          f"schema version {copy.version}, in {copy.seconds:.1f} s")


def _restore(args: argparse.Namespace, db: DbLocation) -> None:
    if isinstance(db, PostgresUrl):
        done = pg_backups.restore(args.file, db)
    else:
        done = asyncio.run(backups.restore(args.file, db, time.time()))
    migrated = f" (migrated from version {done.from_version})" if done.from_version != done.version else ""
    kept = f"; the database it replaced is kept as {done.kept}" if done.kept else ""
    print(f"restored {args.file} to {db}: schema version {done.version}{migrated}{kept}")
