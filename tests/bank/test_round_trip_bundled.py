"""The bundled bank, with settings and topics of its own, exported in each format and imported: into an
empty database it gives back every fact the format carries (papers with their codes, titles, subjects and
settings; sections in their places; each question's kind, text, options, key, points, explanation and
topic); onto the same database, through `proctor import` and through a chat upload alike, it changes
nothing and adds nothing. The summary of each export counts what the file holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bank.authoring import upload as up
from bank.formats import FileFormat
from bank.formats.files import export, format_of, parse_any, parse_bytes
from bank.formats.summary import KEPT, ExportSummary
from bank.kinds import SUBJECTIVE, Kind
from bank.models import Paper
from bank.paper_store import list_papers
from proctor.storage.bootstrap import open_database
from proctor.teams import curation
from proctor.teams.file_edits import import_or_update
from tests.template_db import copy_with_bundled_bank

CARRY_SETTINGS = (FileFormat.json, FileFormat.gift, FileFormat.xml, FileFormat.csv, FileFormat.xlsx)


async def _bank(tmp_path: Path):
    """The bundled bank with P1 exam-only (45 min, 2 attempts, review sections, pass 60 %), P2 invite-only
    (grading last, all-or-nothing, shuffle and signals off), topics on P1's first questions and all of P3."""
    path = tmp_path / "source.db"
    await copy_with_bundled_bank(path, 1.0)
    db = await open_database(path)

    def change(conn):
        conn.execute("UPDATE papers SET exam_only=1, time_limit_min=45, attempts_allowed=2, review='sections', "
                     "pass_percent=60 WHERE code='P1'")
        conn.execute("UPDATE papers SET exam_only=1, invite_only=1, grading_method='last', "
                     "multi_policy='all-or-nothing', shuffle_options=0, signals=0 WHERE code='P2'")
        conn.execute("UPDATE questions SET topic='并行' WHERE number<=4 AND paper_id=(SELECT id FROM papers WHERE code='P1')")
        conn.execute("UPDATE questions SET topic='混合精度' WHERE paper_id=(SELECT id FROM papers WHERE code='P3')")

    await db.run_write(change)
    return db


def _facts(papers: list[Paper], fmt: FileFormat, summary: ExportSummary | None = None) -> dict:
    """What `fmt` claims to carry of each paper (the questions the summary left out taken out)."""
    left = {(x.paper, x.section, x.number) for x in (summary.left_out if summary else []) if x.reason not in KEPT}
    out = {}
    for p in papers:
        questions = {}
        for pos, s in enumerate(p.sections, start=1):
            for q in s.questions:
                if (p.code, pos, q.number) in left:
                    continue
                kind = Kind.short if fmt is FileFormat.xml and q.kind in SUBJECTIVE else q.kind
                questions[(pos, q.number)] = (s.title, kind, q.stem, q.options, q.answer, q.points, q.explanation,
                                              q.topic) + ((q.flags, q.difficulty) if fmt is FileFormat.json else ())
        out[p.code] = (p.title, p.subject, p.settings, questions)
    return out


def _write(tmp_path: Path, fmt: FileFormat, data: str | bytes) -> Path:
    path = tmp_path / f"bank.{fmt.value}"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


async def _question_count(db) -> int:
    return int(await db.scalar("SELECT COUNT(*) FROM questions"))


@pytest.mark.parametrize("fmt", CARRY_SETTINGS)
async def test_into_an_empty_database_every_fact_the_format_carries(tmp_path, fmt):
    source = await _bank(tmp_path)
    try:
        papers = await list_papers(source)
        data, summary = export(papers, fmt)
    finally:
        await source.close()
    path = _write(tmp_path, fmt, data)
    target = await open_database(tmp_path / "target.db")
    try:
        await import_or_update(target, [path], 2.0, parse=parse_any)
        back = await list_papers(target)
    finally:
        await target.close()
    assert _facts(back, fmt) == _facts(papers, fmt, summary)
    # the summary's count is the file's: parsed back, question by question
    assert summary.total == sum(len(p.questions()) for p in back)
    assert summary.written == {p.code: len(p.questions()) for p in back}
    # no section renumbered: the last one a file holds questions of is where it was
    assert [len(p.sections) for p in back] == [
        max(pos for pos, _ in _facts([p], fmt, summary)[p.code][3]) for p in papers]


@pytest.mark.parametrize("fmt", CARRY_SETTINGS)
async def test_onto_the_same_database_nothing_changes_by_import_or_upload(tmp_path, fmt):
    db = await _bank(tmp_path)
    try:
        before = await list_papers(db)
        count = await _question_count(db)
        data, _ = export(before, fmt)
        path = _write(tmp_path, fmt, data)
        done = await import_or_update(db, [path], 2.0, parse=parse_any)
        assert done.new == []
        assert [(u.paper.code, len(u.changes), len(u.added)) for u in done.updated] == [
            (p.code, 0, 0) for p in before]
        raw = path.read_bytes()
        papers, digest, found = up.read_for_import(path.name, raw)
        assert found is format_of(path.name, raw) is fmt
        pid = await up.hold(db, user_id=1, chat_id=1, file_id="F", file_name=path.name, file_size=len(raw),
                            digest=digest, now=3.0)
        uploaded = await curation.import_upload(db, await up.get_pending(db, pid, 1), papers, digest, fmt, now=3.0,
                                                chat_id=1)
        assert uploaded.new == []
        assert [(u.paper.code, len(u.changes), len(u.added)) for u in uploaded.updated] == [
            (p.code, 0, 0) for p in before]
        assert await _question_count(db) == count
        assert _facts(await list_papers(db), FileFormat.json) == _facts(before, FileFormat.json)
    finally:
        await db.close()


async def test_aiken_into_an_empty_database_and_back_onto_the_same(tmp_path):
    db = await _bank(tmp_path)
    try:
        before = await list_papers(db)
        count = await _question_count(db)
        data, summary = export(before, FileFormat.aiken)
        path = _write(tmp_path, FileFormat.aiken, data)
        [paper] = parse_bytes(path.read_bytes(), path.name)  # one paper per file
        left = {(x.paper, x.section, x.number) for x in summary.left_out}
        written = [q for p in before for pos, s in enumerate(p.sections, start=1) for q in s.questions
                   if (p.code, pos, q.number) not in left]
        assert {q.kind for q in written} == {Kind.single}
        assert [(q.stem, q.options, q.answer) for q in paper.questions()] == [
            (q.stem, q.options, q.answer) for q in written]
        assert summary.total == len(paper.questions()) == 60
        assert paper.settings.exam_only and paper.settings.review == "score"
        assert [n.code for n in paper.notes] == ["settings_safe"]
        # onto the same database: every stem matches the question it came from
        done = await import_or_update(db, [path], 2.0, parse=parse_any)
        assert done.new == []
        assert sum(u.unchanged for u in done.updated) == summary.total
        assert all(not u.changes and not u.added for u in done.updated)
        assert await _question_count(db) == count
    finally:
        await db.close()


async def test_as_new_an_export_is_new_papers_beside_the_ones_it_came_from(tmp_path):
    db = await _bank(tmp_path)
    try:
        before = await list_papers(db)
        data, summary = export(before, FileFormat.csv)
        path = _write(tmp_path, FileFormat.csv, data)
        done = await import_or_update(db, [path], 2.0, parse=parse_any, as_new=True)
        assert done.updated == [] and len(done.new) == len(before)
        after = await list_papers(db)
        assert after[:len(before)] == before  # the papers it came from are as they were
        assert [p.slug for p in after[len(before):]] == [f"{p.slug}-2" for p in before]
        assert await _question_count(db) == sum(len(p.questions()) for p in before) + summary.total
    finally:
        await db.close()
