"""A composed paper (`proctor paper compose`, /newpaper) is exported like any other paper and its file
imports back: unchanged, it changes nothing; edited, a text or key edit is a new version of the
question (shared with the paper it was drawn from, as /editq makes one) and a points edit changes the
composed paper's own points; into another database it is a new paper. Before: `proctor bank export`
left composed papers out without a word."""

import re

import pytest

from bank.paper_store import get_question, list_papers, load_paper
from tests.bot.test_round_trip_cli import _edit_xlsx, _with_db, run, sums  # noqa: F401 (a fixture)

WEEK = "Week 3"


@pytest.fixture
def dbfile(tmp_path, monkeypatch, db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    return db_location


@pytest.fixture
def week(capsys, dbfile, sums) -> int:  # noqa: F811 (sums: the fixture imported above)
    """Sums (two single-choice questions, 1 point each) and Week 3 composed of both at 3 points each."""
    code, out, err = run(capsys, "--db", dbfile, "paper", "compose", "--title", WEEK, "--minutes", "20",
                         "--part", "single 2 3")
    assert code == 0, err
    return sums


def _papers(dbfile):
    return _with_db(dbfile, lambda db: list_papers(db, composed=True))


@pytest.mark.parametrize("fmt", ["xlsx", "csv", "gift", "xml", "json"])
def test_a_composed_paper_is_exported_and_comes_back_unchanged(capsys, dbfile, tmp_path, week, fmt):
    before = _papers(dbfile)
    out = tmp_path / f"out.{fmt}"
    code, said, err = run(capsys, "--db", dbfile, "bank", "export", "--format", fmt, "-o", str(out))
    assert code == 0, err
    assert said == "wrote " + str(out) + ": 2 papers, 4 questions (P1 2 of 2, P2 2 of 2)\n"
    if fmt != "json":
        assert ("composed-2/s1/q1/v1" in out.read_text(encoding="utf-8")) if fmt != "xlsx" else True
    code, said, err = run(capsys, "--db", dbfile, "import", str(out))
    assert code == 0, err
    assert said.splitlines() == [
        "updated P1 Sums (0 changed, 0 added, 2 unchanged, 0 not in the file: kept)",
        f"updated P2 {WEEK} (0 changed, 0 added, 2 unchanged, 0 not in the file: kept)"]
    assert _papers(dbfile) == before


def test_an_edited_composed_paper_edits_its_questions_and_its_own_points(capsys, dbfile, tmp_path, week):
    out = tmp_path / "out.xlsx"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out))
    # rows 2-3: Sums; rows 4-5: Week 3 (its questions as drawn, 3 points each)
    first, second = _with_db(dbfile, lambda db: load_paper(db, "composed-2")).questions()  # drawn in any order
    _edit_xlsx(out, 4, 题干="One and one?", 分值="5")
    code, said, err = run(capsys, "--db", dbfile, "import", str(out))
    assert code == 0, err
    assert said.splitlines() == [
        "updated P1 Sums (0 changed, 0 added, 2 unchanged, 0 not in the file: kept)",
        f"updated P2 {WEEK} (1 changed, 0 added, 1 unchanged, 0 not in the file: kept)",
        f"  P1 · Q{first.seq}: stem, points (version 2)"]  # its home reference

    async def check(db):
        q = await get_question(db, first.id)
        assert (q.stem, q.version, q.points) == ("One and one?", 2, 1.0)  # Sums keeps its own points
        composed = await load_paper(db, "composed-2")
        assert [(x.id, x.stem, x.points) for x in composed.questions()] == [
            (first.id, "One and one?", 5.0), (second.id, second.stem, 3.0)]
        assert "One and one?" in [x.stem for x in (await load_paper(db, "sums")).questions()]
    _with_db(dbfile, check)


def test_a_row_without_a_ref_cannot_join_a_composed_paper(capsys, dbfile, tmp_path, week):
    out = tmp_path / "out.csv"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "csv", "-o", str(out))
    with out.open("a", encoding="utf-8") as f:
        f.write(f"单选题,3+3=?,6,7,,,,,,,A,,1,,,{WEEK},单项选择题,\n")
    code, said, err = run(capsys, "--db", dbfile, "import", str(out))
    assert code == 1 and said == ""
    assert "draws its questions from other papers" in err
    assert [len(p.questions()) for p in _papers(dbfile)] == [2, 2]


def test_into_another_database_a_composed_paper_is_a_new_paper(capsys, dbfile, tmp_path, week):
    out = tmp_path / "out.json"
    run(capsys, "--db", dbfile, "bank", "export", "-o", str(out))
    other = str(tmp_path / "other.db")
    code, said, err = run(capsys, "--db", other, "import", str(out))
    assert code == 0, err
    assert re.match(rf"imported P\d+ {WEEK} \(2 questions", said.splitlines()[1]), said  # a code of this database
    papers = _with_db(other, list_papers)
    assert [(p.title, p.max_score) for p in papers] == [("Sums", 2.0), (WEEK, 6.0)]


def test_a_question_edited_both_at_home_and_in_the_composed_paper_is_refused(capsys, dbfile, tmp_path, week):
    out = tmp_path / "out.xlsx"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out))
    first = _with_db(dbfile, lambda db: load_paper(db, "composed-2")).questions()[0]
    _edit_xlsx(out, 4, 题干="One and one?")
    _edit_xlsx(out, 1 + first.id, 题干="1 plus 1?")  # Sums' rows are its questions in order (ids 1, 2)
    code, said, err = run(capsys, "--db", dbfile, "import", str(out))
    assert code == 1 and said == ""
    assert err == (f"proctor: out.xlsx: paper composed-2: the question with bank id #{first.id} is edited twice, in P1 Sums and in "
                   f"P2 {WEEK}: edit it in one of them\n")
    assert _with_db(dbfile, lambda db: get_question(db, first.id)).version == 1


def test_a_file_named_like_a_composed_paper_never_lands_on_it(capsys, dbfile, tmp_path, week):
    """Before: `composed-2.gift` was imported "by its slug" onto the composed paper: its title became
    the file's, and the file's questions were written under it, out of sight (a composed paper shows
    its drawn questions). Now the import is refused in one line and nothing is written."""
    before = _papers(dbfile)
    clash = tmp_path / "composed-2.gift"
    clash.write_text("::a:: 2+2? {=4 ~3}\n\n::b:: Sky is blue {T}\n")
    code, out, err = run(capsys, "--db", dbfile, "import", str(clash))
    assert code == 1 and out == ""
    assert err == (f"proctor: {clash}: paper composed-2: composed-2 is the name of the composed paper P2 "
                   "Week 3, which a file cannot replace: rename the file (its name is the paper's)\n"), err
    assert _papers(dbfile) == before
    renamed = tmp_path / "week-4.gift"
    clash.rename(renamed)
    code, out, err = run(capsys, "--db", dbfile, "import", str(renamed))
    assert code == 0 and out.startswith("imported P3 week-4 (2 questions"), (out, err)
