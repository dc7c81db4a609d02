"""Export, import, export again: the same bank. Re-importing updates in place."""

import json

import pytest

from bank.importer import import_files, parse_file
from bank.importer.json_format import dumps, export_papers
from bank.paper_store import list_papers, load_paper, paper_count
from proctor.exams import service as attempts
from proctor.people.users import ensure_user
from proctor.storage.bootstrap import ensure_default_bank
from proctor.storage.db import Database
from tests.answering import answer
from tests.reads import answers_in, paper_of_question


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

SLUG = "002_692116d27c950d45"


async def export_text(db) -> str:
    return dumps(export_papers(await list_papers(db)))


async def test_export_import_export_is_identical(db, tmp_path, seed_files):
    await import_files(db, seed_files, now=1.0)
    first = await export_text(db)
    path = tmp_path / "bank.json"
    path.write_text(first, encoding="utf-8")
    assert [p.slug for p in parse_file(path)] == [f.stem for f in seed_files]

    other = await Database.open(tmp_path / "other.db")
    try:
        await import_files(other, [path], now=2.0)
        assert await export_text(other) == first
    finally:
        await other.close()
    data = json.loads(first)
    assert sum(len(s["questions"]) for p in data["papers"] for s in p["sections"]) == 230


async def test_export_keeps_settings_on_a_fresh_import(db, tmp_path, seed_files):
    await import_files(db, seed_files[:1], now=1.0)
    data = json.loads(await export_text(db))
    data["papers"][0]["settings"]["time_limit_min"] = 90
    data["papers"][0]["settings"]["multi_policy"] = "all-or-nothing"
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    other = await Database.open(tmp_path / "other.db")
    try:
        await import_files(other, [path], now=2.0)
        [paper] = await list_papers(other)
        assert paper.settings.time_limit_min == 90
        assert paper.settings.multi_policy == "all-or-nothing"
    finally:
        await other.close()


async def add_answer(db, paper_id: int, question_id: int) -> tuple[int, int]:
    """Ann practises the paper and answers the question; returns (attempt id, position)."""
    await ensure_user(db, 7, "Ann", None, 0)
    attempt = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=paper_id, mode="practice", now=0,
                                           shuffle=False)
    sheet = await attempts.load_sheet(db, attempt.id, positions="all")
    pos = next(i.pos for i in sheet.items if i.question_id == question_id)
    await answer(db, attempt.id, pos, "D", 0)
    return attempt.id, pos


async def test_reimport_updates_in_place_and_answers_stay(db, tmp_path, seed_files):
    await import_files(db, seed_files, now=1.0)
    paper = await load_paper(db, SLUG)
    target = paper.sections[0].questions[1]
    attempt, pos = await add_answer(db, paper.id, target.id)

    # the same text, corrected, from another place: same slug, same positions
    src = next(f for f in seed_files if f.stem == SLUG)
    text = src.read_text(encoding="utf-8").replace("在使用Adam優(yōu)化器", "在使用AdamW優(yōu)化器")
    fixed = tmp_path / src.name
    fixed.write_text(text, encoding="utf-8")
    await import_files(db, [fixed], now=2.0)

    assert await paper_count(db) == 5
    assert len(await paper_of_question(db)) == 230
    again = await load_paper(db, SLUG)
    moved = again.sections[0].questions[1]
    assert moved.id == target.id
    assert moved.stem.startswith("在使用AdamW優化器")
    assert (await answers_in(db, attempt))[pos].question_id == target.id
    assert [q.id for q in again.questions()] == [q.id for q in paper.questions()]


async def test_reimport_of_json_export_changes_nothing(db, tmp_path, seed_files):
    await import_files(db, seed_files, now=1.0)
    ids = [(qid, p.slug, q.fingerprint) for qid, p in (await paper_of_question(db)).items()
           for q in p.questions() if q.id == qid]
    assert len(ids) == 230
    path = tmp_path / "bank.json"
    path.write_text(await export_text(db), encoding="utf-8")
    await import_files(db, [path], now=2.0)
    assert [(qid, p.slug, q.fingerprint) for qid, p in (await paper_of_question(db)).items()
            for q in p.questions() if q.id == qid] == ids


async def test_dropped_question_is_retired_not_deleted(db, tmp_path, seed_files):
    src = next(f for f in seed_files if f.stem == SLUG)
    await import_files(db, [src], now=1.0)
    data = json.loads(await export_text(db))
    data["papers"][0]["sections"][0]["questions"].pop()  # question 15 of section 1
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    await import_files(db, [path], now=2.0)
    kept = (await load_paper(db, SLUG, include_retired=True)).questions()
    assert (len(kept), sum(q.retired for q in kept)) == (51, 1)
    paper = await load_paper(db, SLUG)
    assert len(paper.sections[0].questions) == 14


async def test_default_bank_is_imported_once(db):
    assert await ensure_default_bank(db, now=1.0) == 5
    assert await ensure_default_bank(db, now=2.0) == 0
    assert len(await paper_of_question(db)) == 230
