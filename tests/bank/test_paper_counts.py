"""One count of what a paper holds (bank/paper_counts.py): `tally` over questions and its SQL twin agree
paper by paper, on the bundled bank and on a bank with retired, held, unchecked, doubly flagged, asked and
drawn (composed) questions; every question stands in exactly one place; a paper not yet written counts
as it will once stored. Before: `proctor import` said P3 had 49 askable questions where `bank stats` and
/papers said 42."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bank.formats.files import parse_any
from bank.paper_counts import Standing, Tally, standing, tally, tally_parsed
from bank.paper_list import paper_summaries
from bank.paper_store import list_papers
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from proctor.people.users import ensure_user
from proctor.storage.bootstrap import ensure_default_bank, open_database
from proctor.teams.paper_counts import asked, paper_tallies, question_standings
from tests.bank.test_paper_list import T0, varied_bank

ANN = 7
P3 = Tally(askable=42, held_key=4, held_duplicate=3, truncated=1, garbled=1, retired=0)


@pytest.fixture
async def db(tmp_path):
    d = await open_database(tmp_path / "bank.db")
    yield d
    await d.close()


async def _counted_both_ways(db) -> dict[int, Tally]:
    """Each paper's tally in SQL, after checking it against `tally` over the paper's questions loaded whole
    (retired ones too; a composed paper's drawn ones with their points as drawn)."""
    sql = await paper_tallies(db)
    papers = await list_papers(db, composed=True, include_retired=True)
    assert [p.id for p in papers] == list(sql)
    for p in papers:
        ever = await asked(db, [q.id or 0 for q in p.questions()])
        python = tally(p.questions(), asked=ever)
        assert replace(python, points=0) == replace(sql[p.id or 0], points=0), p.label
        assert python.points == pytest.approx(sql[p.id or 0].points)
    return sql


def _standings(t: Tally) -> tuple[int, ...]:
    return tuple(t.of(s) for s in Standing)


async def test_the_bundled_bank_counted_both_ways(db):
    assert await ensure_default_bank(db, T0) == 5
    counted = await _counted_both_ways(db)
    summaries = await paper_summaries(db)
    p3 = counted[summaries[2].id]
    assert _standings(p3) == _standings(P3) and (p3.held_key, p3.held_duplicate, p3.truncated, p3.garbled) == (4, 3, 1, 1)
    assert p3.total == 51 and p3.not_yet_asked == 42
    assert sum(counted.values(), Tally(not_yet_asked=0)).askable == 209
    for s in summaries:  # /papers, /exam and `bank list` count the same askable questions and points
        assert (s.askable, s.max_score) == (counted[s.id].askable, pytest.approx(counted[s.id].points))


async def test_a_varied_bank_counted_both_ways(db):
    ids = await varied_bank(db)
    first = (await paper_summaries(db))[0].id

    def transaction(conn):  # a question cut off and garbled at once, one held for a repeat, one without a key
        conn.execute("UPDATE questions SET flags='[\"corrupted\",\"truncated\"]' WHERE id = "
                     "(SELECT id FROM questions WHERE paper_id=? AND flags='[]' ORDER BY id DESC LIMIT 1)", (first,))
        conn.execute("UPDATE question_checks SET held='duplicate' WHERE question_id = "
                     "(SELECT id FROM questions WHERE paper_id=? AND retired=0 ORDER BY id LIMIT 1 OFFSET 5)", (first,))

    await db.run_write(transaction)
    await ensure_user(db, ANN, "Ann", None, 0)
    await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=first, mode=AttemptMode.practice, now=T0,
                                 shuffle=False)  # its sheet asks every askable question of the paper
    counted = await _counted_both_ways(db)
    p1 = counted[first]
    assert p1.retired == 1 and p1.truncated == 2 and p1.held_duplicate == 1 and p1.not_yet_asked == 0
    assert counted[ids["odd"]].no_key == 1 and counted[ids["flagged"]].unaskable == 2
    assert counted[ids["frozen"]].retired == 1 and counted[ids["frozen"]].askable == 4  # drawn, one retired since
    assert counted[ids["drawn"]].askable == 3 and counted[ids["drawn"]].not_yet_asked < 3  # one drawn from the first


async def test_every_question_stands_in_exactly_one_place(db):
    await varied_bank(db)
    placed = await question_standings(db)
    for p in await list_papers(db, include_retired=True):
        c = (await paper_tallies(db, [p.id or 0]))[p.id or 0]
        by_standing: dict[Standing, set[int]] = {s: set() for s in Standing}
        for q in p.questions():
            by_standing[standing(q)].add(q.id or 0)
            assert q.askable == (standing(q) is Standing.askable)  # the model's own flag says the same
            assert placed[q.id or 0].standing is standing(q)
        assert sum(len(ids) for ids in by_standing.values()) == len(p.questions()) == c.total
        assert {s: len(ids) for s, ids in by_standing.items()} == {s: c.of(s) for s in Standing}
        assert len(set().union(*by_standing.values())) == len(p.questions())  # no question in two places


async def test_a_file_not_yet_written_counts_as_it_will_stand(db, seed_files):
    assert await ensure_default_bank(db, T0) == 5
    stored = await paper_tallies(db)
    for path, paper_id in zip(seed_files, stored, strict=True):
        (paper,) = parse_any(path)
        assert replace(tally_parsed(paper), not_yet_asked=stored[paper_id].not_yet_asked) == stored[paper_id]
