"""`proctor bank export` then `proctor import` of the file: the papers it came from are updated in place,
for every format that carries a question's identity. An edit is a new version as /editq makes it (ids,
answers and their scores kept), a key change regrades only with --regrade, a dry run says what would
change, and a file older than an edit is refused. Before: the spreadsheet came back refused ("… already
has the title …; use --as-new")."""

import asyncio
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from bank.paper_store import get_question, list_papers
from bot.cli import main
from proctor import outbox
from proctor.exams import service as attempts
from proctor.exams.states import FinishReason
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from tests.answering import answer
from tests.reads import graded_answers, key_history, outbox_record, paper_id, question_ids

T0 = 1_800_000_000.0
ANN = 7
SUMS = "题型,题干,选项A,选项B,答案,试卷\n单选题,1+1=?,2,3,A,Sums\n单选题,2+2=?,4,5,A,Sums\n"


@pytest.fixture
def dbfile(tmp_path, monkeypatch, db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    return db_location


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _with_db(dbfile, read):
    async def go():
        db = await Database.open(dbfile)
        try:
            return await read(db)
        finally:
            await db.close()
    return asyncio.run(go())


async def _answered_wrong(db) -> int:
    """Ann's finished exam on Sums: B to question 1, whose key is A (0 points)."""
    pid = await paper_id(db, "sums")
    await ensure_user(db, ANN, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=pid, mode="exam", now=T0, shuffle=False)
    await answer(db, a.id, 0, "B", T0 + 5)
    await attempts.finish_attempt(db, a.id, T0 + 10, FinishReason.submitted)
    return (await question_ids(db, "sums"))[0]


def _edit_xlsx(path: Path, row: int, **cells: str) -> None:
    wb = load_workbook(path)
    ws = wb.active
    header = [c.value for c in ws[1]]
    for name, value in cells.items():
        ws.cell(row=row, column=header.index(name) + 1, value=value)
    wb.save(path)


@pytest.fixture
def sums(capsys, dbfile, tmp_path) -> int:
    """Sums imported from a CSV, Ann's wrong answer to its question 1 (whose id is returned)."""
    source = tmp_path / "sums.csv"
    source.write_text(SUMS, encoding="utf-8")
    assert run(capsys, "--db", dbfile, "import", str(source))[0] == 0
    return _with_db(dbfile, _answered_wrong)


@pytest.mark.parametrize("regrade", [False, True])
def test_an_edited_spreadsheet_updates_its_paper_in_place_as_new_versions(capsys, dbfile, tmp_path, sums, regrade):
    out_xlsx = tmp_path / "out.xlsx"
    assert run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out_xlsx))[0] == 0
    _edit_xlsx(out_xlsx, 2, 题干="1 + 1 = ?", 答案="B")
    code, out, err = run(capsys, "--db", dbfile, "import", str(out_xlsx), *(["--regrade"] if regrade else []))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "updated P1 Sums (1 changed, 0 added, 1 unchanged, 0 not in the file: kept)"
    if regrade:
        assert lines[1] == ("  P1 · Q1: stem, key (version 2); 1 answer regraded, 1 score changed "
                            "(the candidates are told when the bot runs)")
    else:
        assert lines[1] == "  P1 · Q1: stem, key (version 2); 1 answer keeps its score (--regrade rescores)"

    async def check(db):
        q = await get_question(db, sums)
        assert (q.stem, q.answer, q.version) == ("1 + 1 = ?", "B", 2)  # the same question, its next version
        assert [p.slug for p in await list_papers(db)] == ["sums"]  # not a second paper
        [v2] = await key_history(db, sums)
        assert (v2.version, v2.field, v2.previous, v2.answer) == (2, "import:stem,key", "A", "B")
        [answer] = await graded_answers(db, sums)
        assert (answer.score, answer.key_version) == ((1.0, 2) if regrade else (0.0, 1))
        told = await outbox_record(db, outbox.Kind.key_fix_notice, f"q{sums}v2:{ANN}")
        assert (told is not None) == regrade
    _with_db(dbfile, check)


def test_a_dry_run_says_what_would_change_and_writes_nothing(capsys, dbfile, tmp_path, sums):
    out_xlsx = tmp_path / "out.xlsx"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out_xlsx))
    _edit_xlsx(out_xlsx, 3, 解析="Four.", 分值="2")
    _edit_xlsx(out_xlsx, 2, 答案="B")
    code, out, err = run(capsys, "--db", dbfile, "import", "--dry-run", "--regrade", str(out_xlsx))
    assert code == 0, err
    assert out.splitlines() == [
        "would update P1 Sums (2 changed, 0 added, 0 unchanged, 0 not in the file: kept)",
        "  P1 · Q1: key (version 2); 1 answer would be regraded",
        "  P1 · Q2: explanation, points (version 2)",
        "A dry run: nothing was written. To import, run the same command without --dry-run."]

    async def unchanged(db):
        assert [(q.answer, q.version, q.points) for q in (await list_papers(db))[0].questions()] == [
            ("A", 1, 1.0), ("A", 1, 1.0)]
    _with_db(dbfile, unchanged)


def test_a_file_older_than_an_edit_is_refused_and_writes_nothing(capsys, dbfile, tmp_path, sums):
    out_xlsx = tmp_path / "out.xlsx"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out_xlsx))
    assert run(capsys, "--db", dbfile, "bank", "edit", str(sums), "--stem", "One plus one?")[0] == 0
    _edit_xlsx(out_xlsx, 2, 解析="Two.")
    code, out, err = run(capsys, "--db", dbfile, "import", str(out_xlsx))
    assert code == 1 and out == ""
    assert err == (f"proctor: out.xlsx: the question with bank id #{sums} was edited since the file was exported (version 2 now, "
                   "the file has version 1); export again and redo the edit\n")
    q = _with_db(dbfile, lambda db: get_question(db, sums))
    assert (q.stem, q.explanation, q.version) == ("One plus one?", "", 2)
    # exported again (over the old file: --force), the edit is there and the file's version matches: it applies
    assert run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out_xlsx), "--force")[0] == 0
    _edit_xlsx(out_xlsx, 2, 解析="Two.")
    assert run(capsys, "--db", dbfile, "import", str(out_xlsx))[0] == 0
    q = _with_db(dbfile, lambda db: get_question(db, sums))
    assert (q.stem, q.explanation, q.version) == ("One plus one?", "Two.", 3)


def test_a_row_without_a_ref_is_a_new_question_of_the_paper(capsys, dbfile, tmp_path, sums):
    out_csv = tmp_path / "out.csv"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "csv", "-o", str(out_csv))
    with out_csv.open("a", encoding="utf-8") as f:
        f.write("单选题,3+3=?,6,7,,,,,,,A,,1,,,Sums,单项选择题,\n")
    code, out, err = run(capsys, "--db", dbfile, "import", str(out_csv))
    assert code == 0, err
    assert out.splitlines()[:2] == ["updated P1 Sums (0 changed, 1 added, 2 unchanged, 0 not in the file: kept)",
                                    "  new: single: 3+3=?"]
    stems = _with_db(dbfile, lambda db: list_papers(db))[0].questions()
    assert [q.stem for q in stems] == ["1+1=?", "2+2=?", "3+3=?"]
    assert stems[0].id == sums


@pytest.mark.parametrize("fmt", ["xlsx", "csv", "gift", "xml", "json"])
def test_every_format_that_carries_identity_comes_back_unchanged(capsys, dbfile, tmp_path, seed_files, fmt):
    assert run(capsys, "--db", dbfile, "import", *map(str, seed_files))[0] == 0
    before = _with_db(dbfile, list_papers)
    out = tmp_path / f"out.{fmt}"
    assert run(capsys, "--db", dbfile, "bank", "export", "--format", fmt, "-o", str(out))[0] == 0
    code, said, err = run(capsys, "--db", dbfile, "import", str(out))
    assert code == 0, err
    heads = [line for line in said.splitlines() if line.startswith("updated ")]
    assert len(heads) == 5 and all("(0 changed, 0 added, " in h for h in heads), said
    assert _with_db(dbfile, list_papers) == before


def test_an_edited_gift_file_updates_its_question(capsys, dbfile, tmp_path, sums):
    out_gift = tmp_path / "out.gift"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "gift", "-o", str(out_gift))
    text = out_gift.read_text(encoding="utf-8")
    assert "// ref: sums/s1/q2/n2/v1" in text  # its place in the paper's full order: n of P1 · Q2
    out_gift.write_text(text.replace("2+2\\=?", "Two and two?"), encoding="utf-8")
    code, out, err = run(capsys, "--db", dbfile, "import", str(out_gift))
    assert code == 0, err
    second = _with_db(dbfile, lambda db: question_ids(db, "sums"))[1]
    assert out.splitlines()[1] == "  P1 · Q2: stem (version 2)"
    q = _with_db(dbfile, lambda db: get_question(db, second))
    assert (q.stem, q.version, q.points) == ("Two and two?", 2, 1.0)


def test_into_another_database_an_export_is_a_new_paper_as_before(capsys, dbfile, tmp_path, sums):
    out_xlsx = tmp_path / "out.xlsx"
    run(capsys, "--db", dbfile, "bank", "export", "--format", "xlsx", "-o", str(out_xlsx))
    other = str(tmp_path / "other.db")
    code, out, err = run(capsys, "--db", other, "import", str(out_xlsx))
    assert code == 0, err
    assert re.match(r"imported P\d+ Sums \(2 questions", out), out  # a new paper: a code of this database
