"""A paper's subject (migration 037): the bundled papers have theirs on a fresh install and after an upgrade;
a paper is written with every setting, its subject and its file's code; a code a file took is never
given again to a paper that has none."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bank.importer import import_files
from bank.importer.json_format import dumps, export_papers
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_store import list_papers, write_papers
from proctor.storage.bootstrap import SUBJECTS, ensure_default_bank, open_database
from proctor.storage.db import Database
from tests.proctor.test_upgrade import RELEASES, load_release


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

BUNDLED = {"000_55527286228126e4": "梯度累积", "001_c9ee6912cd06a1b6": "专家并行",
           "002_692116d27c950d45": "混合精度数值稳定性", "003_47de9a3d709cea96": "推理优化",
           "004_ad5bfb426744f568": "优化器"}


async def test_a_fresh_install_gives_the_bundled_papers_their_subjects(tmp_path):
    assert json.loads(SUBJECTS.read_text(encoding="utf-8")) == BUNDLED
    db = await open_database(tmp_path / "new.db")
    try:
        assert await ensure_default_bank(db, 1.0) == 5
        assert {p.slug: p.subject for p in await list_papers(db)} == BUNDLED
    finally:
        await db.close()


async def test_an_upgraded_database_gives_the_bundled_papers_their_subjects(tmp_path):
    dump, _ = RELEASES["2026-12-05"]
    load_release(dump, tmp_path / "old.db")
    conn = sqlite3.connect(tmp_path / "old.db")  # the release's database, with the bundled papers too
    with conn:
        conn.executemany("INSERT INTO papers (slug, title, imported_at) VALUES (?, ?, 1)",
                         [(slug, slug) for slug in BUNDLED])
    conn.close()
    db = await Database.open(tmp_path / "old.db")
    try:
        rows = await db.fetchall("SELECT slug, subject FROM papers")
        assert {r["slug"]: r["subject"] for r in rows if r["subject"]} == BUNDLED
        assert len(rows) > len(BUNDLED)  # the release's own papers have none
    finally:
        await db.close()


async def test_re_importing_a_seed_file_keeps_the_subject(db, seed_files):
    await ensure_default_bank(db, 1.0)
    await import_files(db, seed_files[:1], now=2.0)  # the seed text format has no subject
    assert (await list_papers(db))[0].subject == "梯度累积"


def _paper(slug: str, code: str = "", **settings) -> Paper:
    q = Question(number=1, kind="truefalse", stem=f"{slug}?", answer=True)
    return Paper(slug=slug, title=slug, code=code, subject=f"about {slug}", settings=PaperSettings(**settings),
                 sections=[Section(kind="truefalse", title="T", questions=[q])])


async def test_a_new_paper_is_written_with_every_setting_its_subject_and_its_files_code(db, tmp_path):
    settings = dict(time_limit_min=45, attempts_allowed=2, grading_method="last", multi_policy="all-or-nothing",
                    exam_only=True, shuffle_options=False, invite_only=True, review="sections", pass_percent=60.0,
                    signals=False, signal_similar=95.0, signal_fast=5, signal_late=6, signal_quick=20.0)
    await db.run_write(lambda conn: write_papers(conn, [_paper("a", "P7", **settings)], 1.0))
    [paper] = await list_papers(db)
    assert paper.settings == PaperSettings(**settings)
    assert (paper.code, paper.subject) == ("P7", "about a")
    # a JSON export carries them: into another database they come back whole
    path = tmp_path / "a.json"
    path.write_text(dumps(export_papers([paper])), encoding="utf-8")
    other = await Database.open(tmp_path / "other.db")
    try:
        await import_files(other, [path], now=2.0)
        [back] = await list_papers(other)
        assert (back.code, back.subject, back.settings) == ("P7", "about a", paper.settings)
    finally:
        await other.close()


async def test_a_code_a_file_took_is_not_given_again(db):
    await db.run_write(lambda conn: write_papers(conn, [_paper("a", "P2"), _paper("b"), _paper("c"), _paper("d", "P2")],
                                                 1.0))
    codes = {p.slug: p.code for p in await list_papers(db)}
    # a gets the file's P2; b (id 2) the first free code from P2 on; d's P2 is taken: it gets one too
    assert codes == {"a": "P2", "b": "P3", "c": "P4", "d": "P5"}
    assert len(set(codes.values())) == 4
