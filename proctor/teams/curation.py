"""A lead's changes to the bank, each the bank's write and its audit entry in one transaction:
retire or restore a question, a paper's settings (exam-only among them), confirm a key in doubt,
add a question, import an upload. The bank writes only its own tables (bank/store.py)."""

from __future__ import annotations

import sqlite3
from typing import Any

from bank.authoring import upload as up
from bank.authoring.add import Added, BadTarget, Claim, add_question_in, with_terms
from bank.formats import FileFormat
from bank.grading.terms import SegmentIn
from bank.item_stats import set_retired_in
from bank.models import Paper, PaperSettings, Question
from bank.paper_list import find_paper
from bank.paper_settings import check_settings, write_settings_in
from bank.paper_store import load_paper
from bank.question_checks import confirm_key_in
from proctor.audit import AuditAction, record_audit
from proctor.storage.db import Database
from proctor.teams.file_edits import Imported, import_found


async def set_retired(db: Database, question_id: int, retired: bool, *, lead: int,
                      chat_id: int | None, now: float) -> None:
    """Retire a question (never asked again) or restore it. Raises NotFound."""

    def transaction(conn: sqlite3.Connection) -> None:
        set_retired_in(conn, question_id, retired)
        record_audit(conn, at=now, actor=lead, chat_id=chat_id,
                     action=AuditAction.retire if retired else AuditAction.restore, target=f"question:{question_id}")

    await db.run_write(transaction)


async def write_settings(db: Database, paper_id: int, *, actor: int, chat_id: int | None, now: float,
                         **changes: Any) -> None:
    """THE writer of a paper's settings (`proctor bank set`, /bankstats, the desk): checked, written
    and audited as `paper_settings` on `paper:<id>` in one transaction. Raises NotFound, BadSetting."""
    checked = check_settings(changes)
    if not checked:
        return

    def transaction(conn: sqlite3.Connection) -> None:
        write_settings_in(conn, paper_id, checked)
        record_audit(conn, at=now, actor=actor, chat_id=chat_id, action=AuditAction.paper_settings,
                     target=f"paper:{paper_id}", **checked)

    await db.run_write(transaction)


async def update_settings(db: Database, paper_key: str, *, actor: int, now: float,
                          **changes: Any) -> PaperSettings:
    """Change some of a paper's settings in one audited transaction; returns them all.

    Raises NotFound for an unknown paper and BadSetting for a value out of range.
    """
    paper_id = (await find_paper(db, paper_key)).id
    await write_settings(db, paper_id, actor=actor, chat_id=None, now=now, **changes)
    return (await load_paper(db, paper_id)).settings


async def set_exam_only(db: Database, paper_id: int, on: bool, *, lead: int, chat_id: int | None,
                        now: float) -> None:
    """Mark a paper exam-only (kept out of practice and daily quizzes) or not; turning it off turns
    invite-only off too. Written by the one settings writer. Raises NotFound."""
    await write_settings(db, paper_id, actor=lead, chat_id=chat_id, now=now, exam_only=on)


async def confirm_key(db: Database, question_id: int, *, actor: int, now: float,
                      chat_id: int | None = None) -> bool:
    """A lead confirms a doubted key: the question is asked again. False if it was not held for its key.

    Audited in the same transaction. Raises NotFound.
    """

    def transaction(conn: sqlite3.Connection) -> bool:
        key = confirm_key_in(conn, question_id, actor=actor, now=now)
        if key is None:
            return False
        record_audit(conn, at=now, actor=actor, chat_id=chat_id, action=AuditAction.confirm_key,
                     target=f"question {question_id}", key=key)
        return True

    return await db.run_write(transaction)


async def add_question(db: Database, question: Question, *, paper_id: int | None, new_title: str = "",
                       section: int | None = None, actor: int, now: float, chat_id: int | None = None,
                       claim: Claim | None = None, segment_in: SegmentIn) -> Added:
    """Add `question` to paper `paper_id`, or to a new paper titled `new_title` (as
    bank.authoring.add.add_question_in), its key terms found where `segment_in` says (the bot's
    /newquestion: in a child); returns where it went.

    `claim` runs first in the same transaction (a draft is deleted there, and may raise to write
    nothing). Raises BadTarget, TermsUnavailable, or what `claim` raises; nothing is written then.
    """
    if paper_id is None and not new_title.strip():  # before the key terms' child process
        raise BadTarget("a new paper needs a title")
    question = await with_terms(question, segment_in=segment_in)

    def transaction(conn: sqlite3.Connection) -> Added:
        if claim is not None:
            claim(conn)
        added = add_question_in(conn, question, paper_id=paper_id, new_title=new_title, section=section, now=now)
        record_audit(conn, at=now, actor=actor, chat_id=chat_id, action=AuditAction.add_question,
                     target=f"question {added.question_id}", paper=added.slug, kind=question.kind.value)
        return added

    return await db.run_write(transaction)


async def import_upload(db: Database, pending: up.Pending, papers: list[Paper], digest: str,
                        fmt: FileFormat | None, *, now: float, chat_id: int | None) -> Imported:
    """Import the papers of a waiting upload as `proctor import` imports a file (file_edits.import_found:
    an exported file updates the papers it came from), mark it imported and audit it, in one
    transaction. `digest`: their content hash, `fmt`: the file's export format (read_for_import).

    Raises UploadChanged (the papers are not what the preview showed), UploadGone (imported or
    cancelled already), ImportFailed (another paper has a title of these), Outdated, Sealed,
    TermsUnavailable. Nothing is written when it raises.
    """
    counts, _ = up.count(papers)

    def claim(conn: sqlite3.Connection) -> None:
        up.import_upload_in(conn, pending, papers, digest, now=now)
        record_audit(conn, at=now, actor=pending.user_id, chat_id=chat_id, action=AuditAction.bank_upload,
                     target=pending.file_name, papers={c.slug: c.questions for c in counts})

    found = {p.slug: (p, pending.file_name) for p in papers}
    return await import_found(db, found, {pending.file_name: fmt}, now, actor=pending.user_id,
                              segment_in=SegmentIn.CHILD, claim=claim)
