"""The paper list from one query (bank/paper_list.py) says what loading every paper whole says: the
askable count, the maximum score and the settings the list and its filters use, for the bundled bank
with retired, held (quarantined), flagged and unchecked questions, exam-only and invite-only papers,
a paper with nothing to ask, and composed papers (frozen and per-candidate draws)."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from bank.errors import NotFound
from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_list import PaperSummary, offered_papers, paper_summaries, paper_summary
from bank.paper_store import list_papers, load_paper
from proctor.exams import compose
from proctor.exams.blueprint import Blueprint, Part
from proctor.storage.bootstrap import ensure_default_bank, open_database
from proctor.storage.db import Database
from proctor.teams.curation import set_retired, write_settings
from tests.papers_fixture import save_paper, summarize

T0 = 1_800_000_000.0
LEAD = 1


def _paper(slug: str, points: list[float], *, flags: dict[int, list[str]] | None = None,
           exam_only: bool = False, minutes: int = 45, attempts: int | None = None) -> Paper:
    flags = flags or {}
    return Paper(slug=slug, title=f"Paper {slug}",
                 settings=PaperSettings(time_limit_min=minutes, exam_only=exam_only, attempts_allowed=attempts),
                 sections=[Section(kind=Kind.truefalse, title="判断题", questions=[
                     Question(number=n, kind=Kind.truefalse, stem=f"{slug} statement {n}.", answer=True,
                              points=pts, flags=flags.get(n, []))
                     for n, pts in enumerate(points, start=1)])])


async def varied_bank(db: Database) -> dict[str, int]:
    """The bundled bank and hand-made papers covering every case the list filters on; returns the
    hand-made and composed papers' ids by name."""
    assert await ensure_default_bank(db, T0) == 5
    ids = {
        "odd": await save_paper(db, _paper("odd", [0.1, 0.2, 0.3, 1.5], flags={4: ["no_answer"]},
                                           attempts=2), T0),
        "flagged": await save_paper(db, _paper("flagged", [1, 2], flags={1: ["truncated"], 2: ["corrupted"]}), T0),
        "hiring": await save_paper(db, _paper("hiring", [2, 2, 3], exam_only=True, minutes=20), T0),
        "invited": await save_paper(db, _paper("invited", [1, 1]), T0),
    }
    await write_settings(db, ids["invited"], actor=LEAD, chat_id=None, now=T0, invite_only=True)
    first = await load_paper(db, (await list_papers(db))[0].id or 0)
    q1, q2, q3 = first.questions()[:3]
    await set_retired(db, q1.id or 0, True, lead=LEAD, chat_id=None, now=T0)

    def transaction(conn):  # a key in doubt (import holds it), and a question the checks never saw
        conn.execute("UPDATE question_checks SET held='key' WHERE question_id=?", (q2.id,))
        conn.execute("DELETE FROM question_checks WHERE question_id=?", (q3.id,))

    await db.run_write(transaction)
    frozen = await compose.compose_paper(db, compose.Draft(
        "Frozen draw", 25, Blueprint((Part(Kind.truefalse, 3, points=1.5), Part(Kind.single, 2)))),
        actor=LEAD, now=T0, seed=3)
    drawn = await compose.compose_paper(db, compose.Draft(
        "Drawn each time", 15, Blueprint((Part(Kind.single, 3),)), per_candidate=True, exam_only=True),
        actor=LEAD, now=T0, seed=4)
    ids |= {"frozen": frozen.paper_id, "drawn": drawn.paper_id, "retired": q1.id or 0, "held": q2.id or 0,
            "unchecked": q3.id or 0}
    # a question of the frozen draw is retired afterwards: the list counts it out, as a whole load does
    row = await db.fetchone("SELECT question_id FROM composed_items WHERE paper_id=? ORDER BY pos", (frozen.paper_id,))
    assert row is not None
    await set_retired(db, row[0], True, lead=LEAD, chat_id=None, now=T0)
    return ids


@pytest.fixture
async def db(tmp_path):
    d = await open_database(tmp_path / "bank.db")
    yield d
    await d.close()


def _fields(s: PaperSummary) -> dict[str, object]:
    """A summary's fields, its maximum score to the last bits SQLite and Python may add in another order."""
    out = asdict(s)
    out["max_score"] = pytest.approx(s.max_score, rel=1e-12, abs=1e-12)
    return out


@pytest.mark.parametrize("composed", [False, True])
async def test_summaries_match_the_papers_loaded_whole(db, composed):
    ids = await varied_bank(db)
    whole = [summarize(p) for p in await list_papers(db, composed=composed)]
    summaries = await paper_summaries(db, composed=composed)
    assert [_fields(s) for s in summaries] == [asdict(w) for w in whole]
    by_id = {s.id: s for s in summaries}
    assert len(summaries) == 9 + 2 * composed
    assert by_id[ids["odd"]].askable == 3 and by_id[ids["odd"]].attempts_allowed == 2
    assert by_id[ids["flagged"]].askable == 0 and by_id[ids["flagged"]].max_score == 0
    assert by_id[ids["invited"]].invite_only and by_id[ids["invited"]].exam_only
    if composed:
        assert by_id[ids["frozen"]].askable == 4  # five drawn, one retired since
        assert by_id[ids["drawn"]].askable == 3 and by_id[ids["drawn"]].exam_only


async def test_the_bundled_papers_count_retired_held_and_unchecked_questions_as_a_load_does(db):
    ids = await varied_bank(db)
    first = (await paper_summaries(db))[0]
    every = {q.id: q for q in (await load_paper(db, first.id, include_retired=True)).questions()}
    assert not every[ids["retired"]].askable and not every[ids["held"]].askable and every[ids["unchecked"]].askable
    assert first.askable == sum(q.askable for q in every.values())
    assert first == summarize(await load_paper(db, first.id))


@pytest.mark.parametrize("practice", [False, True])
async def test_offered_papers_filter_as_the_list_did(db, practice):
    ids = await varied_bank(db)
    # the filter /papers, /exam and /practice applied to the papers loaded whole (bot/exam/commands.py)
    before = [summarize(p) for p in await list_papers(db, composed=True)
              if any(q.askable for q in p.questions()) and not (practice and p.settings.exam_only)
              and not p.settings.invite_only]
    offered = await offered_papers(db, practice=practice)
    assert [_fields(s) for s in offered] == [asdict(b) for b in before]
    shown = {s.id for s in offered}
    assert ids["flagged"] not in shown and ids["invited"] not in shown
    assert (ids["hiring"] in shown, ids["drawn"] in shown) == (not practice, not practice)
    assert ids["frozen"] in shown and ids["odd"] in shown


async def test_one_papers_summary_is_its_line_in_the_list_and_an_unknown_paper_is_not_found(db):
    await varied_bank(db)
    for s in await paper_summaries(db, composed=True):
        assert await paper_summary(db, s.id) == s
    with pytest.raises(NotFound):
        await paper_summary(db, 10_000)
