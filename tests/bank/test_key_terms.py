"""Key terms of reference answers: found at import, stored in the bank, read by the grader."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bank.grading import grade, key_terms
from bank.grading.terms import SEED_TERMS, SegmentIn, terms_for
from bank.kinds import SUBJECTIVE
from bank.paper_store import fill_key_terms, get_question, list_papers
from proctor.storage.bootstrap import ensure_default_bank, seed_key_terms
from proctor.storage.db import Database, migration_files


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

REPO = Path(__file__).resolve().parents[2]


def test_bundled_key_terms_are_what_jieba_finds():
    assert json.loads(SEED_TERMS.read_text(encoding="utf-8")) == seed_key_terms()


async def test_import_stores_key_terms_and_grades_stay_exactly_the_same(db):
    await ensure_default_bank(db, now=1.0)
    subjective = [q for p in await list_papers(db) for q in p.questions() if q.kind in SUBJECTIVE]
    assert subjective and all(q.key_terms is not None for q in subjective)
    for q in subjective:
        reference = q.answer if isinstance(q.answer, str) else ""
        assert q.key_terms == list(key_terms(reference))
        unstored = q.model_copy(update={"key_terms": None})
        for typed in (reference, reference[: len(reference) // 2], reference[::3], "不知道", "模型 参数 梯度"):
            assert grade(q, typed) == grade(unstored, typed)


async def test_a_bank_from_before_key_terms_gets_them_filled(tmp_path):
    path = tmp_path / "old.db"
    db = await Database.open(path)
    await ensure_default_bank(db, now=1.0)
    await db.close()
    con = sqlite3.connect(path)  # as migration 010 leaves an older bank (no writer clears key terms)
    con.execute("UPDATE questions SET key_terms = NULL")
    con.commit()
    con.close()
    db = await Database.open(path)
    try:
        subjective = [q.id for p in await list_papers(db) for q in p.questions() if q.kind in SUBJECTIVE]
        assert await fill_key_terms(db, segment_in=SegmentIn.THIS_PROCESS) == len(subjective) > 0
        assert await fill_key_terms(db, segment_in=SegmentIn.THIS_PROCESS) == 0
        assert [q for q in subjective if (await get_question(db, q)).key_terms is None] == []
    finally:
        await db.close()


async def test_migration_010_keeps_every_question(tmp_path):
    older = tmp_path / "migrations"
    older.mkdir()
    for version, path in migration_files():
        if version < 10:
            shutil.copy(path, older / path.name)
    path = tmp_path / "v6.db"
    db = await Database.open(path, migrations_dir=older)
    await ensure_default_bank_rows(db)
    before = await db.fetchall("SELECT * FROM questions ORDER BY id")
    await db.close()
    db = await Database.open(path)
    try:
        after = await db.fetchall("SELECT * FROM questions ORDER BY id")
        old = before[0].keys()  # the columns the older version wrote keep their values
        assert [tuple(r[c] for c in old) for r in after] == [tuple(r) for r in before]
        assert {r["key_terms"] for r in after} == {None}
    finally:
        await db.close()


async def ensure_default_bank_rows(db: Database) -> None:
    """Questions written as an older version did: without key terms."""

    def transaction(conn):
        conn.execute("INSERT INTO papers (id, slug, title, imported_at) VALUES (1, 'p', 'P', 0)")
        conn.execute("INSERT INTO sections (id, paper_id, position, kind, title) VALUES (1, 1, 1, 'short', 's')")
        conn.executemany(
            "INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem, answer, points) "
            "VALUES (?, 1, 1, ?, 'short', '简述', ?, 5)",
            [(f"f{i}", i, json.dumps(f"参考答案 {i}", ensure_ascii=False)) for i in range(1, 4)])

    await db.run_write(transaction)


@pytest.mark.parametrize("segment_in", list(SegmentIn))
def test_terms_for_in_this_process_or_a_child_agree(segment_in):
    references = ["张量并行把权重矩阵切分到多个设备上", "", "FP16 与 BF16 的动态范围不同"]
    code = (
        "import json, sys\n"
        "from bank.grading.terms import SegmentIn, terms_for\n"
        f"found = terms_for({references!r}, segment_in=SegmentIn.{segment_in.name})\n"
        f"assert ('jieba' in sys.modules) is {segment_in is SegmentIn.THIS_PROCESS}\n"
        "print(json.dumps(found))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [list(key_terms(r)) for r in references]
    assert terms_for(["", "  "], segment_in=segment_in) == [[], []]


def test_key_terms_in_a_json_file_are_not_trusted():
    from bank.importer import parse_text
    from bank.importer.json_format import dumps, export_papers
    from bank.kinds import Kind
    from bank.models import Paper, Question, Section

    q = Question(number=1, kind=Kind.short, stem="简述", answer="张量并行切分权重矩阵", points=5)
    data = export_papers([Paper(slug="j", title="J", sections=[Section(kind=Kind.short, title="s", questions=[q])])])
    data["papers"][0]["sections"][0]["questions"][0]["key_terms"] = ["不知道"]
    [paper] = parse_text(dumps(data), file="j.json", stem="j")
    assert paper.questions()[0].key_terms is None  # found from the reference when it is saved
