"""`proctor import` of an exported file: the papers it came from are updated in place.

A file the bank exported carries each question's identity (bank/formats/ref.py). Imported back, each
question it changes becomes a new version, as /editq makes one (proctor/teams/question_edit.py: the old
text kept, answers graded against the version their sheet showed, audited), and its key change regrades
past answers only when asked; a question without an identity is added to its paper; the paper's
questions the file leaves out stay as they are. A composed paper's questions are other papers'
(composed_items): an edit of their text or key is theirs, wherever they are drawn, its points are the
composed paper's own, and a new question cannot join it. Papers the file does not name are imported as
before (bank.importer). Everything is planned first (a dry run stops there) and written in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bank import round_trip
from bank.authoring.add import place_question
from bank.errors import ImportFailed
from bank.formats import FileFormat
from bank.formats.files import as_carried, export, export_format, parse_bytes
from bank.grading.terms import SegmentIn
from bank.importer import Parse, as_written, parse_by_slug, write_found_in
from bank.kinds import SUBJECTIVE
from bank.models import Paper, Question, Section
from bank.paper_store import (
    fill_key_terms,
    list_papers,
    load_paper,
    load_paper_in,
    with_key_terms,
    write_papers,
)
from bank.round_trip import Change, PaperChanges
from proctor.audit import AuditAction, record_audit
from proctor.exams.seal import sealed_anywhere
from proctor.storage.db import Database
from proctor.teams.question_edit import Edited, Sealed, edit_in


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did, or on a dry run would do."""

    updated: list[PaperChanges]  # papers the files came from, updated in place
    new: list[Paper]  # papers imported as before: new ones, or by their slug
    versions: dict[int, Edited]  # question id -> the version written (empty on a dry run)


Found = dict[str, tuple[Paper, str]]  # a parsed paper's slug -> (the paper, the file it came from)


async def import_or_update(db: Database, paths: Iterable[Path | str], now: float, *, parse: Parse,
                           as_new: bool = False, regrade: bool = False, dry_run: bool = False,
                           actor: int = 0) -> Imported:
    """`proctor import`: the files read with `parse`, then `import_found`. Raises ImportFailed, Outdated,
    Sealed, Changed (nothing is written then)."""
    paths = list(paths)
    found = parse_by_slug(paths, parse)
    formats = {str(p): export_format(p) for p in dict.fromkeys(file for _, file in found.values())}
    return await import_found(db, found, formats, now, as_new=as_new, regrade=regrade, dry_run=dry_run,
                              actor=actor)


async def import_found(db: Database, found: Found, formats: Mapping[str, FileFormat | None], now: float, *,
                       as_new: bool = False, regrade: bool = False, dry_run: bool = False, actor: int = 0,
                       segment_in: SegmentIn = SegmentIn.THIS_PROCESS,
                       claim: Callable[[sqlite3.Connection], object] | None = None) -> Imported:
    """Import parsed files, `proctor import` and a chat upload alike: an exported one updates the papers it
    came from (see the module), the rest is imported as `bank.importer.import_files` does. `formats`: each
    file's export format (None: the seed text format); `claim` runs first in the writing transaction (an
    upload marks itself imported there, and may raise to write nothing); `segment_in`: where new key terms
    are found. Raises ImportFailed, Outdated, Sealed, Changed (nothing is written then)."""
    if not found:
        raise ImportFailed("(no files)", "arguments", "nothing to import")
    stored = {r["slug"] for r in await db.fetchall("SELECT slug FROM papers")}
    if as_new:  # an exported file's paper keeps its slug from its refs: as a new paper it takes a free one
        found = _fresh_slugs(found, stored)
    aiken = await _aiken_carried(db, found, formats) if not as_new else {}
    if aiken:
        _match_stems(found, formats, aiken, {q.fingerprint: q for p in await list_papers(db) for q in p.questions()})
    incoming: dict[str, list[Question]] = {}  # a stored paper's slug -> the file's questions for it
    files: dict[str, str] = {}
    rest = {}
    for slug, (paper, file) in found.items():
        by_target = _by_target(paper, stored, file)
        if not by_target or as_new:
            rest[slug] = (paper, file)
            continue
        for target, questions in by_target.items():
            if files.setdefault(target, file) != file:
                raise ImportFailed(file, f"paper {target}", f"the same paper also comes from {files[target]}")
            incoming.setdefault(target, []).extend(questions)
    updated = await _plan(db, incoming, files, formats, aiken)
    seal = await sealed_anywhere(db)
    for u in updated:
        for c in u.changes:
            if seal.covers(c.old.id or 0):
                raise Sealed(f"question {c.old.id} is on a running exam; import the file when it has ended")
    new = [paper for paper, _ in rest.values()]
    if dry_run:
        return Imported(updated, new, {})
    new = await with_key_terms(new, segment_in=segment_in)
    # the added questions' key terms, found before the transaction (as bank.authoring.add does)
    added = await with_key_terms([Paper(slug="added", title="added", sections=[
        Section(kind=q.kind, title="", questions=[q]) for q in u.added]) for u in updated if u.added],
        segment_in=segment_in)
    versions: dict[int, Edited] = {}

    def transaction(conn: sqlite3.Connection) -> list[int]:
        if claim is not None:
            claim(conn)
        ids = write_found_in(conn, rest, new, now, as_new=as_new) if new else []
        for u in updated:
            for c in u.changes:
                if (edited := _change_in(conn, u.paper, c, now=now, actor=actor, regrade=regrade)) is not None:
                    versions[c.old.id or 0] = edited
        for u, holder in zip([u for u in updated if u.added], added, strict=True):
            _add_in(conn, u.paper, holder.questions(), now=now, actor=actor)
        return ids

    ids = await db.run_write(transaction)
    subjective = [qid for u in updated for c in u.changes if c.key_changed and c.old.kind in SUBJECTIVE
                  if (qid := c.old.id) is not None]
    if subjective:  # their key terms, found again from the new reference (as /editq does)
        await fill_key_terms(db, subjective, segment_in=segment_in)
    return Imported(updated, await as_written(db, new, ids), versions)


def _fresh_slugs(found: Found, stored: set[str]) -> Found:
    """`found` with each paper whose slug a stored paper has given the first free `slug-2`, `slug-3`, …"""
    taken = stored | set(found)
    out: Found = {}
    for slug, (paper, file) in found.items():
        if slug in stored:
            n = 2
            while f"{slug}-{n}" in taken:
                n += 1
            slug = f"{slug}-{n}"
            taken.add(slug)
            paper = paper.model_copy(update={"slug": slug})
        out[slug] = (paper, file)
    return out


async def _aiken_carried(db: Database, found: Found, formats: Mapping[str, FileFormat | None]) -> dict[str, Question]:
    """When a file is Aiken: each stored question that Aiken carries, as Aiken carries it (exported and
    read back), by the stored question's fingerprint, in bank order; else nothing."""
    if not any(formats.get(file) is FileFormat.aiken for _, file in found.values()):
        return {}
    bank = [p for p in await list_papers(db) if p.questions()]
    if not bank:
        return {}
    data, summary = export(bank, FileFormat.aiken)
    left = {(x.paper, x.section, x.number) for x in summary.left_out}
    written = [q for p in bank for pos, s in enumerate(p.sections, start=1) for q in s.questions
               if (p.code or p.title, pos, q.number) not in left]
    back = parse_bytes(data.encode() if isinstance(data, str) else data, "baseline.aiken")
    return {q.fingerprint: carried for q, carried in zip(written, [x for p in back for x in p.questions()], strict=True)}


def _match_stems(found: Found, formats: Mapping[str, FileFormat | None], carried: dict[str, Question],
                 stored: dict[str, Question]) -> None:
    """An Aiken file carries no refs: each of its questions whose stem is, exactly, that of a stored question
    Aiken carries is taken for that question (the n-th such stem in the file for the n-th in the bank), so
    the file imported back updates the bank in place."""
    by_stem: dict[str, list[Question]] = {}
    for fp, q in carried.items():
        by_stem.setdefault(q.stem, []).append(stored[fp])
    for paper, file in found.values():
        if formats.get(file) is not FileFormat.aiken:
            continue
        for q in paper.questions():
            if q.origin is None and (homes := by_stem.get(q.stem)):
                home = homes.pop(0)
                q.origin, q.version = home.source, home.version


def _by_target(paper: Paper, stored: set[str], file: str) -> dict[str, list[Question]]:
    """A parsed paper's questions by the stored paper their identity names (a GIFT or Moodle XML file
    holds the questions of every paper exported in one); those without one go to the paper the others
    came from. Empty: the paper names no stored paper (it is imported as a paper of its own)."""
    out: dict[str, list[Question]] = {}
    unplaced = []
    for q in paper.questions():
        if q.origin is not None and q.origin.paper in stored:
            out.setdefault(q.origin.paper, []).append(q)
        else:
            unplaced.append(q)
    if out and unplaced:
        if len(out) > 1:
            raise ImportFailed(file, _place(unplaced[0]), "a question without a ref among the questions of "
                               f"several papers ({', '.join(sorted(out))}): which paper would it join? Add it "
                               "with `proctor bank add`, or in a file of its paper's questions only")
        next(iter(out.values())).extend(unplaced)
    return out


def _place(q: Question) -> str:
    return f"question {q.number}" + (f" of section {q.source.section}" if q.source else "")


async def _plan(db: Database, incoming: dict[str, list[Question]], files: dict[str, str],
                formats: Mapping[str, FileFormat | None], aiken: dict[str, Question]) -> list[PaperChanges]:
    """What the files change in each stored paper they name; the baseline of a file's papers is one export
    (an Aiken file's: the bank's, `aiken`)."""
    papers = {slug: await load_paper(db, slug, include_retired=True) for slug in incoming}
    baseline: dict[str, Question] = {}
    for file in dict.fromkeys(files.values()):
        fmt = formats.get(file)
        if fmt is FileFormat.aiken:
            baseline |= aiken
            continue
        try:
            baseline |= round_trip.by_fingerprint(as_carried(
                [p for slug, p in papers.items() if files[slug] == file], fmt)) if fmt else {}
        except ImportFailed:  # nothing of the papers that this format carries
            pass
    planned = [round_trip.changes_to(papers[slug], questions, baseline, file=Path(files[slug]).name)
               for slug, questions in incoming.items()]
    edited: dict[int, str] = {}  # question id -> the paper whose file edits it
    for u in planned:
        file = Path(files[u.paper.slug]).name
        if u.added and u.paper.blueprint is not None:
            raise ImportFailed(file, f"paper {u.paper.slug}", f"{u.paper.label} draws its questions from other "
                               "papers: add the new question to one of them (`proctor bank add`), not to it")
        for c in u.changes:  # a composed paper and the paper it drew from, both in one export
            if (qid := c.old.id or 0) in edited and c.versioned:
                raise ImportFailed(file, f"paper {u.paper.slug}", f"the question with bank id #{qid} is edited twice, in "
                                   f"{edited[qid]} and in {u.paper.label}: edit it in one of them")
            if c.versioned:
                edited[qid] = u.paper.label
    return planned


def _change_in(conn: sqlite3.Connection, paper: Paper, c: Change, *, now: float, actor: int,
               regrade: bool) -> Edited | None:
    qid = c.old.id or 0
    n = c.new
    if any(f in round_trip.PLAIN for f in c.fields):
        composed = paper.blueprint is not None
        if composed and "points" in c.fields:  # the composed paper's own points; its home paper keeps its
            conn.execute("UPDATE composed_items SET points=? WHERE paper_id=? AND question_id=?",
                         (n.points, paper.id, qid))
        conn.execute(
            "UPDATE questions SET points=COALESCE(?, points), topic=?, difficulty=?, name=?, weights=?, feedback=?, "
            "flags=? WHERE id=?", (None if composed else n.points, n.topic, n.difficulty, n.name, _dumps(n.weights),
                                   _dumps(n.feedback), _dumps(n.flags), qid))
    if not c.versioned:
        return None
    fields = [f for f in c.fields if f in round_trip.VERSIONED]

    def text(old: Question) -> Question:
        return old.model_copy(update={f: getattr(n, f) for f in fields})

    return edit_in(conn, qid, text, "import:" + ",".join(round_trip.NAMES.get(f, f) for f in fields),
                   actor=actor, now=now, chat_id=None, regrade=regrade and c.key_changed,
                   expected_version=c.old.version)


def _add_in(conn: sqlite3.Connection, paper: Paper, questions: list[Question], *, now: float, actor: int) -> None:
    """The new questions at the end of their kind's last section of `paper`, as `proctor bank add` places one."""
    current = load_paper_in(conn, paper.id or 0, include_retired=True)  # with this transaction's edits
    for q in questions:
        current, _, _, _ = place_question(current, q.model_copy(update={"origin": None, "version": 1}), None)
    write_papers(conn, [current], now, same_title=True)
    for q in questions:
        record_audit(conn, at=now, actor=actor, chat_id=None, action=AuditAction.add_question, target=f"paper {paper.slug}",
                     paper=paper.slug, kind=q.kind.value)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
