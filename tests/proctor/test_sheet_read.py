"""A sheet is read in one statement (items and answers as JSON arrays: proctor/exams/model.py
ITEMS_JSON/ANSWERS_JSON); it must equal the sheet read row by row, to the last bit of every REAL,
and a step's sheet after it (built in memory from what the step wrote) must equal a fresh read."""

from __future__ import annotations

import pytest

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from proctor.exams import service as attempts
from proctor.exams import steps
from proctor.exams.model import AnswerRec, Item, Sheet
from proctor.people.users import ensure_user
from tests.papers_fixture import save_paper


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
AWKWARD = 0.1 + 0.2  # 0.30000000000000004: 15 significant digits would read back 0.3


def _paper() -> Paper:
    qs = [Question(number=i + 1, kind=Kind.single, stem=f"题{i}", options=["甲", "乙", "丙"], answer="B",
                   points=AWKWARD) for i in range(3)]
    num = Question(number=1, kind=Kind.numerical, stem="π ≈ ?", answer="3.141592653589793", points=1 / 3)
    multi = Question(number=1, kind=Kind.multi, stem="选两个", options=["甲", "乙", "丙", "丁"], answer="AB",
                     points=2)
    return Paper(slug="awk", title="Awkward points", sections=[
        Section(kind=Kind.single, title="单项选择题", questions=qs),
        Section(kind=Kind.numerical, title="计算题", questions=[num]),
        Section(kind=Kind.multi, title="多项选择题", questions=[multi])])


def _row_by_row(conn, attempt_id: int) -> tuple[list[Item], dict[int, AnswerRec]]:
    """Each item's row with its question's reference (the home paper's code, the question's seq), and
    each answer's row, read one by one."""
    items = [Item.from_row(r) for r in conn.execute(
        "SELECT i.*, p.code, q.seq FROM attempt_items i JOIN questions q ON q.id = i.question_id "
        "JOIN papers p ON p.id = q.paper_id WHERE i.attempt_id=? ORDER BY i.pos", (attempt_id,))]
    answers = {a.pos: a for a in (AnswerRec.from_row(r) for r in conn.execute(
        "SELECT * FROM answers WHERE attempt_id=?", (attempt_id,)))}
    return items, answers


def _same(sheet: Sheet, items: list[Item], answers: dict[int, AnswerRec]) -> None:
    assert sheet.items == items
    assert sheet.answers == answers
    for a, b in zip(sheet.items, items, strict=True):
        assert type(a.points) is type(b.points) and a.points.hex() == b.points.hex()
    for pos, a in answers.items():
        assert sheet.answers[pos].score.hex() == float(a.score).hex()


async def test_one_statement_reads_the_sheet_row_by_row_gives(db):
    pid = await save_paper(db, _paper(), T0)
    await ensure_user(db, 7, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    # nothing answered yet: an empty array of answers
    sheet = await db.run(lambda c: steps.sheet_in(c, a.id, "all"))
    _same(sheet, *await db.run(lambda c: _row_by_row(c, a.id)))
    for action, arg in (("answer", "1"), ("flag", None), ("answer", "0"), ("next", None)):
        out = await steps.take_step(db, a.id, 7, action, None, arg, T0 + 1)
        assert isinstance(out, steps.Recorded), out
        shown = {out.pos, out.sheet.attempt.current_pos}
        fresh = await db.run(lambda c, shown=shown: steps.sheet_in(c, a.id, shown))
        # the sheet the step built from what it wrote is the sheet as stored
        assert out.sheet == fresh
        _same(fresh, *await db.run(lambda c: _row_by_row(c, a.id)))
    out = await steps.take_step(db, a.id, 7, "typed", None, "3.141592653589793", T0 + 2)
    assert isinstance(out, steps.Recorded) and out.answer is not None
    out_typed = out.answer
    out = await steps.take_step(db, a.id, 7, "toggle", None, "0", T0 + 3)  # a draft on the multi
    assert isinstance(out, steps.Recorded)
    sheet = await db.run(lambda c: steps.sheet_in(c, a.id, "all"))
    assert out.sheet == await db.run(lambda c: steps.sheet_in(c, a.id, {out.pos}))
    _same(sheet, *await db.run(lambda c: _row_by_row(c, a.id)))
    assert sheet.items[4].draft == "A" and sheet.items[1].flagged
    assert sheet.answers[3].response == out_typed.response and sheet.answers[3].max_score.hex() == (1 / 3).hex()
