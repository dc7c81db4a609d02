"""`proctor db copy SRC DST [--force]`: a whole record copied between SQLite and PostgreSQL, checked row
by row (proctor/storage/copy.py does the work; docs/moving.md says when to use it)."""

from __future__ import annotations

import argparse
import sys

from bank.errors import BankError
from proctor.errors import ProctorError
from proctor.storage.copy import copy_record
from proctor.storage.location import parse_location


def add_db_commands(subparsers: argparse._SubParsersAction) -> None:
    db = subparsers.add_parser("db", help="the record as a whole: copy it between SQLite and PostgreSQL")
    sub = db.add_subparsers(dest="db_command", required=True)
    c = sub.add_parser("copy", help="copy the whole record from SRC to DST (each a SQLite file or a postgresql:// "
                                    "URL) and check it row by row")
    c.add_argument("src", metavar="SRC", type=parse_location, help="the record to copy: a file or a URL")
    c.add_argument("dst", metavar="DST", type=parse_location,
                   help="where to: a new file, an empty PostgreSQL database, or an empty record")
    c.add_argument("--force", action="store_true", help="replace the record DST holds")
    c.set_defaults(db_run=_copy)


def run_db_command(args: argparse.Namespace) -> int:
    """Run `db copy`; an expected failure prints one line to stderr and exits 1."""
    try:
        args.db_run(args)
    except (BankError, ProctorError) as e:
        print(f"proctor: {e}", file=sys.stderr)
        return 1
    return 0


def _copy(args: argparse.Namespace) -> None:
    done = copy_record(args.src, args.dst, force=args.force)
    width = max((len(name) for name, _ in done.tables), default=0)
    for name, rows in done.tables:
        print(f"{name:<{width}}  {rows}")
    print(f"copied {done.rows} rows in {len(done.tables)} tables from {args.src} to {args.dst}; "
          f"checked row by row ({done.seconds:.1f} s)")
