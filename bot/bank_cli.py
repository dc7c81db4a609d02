"""`proctor import PATH...`, `proctor bank {stats,show,lint,export,set}` and `proctor status`."""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bank.errors import BankError
from bank.formats import EXPORT_FORMATS, FileFormat
from bank.formats.files import export, read_any, template
from bank.formats.summary import ExportSummary, without_retired
from bank.kinds import CHOICE, Kind
from bank.lint import lint, summary
from bank.models import Paper, Question
from bank.paper_counts import Tally, tally
from bank.paper_list import paper_summaries
from bank.paper_settings import BadSetting
from bank.paper_store import get_question, list_papers
from bank.question_ref import BankId, find_question
from bank.round_trip import PaperChanges
from bot import authoring_cli, leadership
from bot.authoring_cli import add_edit_command, add_paper_commands, edit_commands, paper_commands
from bot.i18n import question_text, t, tn
from bot.invite_cli import add_invite_commands, invite_commands
from bot.lint_lines import lint_place, lint_text
from bot.paper_counts import change_text, tally_text
from bot.team_cli import add_team_commands, team_commands
from proctor import outbox
from proctor.errors import ProctorError
from proctor.exams.service import running_counts
from proctor.storage.bootstrap import ensure_default_bank, open_database
from proctor.storage.db import Database, unusable
from proctor.storage.location import DbLocation, PostgresUrl
from proctor.teams.curation import confirm_key, update_settings
from proctor.teams.file_edits import Imported, import_or_update
from proctor.teams.paper_counts import asked, paper_tallies
from proctor.teams.question_edit import answer_count

QUESTION_HELP = "its reference (P3 Q43, P3·Q43) or its bank id"


def add_bank_commands(subparsers: argparse._SubParsersAction) -> None:
    imp = subparsers.add_parser("import", help="import papers: seed text, JSON, GIFT, Aiken, Moodle XML, XLSX, CSV; "
                                                  "an exported file updates the papers it came from")
    imp.add_argument("paths", nargs="+", metavar="PATH")
    subparsers.add_parser("status", help="running attempts and messages waiting to be delivered; on PostgreSQL, "
                          "which process leads and whether a standby waits")
    imp.add_argument("--as-new", action="store_true", help="import a paper even if another paper has its title")
    imp.add_argument("--regrade", action="store_true",
                     help="an exported file imported back: rescore past answers to the questions whose key it changes "
                          "(the candidates whose score changes are told)")
    bank = subparsers.add_parser("bank", help="inspect the question bank")
    sub = bank.add_subparsers(dest="bank_command", required=True)
    authoring_cli.add_upload_arguments(imp, sub)
    sub.add_parser("list", help="every paper with its code (P3): what /papers, /invite and these commands take")
    sub.add_parser("stats", help="per paper and kind: askable, held, unaskable and retired questions")
    show = sub.add_parser("show", help="one question")
    show.add_argument("question", nargs="+", metavar="QUESTION", help=QUESTION_HELP)
    sub.add_parser("lint", help="every flag and oddity")
    exp = sub.add_parser("export", help="the bank as JSON (default), GIFT, Aiken, Moodle XML, XLSX or CSV")
    exp.add_argument("--format", choices=[f.value for f in EXPORT_FORMATS], default="json", dest="fmt")
    _output_arguments(exp)
    tpl = sub.add_parser("template", help="an empty spreadsheet template, one example row per kind")
    tpl.add_argument("--format", choices=[FileFormat.xlsx.value, FileFormat.csv.value], default="xlsx", dest="fmt")
    _output_arguments(tpl)
    confirm = sub.add_parser("confirm", help="confirm a key in doubt: the question is asked again (audited)")
    confirm.add_argument("question", nargs="+", metavar="QUESTION", help=QUESTION_HELP)
    st = sub.add_parser("set", help="a paper's settings: time limit, attempts, grading, exam-only …")
    st.add_argument("paper", metavar="PAPER", help="its code (P3), title or part of it (see `proctor bank list`)")
    st.add_argument("--time-limit", type=int, metavar="MIN", dest="time_limit_min")
    st.add_argument("--attempts", metavar="N|unlimited", dest="attempts_allowed")
    st.add_argument("--grading", choices=["best", "last"], dest="grading_method")
    st.add_argument("--multi-policy", choices=["all-or-nothing", "partial", "weighted"], dest="multi_policy")
    st.add_argument("--exam-only", choices=["on", "off"], dest="exam_only")
    st.add_argument("--shuffle", choices=["on", "off"], dest="shuffle_options")
    st.add_argument("--invite-only", choices=["on", "off"], dest="invite_only",
                    help="only an invite opens it (implies exam-only)")
    st.add_argument("--review", choices=["score", "sections", "full", "none"], dest="review",
                    help="what a candidate sees at the end")
    st.add_argument("--pass", metavar="PERCENT|off", dest="pass_percent",
                    help="the pass mark in percent of the maximum: the result card says Passed or Failed")
    st.add_argument("--signals", choices=["on", "off"], dest="signals",
                    help="integrity signals for the leads to look at (docs/integrity-signals.md)")
    st.add_argument("--signal-similar", type=float, metavar="PERCENT", dest="signal_similar",
                    help="written answers at least this similar are flagged (default 90)")
    st.add_argument("--signal-fast", type=int, metavar="N", dest="signal_fast",
                    help="flag an attempt with N right answers faster than the question can be read (default 3)")
    st.add_argument("--signal-late", type=int, metavar="N", dest="signal_late",
                    help="flag an attempt with N answers changed in its last 30 seconds (default 3)")
    st.add_argument("--signal-quick", type=float, metavar="PERCENT", dest="signal_quick",
                    help="flag an attempt handed in under this percent of the paper's median time (default 33)")
    add_edit_command(sub)
    add_invite_commands(subparsers)
    add_team_commands(subparsers)
    add_paper_commands(subparsers)


def _output_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output "
                                                                "(never over an existing file unless --force)")
    command.add_argument("--force", action="store_true", help="with -o: replace FILE if it exists")


def run_bank_command(args: argparse.Namespace, db: DbLocation) -> int:
    """Run `import` or `bank ...` on the database file `db`; expected failures print one line to stderr
    and exit 1."""
    commands: dict[str, Callable[[Database, argparse.Namespace], Awaitable[int]]] = {
        "import": _import, "list": _list, "stats": _stats, "show": _show, "lint": _lint, "export": _export,
        "set": _set, "status": _status, "confirm": _confirm, "add": authoring_cli.add, **edit_commands(),
    }
    if args.command == "invite":
        commands = invite_commands()
    name = args.command if args.command in ("import", "status") else getattr(args, "bank_command", None)
    if args.command == "invite":
        name = args.invite_command
    if args.command == "paper":
        commands, name = paper_commands(), args.paper_command
    if args.command == "team":
        commands, name = team_commands(), args.team_command
    if name not in commands and name != "template":
        print(f"proctor: unknown command {args.command}", file=sys.stderr)
        return 2
    try:
        if name == "template":  # needs no database
            if args.output:
                _check_destination(args.output, force=args.force)
            return _write_out(template(FileFormat(args.fmt)), args.output, force=args.force)
        # only an import creates a database (a mistyped --db is refused, not made); like `proctor run`,
        # a database without papers gets the bundled bank first (not before an import: then the
        # imported papers are the bank)
        creates = name == "import" and not args.dry_run
        return asyncio.run(_with_db(commands[name], args, db, bundled=name != "import", create=creates,
                                    dry=name == "import" and args.dry_run))
    except (BankError, ProctorError) as e:
        print(f"proctor: {e}", file=sys.stderr)
        return 1
    except sqlite3.Error as e:  # the file turned out damaged under a query: still one line naming it
        print(f"proctor: {unusable(db, e)}", file=sys.stderr)
        return 1


async def _with_db(command, args, path: DbLocation, *, bundled: bool = False, create: bool = False,
                   dry: bool = False) -> int:
    # a dry run writes nothing, not even a new database file: without one, it previews against an empty bank
    new_file = isinstance(path, Path) and not path.exists()
    db = await open_database(":memory:" if dry and new_file else path, create=create)
    try:
        if bundled and (n := await ensure_default_bank(db, time.time())):
            print(f"proctor: a new database: imported the bundled bank first ({tn('n_paper', n, 'en')})",
                  file=sys.stderr)
        return await command(db, args)
    finally:
        await db.close()


async def _import(db: Database, args) -> int:
    before = await paper_tallies(db)
    done = await import_or_update(db, args.paths, time.time(), parse=read_any, as_new=args.as_new,
                                  regrade=args.regrade, dry_run=args.dry_run)
    after = before if args.dry_run else await paper_tallies(db)  # counted as stored, after the write
    for u in done.updated:
        print(await _updated(db, u, done, dry_run=args.dry_run, regrade=args.regrade))
        if u.paper.id is not None and (moved := change_text(before[u.paper.id], after[u.paper.id], "en")):
            print(f"  {moved}")
    if args.dry_run:
        if done.new:
            return await authoring_cli.dry_run(db, args, done.new)
        print("A dry run: nothing was written. To import, run the same command without --dry-run.")
        return 0
    papers = done.new
    codes = {p.slug: p.code for p in await paper_summaries(db, composed=True)}  # given when stored
    for paper in papers:
        label = paper.label if paper.code or not codes.get(paper.slug) else f"{codes[paper.slug]} {paper.title}"
        print(f"imported {label} ({tally_text(after[paper.id or 0], 'en')})")
    for item in lint(papers):  # the same warnings `proctor bank lint` gives
        print(f"warning: {lint_place(item, 'en')}: {item.code}: {lint_text(item, 'en')}", file=sys.stderr)
    return 0


async def _updated(db: Database, u: PaperChanges, done: Imported, *, dry_run: bool, regrade: bool) -> str:
    """What an exported file changed, or would change, in the paper it came from."""
    p = u.paper
    lines = [f"{'would update' if dry_run else 'updated'} {p.label} ({len(u.changes)} changed, "
             f"{len(u.added)} added, {u.unchanged} unchanged, {u.not_in_file} not in the file: kept)"]
    for c in u.changes:
        qid = c.old.id or 0
        v = done.versions.get(qid)
        version = v.version if v is not None else c.old.version + 1 if c.versioned else None
        line = f"  {question_text(p.ref_of(c.old), 'en')}: {c.describe()}" + (f" (version {version})" if version else "")
        if c.key_changed and v is not None and regrade:
            line += f"; {_n(v.answers, 'answer')} regraded, {_n(len(v.changes), 'score')} changed (the candidates " \
                    "are told when the bot runs)"
        elif c.key_changed and (n := await answer_count(db, qid)):
            line += f"; {_n(n, 'answer')} would be regraded" if regrade else \
                f"; {_n(n, 'answer_keeps_score')} (--regrade rescores)"
        lines.append(line)
    lines += [f"  new: {q.kind.value}: {q.stem[:60]}" for q in u.added]
    return "\n".join(lines)


def _n(n: int, word: str) -> str:
    """`n` and the word counted, "1 answer" or "2 answers" (the catalogue's `n_<word>`)."""
    return tn(f"n_{word}", n, "en")


async def _list(db: Database, args) -> int:
    for p in await paper_summaries(db, composed=True):
        marks = "".join(f" [{m}]" for m, on in (("exam-only", p.exam_only and not p.invite_only),
                                                ("invite-only", p.invite_only)) if on)
        print(f"{p.code:<5} {p.title} · {_n(p.askable, 'question')} · {p.time_limit_min} min{marks}")
    return 0


_STATS_HEAD = ("kind", "total", "askable", "held", "unaskable", "retired", "repaired", "no expl.", "not asked")


def _stats_row(name: str, c: Tally) -> str:
    figures = (c.total, c.askable, c.held, c.unaskable, c.retired, c.repaired, c.no_explanation, c.not_yet_asked)
    return f"  {name:<11}" + "".join(f"{n:>{len(h) + 2}}" for h, n in zip(_STATS_HEAD[1:], figures, strict=True))


async def _stats(db: Database, args) -> int:
    """Per paper and kind: where the questions stand (bank/paper_counts.py), then the bank's total."""
    papers = await list_papers(db, include_retired=True)
    ever = await asked(db, [q.id for p in papers for q in p.questions() if q.id is not None])
    lines = []
    counted = []
    for p in papers:
        whole = tally(p.questions(), asked=ever)
        counted.append(whole)
        lines += [p.label, "  " + f"{_STATS_HEAD[0]:<11}" + "".join(f"{h:>{len(h) + 2}}" for h in _STATS_HEAD[1:])]
        lines += [_stats_row(kind.value, tally([q for q in p.questions() if q.kind is kind], asked=ever))
                  for kind in Kind if any(q.kind is kind for q in p.questions())]
        lines += [_stats_row("all", whole), f"  {tally_text(whole, 'en')}", ""]
    lines.append(f"{_n(len(papers), 'paper')}, {tally_text(sum(counted, Tally(not_yet_asked=0)), 'en')}")
    print("\n".join(lines))
    return 0


async def _lint(db: Database, args) -> int:
    items = lint(await list_papers(db))
    for it in items:
        print(f"{lint_place(it, 'en')}: {it.code}: {lint_text(it, 'en')}")
    counts = ", ".join(f"{n} {code}" for code, n in sorted(summary(items).items()))
    print(_n(len(items), "item") + (f": {counts}" if counts else ""))
    return 0


async def _export(db: Database, args) -> int:
    if args.output:
        _check_destination(args.output, force=args.force)  # before the work and its notes: a typo costs one line
    fmt = FileFormat(args.fmt)
    # a composed paper too: its file imports back onto it
    papers = await list_papers(db, composed=True, include_retired=True)
    summary = ExportSummary()
    data, summary = export(without_retired(papers, summary), fmt, summary)
    for line in export_lines(summary, papers):
        print(line, file=sys.stderr)
    code = _write_out(data, args.output, force=args.force)
    if args.output:
        each = ", ".join(t("ex_paper_count", "en", paper=p, n=n, total=summary.counted(p))
                         for p, n in summary.written.items() if n)
        print(tn("ex_wrote", summary.total, "en", file=args.output, papers=summary.papers, each=each))
    return code


SHOWN_PLACES = 5  # questions named under each reason; the count says how many more


def export_lines(summary: ExportSummary, papers: list[Paper]) -> list[str]:
    """A line per reason a question was left out of the file (or written without a part of it), and the
    first questions it covers."""
    by_code = {p.code or p.title: p for p in papers}
    lines = []
    for reason, n in summary.by_reason().items():
        lines.append("left out: " + tn(f"ex_left_{reason.value}", n, "en"))
        covered = [x for x in summary.left_out if x.reason is reason]
        lines += [f"  {_left_out(by_code[x.paper], x.section, x.number)}" for x in covered[:SHOWN_PLACES]]
        if n > SHOWN_PLACES:
            lines.append(f"  {t('up_more', 'en', n=n - SHOWN_PLACES)}")
    return lines


def _left_out(paper: Paper, section: int, number: int) -> str:
    """A question an export left out: "P3 · Q43 (P3 title)"."""
    ref = paper.ref_at(section, number)
    return f"{question_text(ref, 'en')} ({paper.label})" if ref is not None else paper.label


def _check_destination(output: str, *, force: bool) -> None:
    """Raises BankError, as writing there would, if `output` cannot be written (checked without writing),
    and if a file is there already, unless `force`."""
    path = Path(output)
    folder = path.parent
    why = ("Is a directory" if path.is_dir() else "No such directory" if not folder.is_dir()
           else "Permission denied" if not os.access(path if path.exists() else folder, os.W_OK) else None)
    if why:
        raise BankError(f"{output}: cannot write it: {why}")
    if not force and path.exists():
        raise BankError(f"{output} exists; give --force to replace it, or another name")


def _write_out(data: str | bytes, output: str | None, *, force: bool = False) -> int:
    """`data` into the file `output` (a new file; an existing one only when `force`), else to standard
    output. Raises BankError."""
    if output:
        try:
            with open(output, "wb" if force else "xb") as f:  # "x": a file that appeared since the check is kept
                f.write(data.encode() if isinstance(data, str) else data)
        except FileExistsError:
            raise BankError(f"{output} exists; give --force to replace it, or another name") from None
        except OSError as e:
            raise BankError(f"{output}: cannot write it: {e.strerror or e}") from e
    elif isinstance(data, bytes):
        if sys.stdout.isatty():
            raise BankError("an XLSX workbook is binary: give -o FILE")
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data)
    return 0


async def _set(db: Database, args) -> int:
    changes = {}
    for name in ("time_limit_min", "grading_method", "multi_policy"):
        if getattr(args, name) is not None:
            changes[name] = getattr(args, name)
    if args.attempts_allowed is not None:
        value = args.attempts_allowed.lower()
        if value != "unlimited" and not value.isdigit():
            raise BadSetting("--attempts takes a number or 'unlimited'")
        changes["attempts_allowed"] = None if value == "unlimited" else int(value)
    for name in ("exam_only", "shuffle_options", "invite_only"):
        if getattr(args, name) is not None:
            changes[name] = getattr(args, name) == "on"
    if args.review is not None:
        changes["review"] = args.review
    if args.pass_percent is not None:
        changes["pass_percent"] = _percent(args.pass_percent)
    if args.signals is not None:
        changes["signals"] = args.signals == "on"
    for name in ("signal_similar", "signal_fast", "signal_late", "signal_quick"):
        if getattr(args, name) is not None:
            changes[name] = getattr(args, name)
    settings = await update_settings(db, args.paper, actor=0, now=time.time(), **changes)
    attempts = settings.attempts_allowed if settings.attempts_allowed is not None else "unlimited"
    print(f"{args.paper}: {settings.time_limit_min} min, attempts {attempts}, grading {settings.grading_method}, "
          f"multiple choice {settings.multi_policy.value}, exam-only {'on' if settings.exam_only else 'off'}, "
          f"shuffle {'on' if settings.shuffle_options else 'off'}, "
          f"invite-only {'on' if settings.invite_only else 'off'}, review {settings.review_option.value}, "
          f"pass mark {'off' if settings.pass_percent is None else f'{settings.pass_percent:g}%'}, "
          + (f"signals similar {settings.signal_similar:g}%, fast {settings.signal_fast}, "
             f"late {settings.signal_late}, quick {settings.signal_quick:g}%" if settings.signals else "signals off"))
    return 0


def _percent(value: str) -> float | None:
    value = value.strip().rstrip("%").lower()
    if value == "off":
        return None
    try:
        return float(value)
    except ValueError:
        raise BadSetting("--pass takes a percentage (e.g. 60) or 'off'") from None


async def _status(db: Database, args) -> int:
    if isinstance(db.location, PostgresUrl):  # which process leads, whether a standby waits, the clocks
        for line in leadership.status_lines(await leadership.read_status(db.location)):
            print(line)
    a = await running_counts(db, time.time())
    c = await outbox.counts(db)
    print(f"attempts: {a['running']} running ({a['timed']} timed, {a['overdue']} past their deadline)")
    print(f"messages: {c[outbox.Delivery.pending]} pending, {c[outbox.Delivery.undeliverable]} undeliverable, "
          f"{c[outbox.Delivery.delivered]} delivered")
    return 0


async def _confirm(db: Database, args) -> int:
    q = await get_question(db, await find_question(db, " ".join(args.question)))
    if not await confirm_key(db, q.id or 0, actor=0, now=time.time()):
        print(f"proctor: {question_text(q.ref, 'en')} is not held for its key", file=sys.stderr)
        return 1
    print(f"{question_text(q.ref, 'en')}: key confirmed, asked again")
    return 0


async def _show(db: Database, args) -> int:
    print(render_question(await get_question(db, await find_question(db, " ".join(args.question)))))
    return 0


def render_question(q: Question) -> str:
    """One question, readable in a terminal."""
    src = q.source
    head = (f"{question_text(q.ref, 'en')} · {src.paper_title or src.paper} · "
            f"{src.section_title or f'section {src.section}'}") if src else question_text(BankId(q.id or 0), "en")
    lines = [f"{head} · {q.kind.value} · {tn('n_point', q.points, 'en')}" + (" · retired" if q.retired else ""),
             question_text(BankId(q.id or 0), "en"), "", q.stem]
    if q.options:
        lines += [f"{chr(65 + i)}. {o}" for i, o in enumerate(q.options)]
    lines.append("")
    if q.kind in CHOICE or q.kind is Kind.truefalse:
        shown = {True: "true", False: "false"}.get(q.answer, q.answer) if isinstance(q.answer, bool) \
            else t("bank_letters", "en", letters=q.answer)  # the letters printed above: the bank's
        lines.append(f"Answer: {shown}")
    elif q.kind is Kind.fill:
        blanks = [" / ".join(alts) for alts in q.answer] if isinstance(q.answer, list) else [str(q.answer)]
        lines += [f"Blank {i}: {b}" for i, b in enumerate(blanks, start=1)]
    elif q.kind is Kind.numerical and isinstance(q.answer, list):
        lines += [f"Answer: {v}" + (f" ± {t}" if t not in ("0", "") else "") for v, t in q.answer]
    elif q.kind is Kind.matching and isinstance(q.answer, list):
        lines += [f"Pair: {left or '(distractor)'} -> {right}" for left, right in q.answer]
    else:
        lines += ["Reference answer:", str(q.answer)]
    if q.explanation:
        lines += ["", "Explanation:", q.explanation]
    if q.weights:
        lines += ["Weights: " + ", ".join(f"{w:g}" for w in q.weights)]
    if q.flags:
        lines += ["", "Flags: " + ", ".join(q.flags)]
    return "\n".join(lines)
