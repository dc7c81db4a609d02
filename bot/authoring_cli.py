"""A lead's authoring from the shell: `proctor import --dry-run` (the chat's upload preview), `proctor bank
add` (/newquestion in one line), `proctor bank edit QUESTION ...` (what /editq does) and `proctor paper compose ...`
(what /newpaper does).

It sits with the other command-line modules (bot/*_cli.py, wired by bot/bank_cli.py) and calls the same
domain functions as the chat's bot/authoring/; a dry run's preview is the chat's own rendering
(bot.authoring.render.upload_preview)."""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bank.authoring.draft import KINDS
from bank.authoring.upload import preview_for
from bank.errors import BankError
from bank.formats.sheet import parse_key
from bank.grading.terms import SegmentIn
from bank.kinds import CHOICE, Kind
from bank.models import Paper, Question
from bank.option_order import LETTERS, MAX_OPTIONS
from bank.paper_list import paper_summaries, pick_paper
from bank.question_ref import find_question, question_ref
from bot.authoring.render import upload_preview
from bot.i18n import question_text, t, tn
from proctor.exams import blueprint as bp
from proctor.exams import compose
from proctor.storage.db import Database
from proctor.teams import question_edit as qe
from proctor.teams.curation import add_question

Command = Callable[[Database, argparse.Namespace], Awaitable[int]]


class BadQuestion(BankError):
    """`proctor bank add` was given a question the bank cannot take."""


def add_upload_arguments(imp: argparse.ArgumentParser, bank: argparse._SubParsersAction) -> None:
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
    where.add_argument("--paper", metavar="PAPER", help="an existing paper: its code (P3), title or part of it "
                                                        "(see `proctor bank list`)")
    where.add_argument("--new-paper", metavar="TITLE", dest="new_paper")


async def dry_run(db: Database, args: argparse.Namespace, papers: list[Paper]) -> int:
    """The upload preview of the files' `papers`, as the chat shows it; nothing is written."""

    names = ", ".join(p.rsplit("/", 1)[-1] for p in args.paths)
    print(upload_preview(await preview_for(db, names, papers), "en", "orig", shell=True))
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
    try:
        q.answer = parse_key(q, args.key)
    except ValueError as e:
        raise BadQuestion(f"--key: {e}") from None
    if kind in CHOICE and isinstance(q.answer, str) and any(ord(c) - 65 >= len(options) for c in q.answer):
        raise BadQuestion(f"--key {q.answer} names an option that is not there")
    # an imported paper (a composed one holds no questions of its own), by the one paper reference
    paper_id = None if args.paper is None else pick_paper(await paper_summaries(db), args.paper).id
    added = await add_question(db, q, paper_id=paper_id, new_title=args.new_paper or "", actor=0, now=time.time(),
                               segment_in=SegmentIn.THIS_PROCESS)
    print(f"added {question_text(added.ref, 'en')} to {added.paper}, {added.section}")
    return 0


def add_edit_command(bank_sub: argparse._SubParsersAction) -> None:
    edit = bank_sub.add_parser("edit", help="fix a question's key, stem, an option or its explanation (a new "
                                            "version, audited); --regrade rescores past answers to a new key")
    edit.add_argument("question", nargs="+", metavar="QUESTION", help="its reference (P3 Q43, P3·Q43) or its bank id")
    what = edit.add_mutually_exclusive_group(required=True)
    what.add_argument("--key", help="letters (ABD), true/false, blanks separated by |")
    what.add_argument("--stem")
    what.add_argument("--option", nargs=2, metavar=("LETTER", "TEXT"))
    what.add_argument("--explanation")
    edit.add_argument("--regrade", action="store_true", help="with --key: rescore every past answer (the "
                                                             "candidates whose score changes are told)")


def add_paper_commands(subparsers: argparse._SubParsersAction) -> None:
    paper = subparsers.add_parser("paper", help="compose a paper from the bank")
    sub = paper.add_subparsers(dest="paper_command", required=True)
    c = sub.add_parser("compose", help="a paper drawn by a blueprint: once for everyone, or per candidate",
                       description=f"Each --part is `{bp.LINE_HELP}`; or give --file with a TOML or JSON "
                                   "blueprint (title, minutes, exam_only, per_candidate, [[part]] kind, count, "
                                   "points, topics, papers). Options given override the file's.")
    c.add_argument("--file", metavar="FILE", help="a TOML or JSON blueprint")
    c.add_argument("--title")
    c.add_argument("--minutes", type=int)
    c.add_argument("--part", action="append", default=[], metavar="LINE")
    c.add_argument("--per-candidate", action="store_true", default=None, help="draw anew for each attempt")
    c.add_argument("--exam-only", action="store_true", default=None, help="no practice on it")
    c.add_argument("--dry-run", action="store_true", help="show the counts and points; write nothing")


def edit_commands() -> dict[str, Command]:
    return {"edit": _edit}


def paper_commands() -> dict[str, Command]:
    return {"compose": _compose}


async def _edit(db: Database, args: argparse.Namespace) -> int:
    if args.key is not None:
        edit = qe.Edit(qe.EditField.key, args.key)
    elif args.stem is not None:
        edit = qe.Edit(qe.EditField.stem, args.stem)
    elif args.explanation is not None:
        edit = qe.Edit(qe.EditField.explanation, args.explanation)
    else:
        letter, text = args.option
        if len(letter) != 1 or letter.upper() not in LETTERS:
            raise qe.BadEdit(f"--option takes a letter, not {letter!r}")
        edit = qe.Edit(qe.EditField.option, text, LETTERS.index(letter.upper()))
    if args.regrade and edit.field is not qe.EditField.key:
        raise qe.BadEdit("--regrade goes with --key")
    qid = await find_question(db, " ".join(args.question))
    done = await qe.edit_question(db, qid, edit, actor=0, now=time.time(), chat_id=None, regrade=args.regrade)
    line = f"{question_text(await question_ref(db, qid), 'en')}: version {done.version} ({done.field})"
    if args.regrade:
        line += "; " + t("eq_regraded", "en", answers=done.answers, changed=len(done.changes)) \
            + " (through the bot, when it runs)" * bool(done.changes)
    print(line)
    return 0


def _read_file(path: str) -> dict[str, Any]:
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise BankError(f"{path}: cannot read it: {e.strerror or e}") from e
    try:
        data = json.loads(raw) if path.lower().endswith(".json") else tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise bp.BadBlueprint(f"{path}: {e}") from e
    if not isinstance(data, dict):
        raise bp.BadBlueprint(f"{path}: expected a table (title, minutes, part)")
    return data


def _part_line(part: Any, where: str) -> str:
    """A [[part]] table as a blueprint line, so the file and the options are read by one parser."""
    if not isinstance(part, dict) or "kind" not in part or "count" not in part:
        raise bp.BadBlueprint(f"{where}: each part needs a kind and a count")
    words = [str(part["kind"]), str(part["count"])]
    if part.get("points") is not None:
        words.append(str(part["points"]))
    words += [f"topic:{x}" for x in part.get("topics", [])] + [f"paper:{x}" for x in part.get("papers", [])]
    if any(" " in w for w in words):
        raise bp.BadBlueprint(f"{where}: names without spaces, please")
    return " ".join(words)


async def _compose(db: Database, args: argparse.Namespace) -> int:
    data = _read_file(args.file) if args.file else {}
    parts = data.get("part", data.get("parts", []))
    lines = [_part_line(p, args.file or "") for p in parts] if isinstance(parts, list) else []
    lines += args.part
    title = args.title if args.title is not None else str(data.get("title", ""))
    minutes = args.minutes if args.minutes is not None else int(data.get("minutes", 60))
    blueprint = bp.parse_lines("\n".join(lines), await bp.paper_ids(db))
    draft = compose.Draft(
        title, minutes, blueprint,
        per_candidate=args.per_candidate if args.per_candidate is not None else bool(data.get("per_candidate")),
        exam_only=args.exam_only if args.exam_only is not None else bool(data.get("exam_only")))
    if args.dry_run:
        p = await compose.preview(db, draft)
    else:
        made = await compose.compose_paper(db, draft, actor=0, now=time.time())
        p = made.preview
    kinds = ", ".join(f"{k} {n}" for k, n in p.by_kind.items())
    head = "would compose" if args.dry_run else f"composed {made.slug} ({made.code}):"
    print(f"{head} {draft.title}: {tn('n_question', p.questions, 'en')} ({kinds}), "
          f"{tn('n_point', p.points, 'en')}, {draft.minutes} min, "
          f"{'drawn per candidate' if draft.per_candidate else 'the same for everyone'}"
          f"{', exam only' if draft.exam_only else ''}")
    return 0

