"""A file a lead sends in chat: checked, parsed without writing, previewed, then imported or dropped.

Only Telegram's file id and the file's name are kept while the lead decides (`pending_uploads`):
the bytes may be up to 20 MB and Telegram keeps them. Import fetches the file again, parses it, and
writes only if it parses to the content hash the preview showed; then the papers, the upload's new
status and the audit row commit in one transaction, so a second press or a repeated update
imports once.

The file is read in a child process with a time limit (`bank.formats.child`): the preview's
parse, lint and hash there (`preview_upload`: only the hash and the preview come back), Import's
parse and hash there too (`read_for_import`: the papers, at most MAX_QUESTIONS of them, and the
hash), so no file holds the bot's process for longer than it takes to write what it holds.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import islice
from pathlib import Path
from typing import TypeVar

from bank.errors import BankError, NotFound
from bank.formats import FileFormat, child
from bank.formats.files import format_of, parse_bytes
from bank.importer.json_format import dumps, export_papers
from bank.kinds import Kind
from bank.lint import LintItem, lint
from bank.models import Paper, Question
from bank.paper_counts import Tally, tally_parsed
from bank.paper_store import list_papers
from bank.question_ref import QuestionRef
from bank.store import Store

MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # what a bot may download from Telegram (getFile)
TEXT_SUFFIXES = (".gift", ".txt", ".aiken", ".xml", ".csv", ".json")
ZIP_SUFFIXES = (".xlsx", ".xlsm")
SUFFIXES = TEXT_SUFFIXES + ZIP_SUFFIXES
PREVIEW_QUESTIONS = 3
T = TypeVar("T")
MAX_QUESTIONS = 5000  # a chat upload's; more is a job for `proctor import` at a shell


class UploadRefused(BankError):
    """A file the bot will not read: too big, or not a format (or not what its name says)."""


class UploadGone(BankError):
    """The upload was already imported or cancelled (a second press, a repeated update)."""


class UploadChanged(BankError):
    """The file fetched again for Import no longer parses to what the preview showed."""


class UploadStatus(StrEnum):
    pending = "pending"
    imported = "imported"
    cancelled = "cancelled"


def check_size(name: str, size: int | None) -> None:
    """Before downloading: a name the bank reads and a size Telegram lets a bot fetch.

    Raises UploadRefused.
    """
    if Path(name).suffix.lower() not in SUFFIXES:
        raise UploadRefused(f"{name}: not a question file; expected one of {', '.join(SUFFIXES)}")
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise UploadRefused(f"{name}: {size / 1_048_576:.1f} MB; a bot can fetch files up to "
                            f"{MAX_UPLOAD_BYTES // 1_048_576} MB")


def check_content(name: str, data: bytes) -> None:
    """The bytes are what the name says: a workbook is a zip, a text format is text. Raises UploadRefused."""
    suffix = Path(name).suffix.lower()
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadRefused(f"{name}: larger than {MAX_UPLOAD_BYTES // 1_048_576} MB")
    zipped = data[:4] == b"PK\x03\x04"
    if suffix in ZIP_SUFFIXES and not zipped:
        raise UploadRefused(f"{name}: named {suffix} but is not an XLSX workbook (not a zip file)")
    if suffix in TEXT_SUFFIXES and (zipped or b"\x00" in data[:8192]):
        raise UploadRefused(f"{name}: named {suffix} but is a binary file, not text")


def read_upload(name: str, data: bytes) -> list[Paper]:
    """The papers in an uploaded file, nothing written, in this process. Raises UploadRefused or
    ImportFailed (the importer's error, naming the line or the sheet, row and column; the
    workbook's zip-bomb cap)."""
    check_content(name, data)

    papers = parse_bytes(data, name)
    if (n := sum(len(p.questions()) for p in papers)) > MAX_QUESTIONS:
        raise UploadRefused(f"{name}: {n} questions; a chat upload takes at most {MAX_QUESTIONS} "
                            "(split the file, or use proctor import at a shell)")
    return papers


def preview_upload(name: str, data: bytes, bank: list[Paper]) -> tuple[str, Preview]:
    """The content hash and the preview of an uploaded file, read in a child process.

    Raises UploadRefused, ImportFailed (TooSlow past the time limit)."""
    check_content(name, data)  # a binary or mislabelled file is refused without a child
    return _in_child(_preview, name, data, bank)


def read_for_import(name: str, data: bytes) -> tuple[list[Paper], str, FileFormat | None]:
    """The papers of an uploaded file, their content hash and the file's export format (None: the seed
    text format), read in a child process.

    Raises UploadRefused, ImportFailed (TooSlow past the time limit)."""
    check_content(name, data)
    return _in_child(_papers_and_hash, name, data)


def _in_child(job: Callable[..., T], name: str, *args: object) -> T:
    try:
        return child.run(job, name, *args, file=name)
    except child.TooSlow as e:  # a real file that large is more questions than a chat upload takes
        raise UploadRefused(f"{e} A chat upload takes at most {MAX_QUESTIONS} questions.") from None


def _preview(name: str, data: bytes, bank: list[Paper]) -> tuple[str, Preview]:
    papers = read_upload(name, data)
    return content_hash(papers), preview(name, papers, bank)


def _papers_and_hash(name: str, data: bytes) -> tuple[list[Paper], str, FileFormat | None]:
    papers = read_upload(name, data)
    return papers, content_hash(papers), format_of(name, data)


def content_hash(papers: list[Paper]) -> str:
    """What the papers hold, as the JSON export writes it: the same file parses to the same hash."""

    return hashlib.sha256(dumps(export_papers(papers)).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class PaperCount:
    slug: str
    title: str
    questions: int
    kinds: dict[Kind, int]
    tally: Tally | None = None  # a preview's: where its questions will stand once stored (bank/paper_counts.py)


@dataclass(frozen=True, slots=True)
class Shown:
    """A question as the preview shows it: where it stands and the question itself."""

    paper: str
    section: str
    question: Question
    ref: QuestionRef  # its reference: the stored one, or "new paper · Q12" (Paper.ref_of)


@dataclass(frozen=True)
class Preview:
    file_name: str
    papers: list[PaperCount]
    kinds: dict[Kind, int]
    warnings: list[LintItem]  # codes with parameters: a chat says them in its language
    first: list[Shown]
    updates: list[str] = field(default_factory=list)  # titles of papers already in the bank: updated in place

    @property
    def total(self) -> int:
        return sum(p.questions for p in self.papers)


def count(papers: list[Paper]) -> tuple[list[PaperCount], dict[Kind, int]]:
    """Questions per paper and kind, and per kind in all."""
    counts: list[PaperCount] = []
    kinds: dict[Kind, int] = {}
    for p in papers:
        here: dict[Kind, int] = {}
        for q in p.questions():
            here[q.kind] = here.get(q.kind, 0) + 1
            kinds[q.kind] = kinds.get(q.kind, 0) + 1
        counts.append(PaperCount(p.slug, p.title, len(p.questions()), here))
    return counts, kinds


def preview(name: str, papers: list[Paper], bank: list[Paper]) -> Preview:
    """Counts per kind and paper (each paper's tally as it will stand once stored), the lint of the new
    papers (duplicates checked against the bank too) and the first questions."""
    counts, kinds = count(papers)
    counts = [replace(c, tally=tally_parsed(p)) for c, p in zip(counts, papers, strict=True)]
    new = {p.slug for p in papers}
    others = [p for p in bank if p.slug not in new]
    warnings = [item for item in lint(others + papers) if item.paper in new]
    taken = {p.title: p for p in others}
    warnings += [LintItem(p.slug, None, None, None, "same_title",
                          {"other": taken[p.title].code or taken[p.title].slug, "title": p.title}, p.title)
                 for p in papers if p.title in taken]
    shown = islice(((p, s, q) for p in papers for s in p.sections for q in s.questions), PREVIEW_QUESTIONS)
    first = [Shown(p.title, s.title, q, p.ref_of(q)) for p, s, q in shown]  # only those shown get a reference
    return Preview(name, counts, kinds, warnings, first,
                   [p.title for p in bank if p.slug in new])


async def preview_for(db: Store, name: str, papers: list[Paper]) -> Preview:
    return preview(name, papers, await list_papers(db))


@dataclass(frozen=True, slots=True)
class Pending:
    id: int
    user_id: int
    chat_id: int
    file_id: str
    file_name: str
    file_size: int
    content_hash: str
    status: UploadStatus


async def hold(db: Store, *, user_id: int, chat_id: int, file_id: str, file_name: str, file_size: int,
               digest: str, now: float) -> int:
    """Keep an upload waiting for Import or Cancel; returns its id."""

    def transaction(conn: sqlite3.Connection) -> int:
        cur = conn.execute(
            "INSERT INTO pending_uploads (user_id, chat_id, file_id, file_name, file_size, content_hash, "
            "created_at) VALUES (?,?,?,?,?,?,?) RETURNING id",
            (user_id, chat_id, file_id, file_name, file_size, digest, now))
        row = cur.fetchone()
        assert row is not None
        return int(row[0])

    return await db.run_write(transaction)


async def get_pending(db: Store, upload_id: int, user_id: int) -> Pending:
    """The user's own upload. Raises NotFound (also for someone else's)."""
    row = await db.fetchone("SELECT * FROM pending_uploads WHERE id=? AND user_id=?", (upload_id, user_id))
    if row is None:
        raise NotFound(f"no upload {upload_id}")
    return _pending(row)


def _pending(r: sqlite3.Row) -> Pending:
    return Pending(r["id"], r["user_id"], r["chat_id"], r["file_id"], r["file_name"], r["file_size"],
                   r["content_hash"], UploadStatus(r["status"]))


async def cancel(db: Store, upload_id: int, user_id: int, now: float) -> None:
    """Drop a waiting upload. Raises UploadGone if it was imported or cancelled already."""

    def transaction(conn: sqlite3.Connection) -> None:
        cur = conn.execute(
            f"UPDATE pending_uploads SET status='{UploadStatus.cancelled}', done_at=? WHERE id=? AND user_id=? "
            f"AND status='{UploadStatus.pending}'",
            (now, upload_id, user_id))
        if cur.rowcount != 1:
            raise UploadGone(f"upload {upload_id} is not waiting")

    await db.run_write(transaction)


async def cancel_all(db: Store, user_id: int, now: float) -> list[str]:
    """/cancel: every upload of the user waiting for Import is dropped; returns their file names."""

    def transaction(conn: sqlite3.Connection) -> list[str]:
        cur = conn.execute(
            f"UPDATE pending_uploads SET status='{UploadStatus.cancelled}', done_at=? WHERE user_id=? "
            f"AND status='{UploadStatus.pending}' RETURNING file_name", (now, user_id))
        return [str(r[0]) for r in cur.fetchall()]

    return await db.run_write(transaction)


def import_upload_in(conn: sqlite3.Connection, pending: Pending, papers: list[Paper], digest: str, *,
                     now: float) -> None:
    """Mark a waiting upload imported, inside the transaction that writes its papers (`digest`: their
    content hash, from read_for_import): the claim of proctor.teams.file_edits.import_found, which
    writes them as `proctor import` does (a lead's: proctor.teams.curation.import_upload, audited).

    Raises UploadChanged (the papers are not what the preview showed), UploadGone (imported or
    cancelled already); nothing is written then.
    """
    if digest != pending.content_hash:
        raise UploadChanged(f"{pending.file_name}: the file no longer reads as the preview showed")
    counts, _ = count(papers)
    cur = conn.execute(
        f"UPDATE pending_uploads SET status='{UploadStatus.imported}', done_at=?, result=? WHERE id=? "
        f"AND status='{UploadStatus.pending}'",
        (now, json.dumps({c.slug: c.questions for c in counts}), pending.id))
    if cur.rowcount != 1:
        raise UploadGone(f"upload {pending.id} is not waiting")
