"""Questions' measured difficulty as authors and leads read it (proctor/teams/measured.py): "answered
right by about N% of people at the median rating" beside the author's label; flagged, once 20 answers
counted, when nearly everyone gets it right, nearly nobody beyond guessing, or its label disagrees with
its measure; a hiring paper's only where the read rule shows its item statistics."""

from __future__ import annotations

import pytest

from proctor.exams.visibility import Role, Viewer, lens
from proctor.teams.measured import MIN_ANSWERS, Flag, measured
from tests.rating_world import LEAD, T0, TEAM, paper, people, sit, sums


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

ADMIN = 50


async def test_a_question_nearly_everyone_gets_right_or_wrong_or_mislabelled_is_flagged(db):
    pid = await paper(db, sums("m", 4, labels=("难", "中", "中", "")))
    qids = [r[0] for r in await db.fetchall("SELECT id FROM questions WHERE paper_id = ? ORDER BY number", (pid,))]
    seen_by = await lens(db, Viewer(Role.lead, LEAD), TEAM)
    for u in range(1, MIN_ANSWERS + 1):  # the first right for all, the second for none, the others for half
        await people(db, (u, f"p{u}"))
        await sit(db, u, pid, {0, 2 + u % 2}, T0 + 1000 * u)
        found = await measured(db, seen_by, pid)
        if u == MIN_ANSWERS - 1:  # one answer short: nothing is flagged yet
            assert all(not m.flags for m in found.values())
    assert [found[q].answers for q in qids] == [MIN_ANSWERS] * 4
    assert found[qids[0]].right > 0.9 and found[qids[1]].right < 0.1 and 0.3 < found[qids[2]].right < 0.7
    assert [found[q].flags for q in qids] == [(Flag.too_easy, Flag.label_disagrees),
                                              (Flag.too_hard, Flag.label_disagrees), (), ()]
    assert [found[q].label for q in qids] == ["难", "中", "中", ""]
    assert found[qids[0]].difficulty < 1500 < found[qids[1]].difficulty


async def test_a_hiring_papers_measures_follow_the_read_rule(db):
    await people(db, (1, "Ann"))
    hire = await paper(db, sums("hire", 2, exam_only=True))
    await sit(db, 1, hire, {0}, T0)  # an exam of an exam-only paper counts (an invited one would not)
    assert await measured(db, await lens(db, Viewer(Role.lead, LEAD), TEAM)) == {}
    assert len(await measured(db, await lens(db, Viewer(Role.admin, ADMIN), None))) == 2
