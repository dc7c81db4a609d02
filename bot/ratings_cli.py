"""`proctor ratings recompute|replay`: the ratings rebuilt from the record, or a response log replayed
with the same rule without touching the record (docs/ratings.md)."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path

from bank.errors import BankError
from proctor.errors import ProctorError
from proctor.ratings import events, replay
from proctor.ratings_rebuild import recompute
from proctor.storage.bootstrap import open_database
from proctor.storage.db import unusable
from proctor.storage.location import DbLocation


def add_ratings_commands(subparsers: argparse._SubParsersAction) -> None:
    ratings = subparsers.add_parser("ratings", help="people's ratings and questions' measured difficulties")
    sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rec = sub.add_parser("recompute", help="rebuild the ratings from the record: every counted answer, "
                                           "in the order it counted")
    rec.add_argument("--out", metavar="RATINGS.csv", help="write the people's ratings too")
    rec.add_argument("--items", metavar="ITEMS.csv", help="write the questions' measured difficulties too")
    rec.set_defaults(ratings_run=_recompute)
    rep = sub.add_parser("replay", help="replay a response log (columns user, item, correct 0-1, at) with the "
                                        "same rule, in time order; the record is not touched")
    rep.add_argument("log", metavar="LOG.csv", type=Path)
    rep.add_argument("--out", metavar="RATINGS.csv", required=True,
                     help="user,rating,uncertainty,answers,provisional")
    rep.add_argument("--items", metavar="ITEMS.csv", help="item,difficulty,uncertainty,answers")
    rep.set_defaults(ratings_run=_replay)


def run_ratings_command(args: argparse.Namespace, db: DbLocation) -> int:
    """Run `ratings recompute` on the database file `db`, or `ratings replay` (no database); an
    expected failure prints one line to stderr and exits 1."""
    try:
        return int(args.ratings_run(args, db))
    except (BankError, ProctorError) as e:
        print(f"proctor: {e}", file=sys.stderr)
        return 1
    except sqlite3.Error as e:
        print(f"proctor: {unusable(db, e)}", file=sys.stderr)
        return 1


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise BankError(f"{path}: cannot write it: {e.strerror or e}") from None


def _replay(args: argparse.Namespace, _db: DbLocation) -> int:
    try:
        text = args.log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BankError(f"{args.log}: cannot read it: {getattr(e, 'strerror', None) or e}") from None
    log = replay.read_log(text)
    folded = replay.replay(log)
    _write(args.out, replay.people_csv(folded, log[-1].at if log else 0.0))
    if args.items:
        _write(args.items, replay.items_csv(folded))
    counted = sum(len(a) for a in folded.answered.values())
    print(f"replayed {len(log)} answers ({counted} first answers); people rated: {len(folded.people)}, "
          f"items measured: {len(folded.questions)} -> {args.out}")
    return 0


def _recompute(args: argparse.Namespace, path: DbLocation) -> int:
    return asyncio.run(_recompute_in(args, path))


async def _recompute_in(args: argparse.Namespace, path: DbLocation) -> int:
    db = await open_database(path, create=False)
    try:
        now = time.time()
        done = await recompute(db, now)
        print(f"ratings rebuilt from the record: {done.events} counted answers ({done.added} added, "
              f"{done.regraded} regraded); people rated: {done.people}, questions measured: {done.questions}")
        if args.out or args.items:
            folded = await db.run(events.fold_in)
            if args.out:
                _write(args.out, replay.people_csv(folded, now))
            if args.items:
                _write(args.items, replay.items_csv(folded))
        return 0
    finally:
        await db.close()
