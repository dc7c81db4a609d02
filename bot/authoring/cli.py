"""The shell's side of a lead's authoring: `proctor import --dry-run` (the chat's upload preview)
and `proctor bank add` (/newquestion in one line)."""

from __future__ import annotations

import argparse
import time

from bank.authoring.add import add_question
from bank.authoring.draft import KINDS
from bank.authoring.upload import preview_for
from bank.errors import BankError
from bank.models import CHOICE, Kind, Question
from bank.option_order import MAX_OPTIONS
from proctor.storage.db import Database


class BadQuestion(BankError):
    """`proctor bank add` was given a question the bank cannot take."""


def add_arguments(imp: argparse.ArgumentParser, bank: argparse._SubParsersAction) -> None:
    imp.add_argument("--dry-run", action="store_true",
                     help="parse and preview (counts, warnings, the first questions); write nothing")
    add = bank.add_parser("add", help="add one question (audited), as /newquestion does in chat")
    add.add_argument("--kind", required=True, choices=[k.value for k in KINDS])
    add.add_argument("--stem", required=True)
    add.add_argument("--option", action="append", default=[], metavar="TEXT", help="repeat, in order (A, B, …)")
    add.add_argument("--key", required=True, help="A or ABD; true/false; blanks a|b, forms x;y; 3.14±0.01")
    add.add_argument("--explanation", default="")
    add.add_argument("--points", type=float, default=1.0)
    where = add.add_mutually_exclusive_group(required=True)
    where.add_argument("--paper", metavar="SLUG|ID", help="an existing paper (see `proctor bank stats`)")
    where.add_argument("--new-paper", metavar="TITLE", dest="new_paper")


async def dry_run(db: Database, args: argparse.Namespace) -> int:
    """The upload preview of the files, as the chat shows it; nothing is written."""
    from bank.formats.files import read_any
    from bank.importer import parse_files
    from bot.authoring.render import upload_preview

    papers = parse_files(args.paths, read_any)
    names = ", ".join(p.rsplit("/", 1)[-1] for p in args.paths)
    print(upload_preview(await preview_for(db, names, papers), "en", "orig"))
    return 0


async def add(db: Database, args: argparse.Namespace) -> int:
    kind = Kind(args.kind)
    options = list(args.option) if kind in CHOICE else []
    if kind in CHOICE and not 2 <= len(options) <= MAX_OPTIONS:
        raise BadQuestion(f"a {kind.value} question takes 2 to {MAX_OPTIONS} --option")
    if kind not in CHOICE and args.option:
        raise BadQuestion(f"a {kind.value} question takes no --option")
    if not 0 < args.points <= 100:
        raise BadQuestion("--points takes a number above 0 and at most 100")
    q = Question(number=0, kind=kind, stem=args.stem.strip(), options=options, answer="",
                 explanation=args.explanation.strip(), points=args.points, held="")
    if not q.stem:
        raise BadQuestion("--stem is empty")
    from bank.formats.sheet import parse_key  # `proctor run` builds this parser too: load on use

    try:
        q.answer = parse_key(q, args.key)
    except ValueError as e:
        raise BadQuestion(f"--key: {e}") from None
    if kind in CHOICE and isinstance(q.answer, str) and any(ord(c) - 65 >= len(options) for c in q.answer):
        raise BadQuestion(f"--key {q.answer} names an option that is not there")
    paper_id = None
    if args.paper is not None:
        key = int(args.paper) if args.paper.isdigit() else args.paper
        row = await db.fetchone(f"SELECT id FROM papers WHERE {'id' if isinstance(key, int) else 'slug'}=?", (key,))
        if row is None:
            raise BadQuestion(f"no paper {args.paper}")
        paper_id = row["id"]
    added = await add_question(db, q, paper_id=paper_id, new_title=args.new_paper or "", actor=0, now=time.time())
    print(f"added question #{added.question_id} to {added.paper}, {added.section}, number {added.number}")
    return 0
