"""Issue 22: once composed papers existed, /papers, /exam, /invite, /leaderboard paper, `proctor bank`
and `proctor invite` numbered papers differently. Every paper has one short code (P3), given once and
kept (migration 029), and one function reads a paper reference everywhere
(bank.paper_list.pick_paper): the code, the slug, the title, or a part of the title only one holds. On
SQLite and on PostgreSQL (`db_location`), but for an old release's file, SQLite's own."""

from __future__ import annotations

import pytest

from bank.errors import NotFound
from bank.paper_list import AmbiguousPaper, find_paper, offered_papers, paper_summaries, pick_paper
from bank.paper_store import load_paper
from bot.exam import render
from proctor.exams import blueprint as bp
from proctor.invites import request as invite_request
from proctor.storage.bootstrap import open_database
from proctor.storage.db import Database
from proctor.teams.curation import update_settings
from tests.bank.test_paper_list import T0, _paper, varied_bank
from tests.papers_fixture import save_paper
from tests.proctor.test_upgrade import RELEASES, load_release


@pytest.fixture
async def bank(db_location):
    db = await open_database(db_location)
    ids = await varied_bank(db)  # the bundled papers, hand-made ones, a frozen and a per-candidate draw
    yield db, ids
    await db.close()


async def test_every_paper_has_its_own_code_and_keeps_it(bank):
    db, ids = bank
    papers = await paper_summaries(db, composed=True)
    codes = [p.code for p in papers]
    assert all(c and c[0] == "P" and c[1:].isdigit() for c in codes) and len(set(codes)) == len(codes)
    assert {p.id for p in papers} >= {ids["frozen"], ids["drawn"]}  # composed papers have codes too
    odd = next(p for p in papers if p.id == ids["odd"])
    await save_paper(db, _paper("odd", [1.0, 2.0]), T0 + 1)  # a re-import updates the paper in place
    assert (await load_paper(db, ids["odd"])).code == odd.code == (await find_paper(db, odd.code)).code


async def _each_way(db: Database, key: str) -> dict[str, int | str]:
    """The paper id each command's reading gives for `key`, or why not."""
    async def attempt(find) -> int | str:
        try:
            return await find()
        except AmbiguousPaper as e:
            return "ambiguous: " + " ".join(p.code for p in e.matches)
        except NotFound:
            return "unknown"

    async def exam() -> int:  # /exam <paper>
        return pick_paper(await offered_papers(db), key).id

    async def invite() -> int:  # /invite and `proctor invite create --paper`
        return (await invite_request.find_paper(db, key))[0]

    async def bank_set() -> int:  # `proctor bank set`, /bankstats, /examonly, /leaderboard paper, the desk
        return (await find_paper(db, key)).id

    return {"exam": await attempt(exam), "invite": await attempt(invite), "bank": await attempt(bank_set)}


async def test_every_command_reads_a_paper_reference_the_same_way(bank):
    db, ids = bank
    papers = await paper_summaries(db, composed=True)
    offered = {p.id for p in await offered_papers(db)}
    invitable = {p.id for p in papers if p.askable}
    for p in papers:
        for key in (p.code, p.code.lower(), p.code[1:], f"  {p.code} ", p.title, p.title.upper(), p.slug):
            found = await _each_way(db, key)
            assert found["bank"] == p.id, key
            assert found["exam"] == (p.id if p.id in offered else "unknown"), key
            assert found["invite"] == (p.id if p.id in invitable else "unknown"), key
    hiring = next(p for p in papers if p.id == ids["hiring"])
    assert await _each_way(db, "HIRING") == {"exam": hiring.id, "invite": hiring.id, "bank": hiring.id}
    many = await _each_way(db, "Paper ")  # in "Paper odd", "Paper flagged", "Paper hiring", "Paper invited"
    assert many["bank"] == "ambiguous: " + " ".join(p.code for p in papers if "paper " in p.title.casefold())
    assert await _each_way(db, "nothing like it") == dict.fromkeys(("exam", "invite", "bank"), "unknown")
    settings = await update_settings(db, hiring.code.lower(), actor=0, now=T0, time_limit_min=30)
    assert settings.time_limit_min == 30 and (await load_paper(db, hiring.id)).settings.time_limit_min == 30


async def test_papers_and_the_chooser_show_the_codes_a_blueprint_takes_too(bank):
    db, ids = bank
    offered = await offered_papers(db)
    listing = render.paper_list(offered, "en")
    _, chooser = render.paper_chooser(offered, "exam", "zh")
    labels = [row[0].text for row in chooser.inline_keyboard]
    for p in offered:
        assert f"{p.code} · {p.title}" in listing
        assert any(label.startswith(f"{p.code} · ") for label in labels)
    odd = next(p for p in offered if p.id == ids["odd"])
    part = bp.part_of(f"truefalse 1 paper:{odd.code}", await bp.paper_ids(db))  # /newpaper's blueprint lines
    assert part.papers == (odd.id,)


# SQLite only: an old release's file upgraded (PostgreSQL's record starts at the baseline, codes and all)
async def test_an_older_database_gives_its_papers_codes(tmp_path):
    dump, _ = RELEASES["0.1.0"]
    load_release(dump, tmp_path / "old.db")
    db = await Database.open(tmp_path / "old.db")
    try:
        papers = await paper_summaries(db, composed=True)
        assert papers and [p.code for p in papers] == [f"P{p.id}" for p in papers]
    finally:
        await db.close()


@pytest.mark.parametrize("key, code", [
    ("专家并行", "P2"), ("專家并行", "P2"), ("专家並行", "P2"),  # P2's title writes 專家并行
    ("混合精度训练数值稳定性试题", "P3"), ("混合精度訓練數值穩定性試題", "P3"),
    ("训练优化器", "P5"), ("梯度累積", "P1"), ("推理優化", "P4"),
])
async def test_a_title_is_found_in_either_script(bank, key, code):
    """Before: 试题 did not find 試題 (the bundled titles mix both scripts)."""
    db, _ = bank
    found = await _each_way(db, key)
    papers = {p.code: p.id for p in await paper_summaries(db, composed=True)}
    assert found == dict.fromkeys(("exam", "invite", "bank"), papers[code])


async def test_a_fragment_in_either_script_that_several_titles_hold_is_ambiguous(bank):
    db, _ = bank
    assert (await _each_way(db, "含答案與解析"))["bank"] == (await _each_way(db, "含答案与解析"))["bank"] \
        == "ambiguous: P3 P5"
