"""A question's reference `P3 · Q43` (bank/question_ref.py): n is the question's place in its own paper's
full order (held, unaskable and retired questions included), given when it is first written and never
changed by a confirmed key, /editq, /keyfix's edit, retiring, a re-import or `bank add`; a file carries
it so an import into an empty bank keeps it; migration 035 numbers the questions a release left."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bank.formats import FileFormat
from bank.formats.files import export, parse_any
from bank.formats.ref import read_ref, ref_text
from bank.grading.terms import SegmentIn
from bank.kinds import Kind
from bank.models import Question
from bank.paper_store import list_papers, load_paper
from bank.question_ref import BankId, QuestionRef, parse_question, question_id, question_ref, split_question
from proctor.storage.bootstrap import open_database
from proctor.teams import curation
from proctor.teams.file_edits import import_or_update
from proctor.teams.question_edit import Edit, EditField, edit_question
from tests.proctor.test_upgrade import load_release
from tests.template_db import copy_with_bundled_bank

RELEASE = Path(__file__).resolve().parents[1] / "fixtures" / "release_2026_12_05.sql"


def _refs(papers) -> dict[int, QuestionRef]:
    """Every stored question's reference by bank id, retired ones too."""
    return {q.id: q.ref for p in papers for q in p.questions() if q.id is not None}


async def _all(db) -> list:
    return [await load_paper(db, p.id, include_retired=True) for p in await list_papers(db)]


@pytest.fixture
async def bank(tmp_path):
    await copy_with_bundled_bank(tmp_path / "bank.db", 1.0)
    db = await open_database(tmp_path / "bank.db")
    yield db
    await db.close()


async def test_the_bundled_bank_is_numbered_in_each_papers_full_order(bank):
    for p in await _all(bank):
        order = [q.ref for q in p.questions()]
        assert [r.n for r in order] == list(range(1, len(order) + 1)), p.code
        assert {r.code for r in order} == {p.code}
    # P3's multiple-choice section starts after its 15 single-choice questions: its second is Q17
    p3 = next(p for p in await _all(bank) if p.code == "P3")
    assert p3.sections[1].questions[1].ref.n == len(p3.sections[0].questions) + 2


async def test_n_stays_through_confirm_edit_retire_reimport_and_add(bank, tmp_path):
    before = _refs(await _all(bank))
    held = [q.id for p in await _all(bank) for q in p.questions() if q.held == "key"]
    assert held, "the bundled bank holds keys in doubt"
    assert await curation.confirm_key(bank, held[0], actor=1, now=2.0)
    some = sorted(before)[3]
    await edit_question(bank, some, Edit(EditField.stem, "A new stem?"), actor=1, now=3.0, chat_id=None)
    await edit_question(bank, some + 1, Edit(EditField.explanation, "Why."), actor=1, now=3.0, chat_id=None)
    await curation.set_retired(bank, some + 2, True, lead=1, now=4.0, chat_id=None)
    papers = await list_papers(bank)
    data, _ = export(papers, FileFormat.csv)
    path = tmp_path / "bank.csv"
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    await import_or_update(bank, [path], 5.0, parse=parse_any)
    p3 = next(p for p in papers if p.code == "P3")
    added = await curation.add_question(
        bank, Question(number=0, kind=Kind.single, stem="Which?", options=["x", "y"], answer="A"),
        paper_id=p3.id, actor=1, now=6.0, segment_in=SegmentIn.THIS_PROCESS)
    after = _refs(await _all(bank))
    assert {k: after[k] for k in before} == before
    assert after[added.question_id] == QuestionRef("P3", max(r.n for r in before.values() if r.code == "P3") + 1,
                                                   added.question_id)


@pytest.mark.parametrize("fmt", [FileFormat.json, FileFormat.gift, FileFormat.xml, FileFormat.csv, FileFormat.xlsx])
async def test_an_export_imported_into_an_empty_bank_keeps_each_questions_n(bank, tmp_path, fmt):
    papers = await list_papers(bank)
    data, _ = export(papers, fmt)
    path = tmp_path / f"bank.{fmt.value}"
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    target = await open_database(tmp_path / "empty.db")
    try:
        await import_or_update(target, [path], 2.0, parse=parse_any)
        back = await list_papers(target)
    finally:
        await target.close()

    def by_text(ps):
        return {(p.code, q.stem, tuple(q.options)): q.ref.n for p in ps for q in p.questions()}

    theirs = by_text(back)
    assert theirs and {k: n for k, n in by_text(papers).items() if k in theirs} == theirs


def test_a_ref_carries_n_and_old_refs_read_as_before():
    q = Question(number=3, kind=Kind.short, stem="s", answer="a", seq=12,
                 source={"paper": "sums", "section": 2, "number": 3})
    assert ref_text("sums", 2, q) == "sums/s2/q3/n12/v1"
    assert ref_text("composed-1", 1, q) == "composed-1/s1/q3/v1"  # a composed paper's: n is its home's
    back = Question(number=3, kind=Kind.short, stem="s", answer="a")
    read_ref(back, "sums/s2/q3/n12/v4")
    assert (back.seq, back.version, back.origin.number) == (12, 4, 3)
    old = Question(number=3, kind=Kind.short, stem="s", answer="a")
    read_ref(old, "sums/s2/q3/v2")
    assert (old.seq, old.version, old.origin.section) == (None, 2, 2)


def test_what_a_person_types_for_a_question():
    for text in ("P3 Q43", "P3·Q43", "P3 · Q43", "p3q43", "P3/43", "P3 · 第43题", "P3 第43題"):
        assert parse_question(text) == QuestionRef("P3", 43), text
    for text in ("#83", "83", "bank id #83", "题库编号 #83"):
        assert parse_question(text) == BankId(83), text
    assert split_question("P3 Q43 the key is C") == (QuestionRef("P3", 43), "the key is C")
    assert split_question("83 the key is C") == (BankId(83), "the key is C")
    for text in ("P3", "Q43", "", "hello", "P3 Q43x"):
        assert parse_question(text) is None, text


async def test_a_reference_and_a_bank_id_find_the_same_question(bank):
    p3 = next(p for p in await _all(bank) if p.code == "P3")
    q = p3.sections[1].questions[1]
    assert await question_id(bank, QuestionRef("P3", q.ref.n)) == q.id
    assert await question_id(bank, BankId(q.id)) == q.id
    assert await question_ref(bank, q.id) == q.ref


async def test_the_upgrade_numbers_the_questions_a_release_left(tmp_path):
    path = tmp_path / "release.db"
    load_release(RELEASE, path)
    db = await open_database(path)
    await db.close()
    conn = sqlite3.connect(path)  # the migration's own result, read as the schema holds it
    try:
        rows = conn.execute("SELECT q.paper_id, q.seq, s.position, q.number, q.id FROM questions q "
                            "JOIN sections s ON s.id = q.section_id ORDER BY q.paper_id, s.position, q.number, q.id")
        by_paper: dict[int, list[int]] = {}
        for paper, seq, *_ in rows:
            by_paper.setdefault(paper, []).append(seq)
    finally:
        conn.close()
    assert by_paper and all(seqs == list(range(1, len(seqs) + 1)) for seqs in by_paper.values())
