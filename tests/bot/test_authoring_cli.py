"""The shell's equivalents: `proctor import --dry-run` prints the chat's upload preview and writes
nothing; `proctor bank add` adds one question (audited) to a paper or a new paper."""

import asyncio
from pathlib import Path

import pytest

from bank.paper_store import list_papers
from bot.cli import main
from proctor.storage.db import Database
from tests.reads import audit_count, question_count

FIXTURES = Path(__file__).resolve().parents[1] / "formats_fixtures"


@pytest.fixture
def dbfile(tmp_path, monkeypatch, db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    return db_location


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _read(dbfile, read):
    """What `read(db)` returns from the file the command wrote (the CLI runs its own event loop)."""
    async def go():
        db = await Database.open(dbfile)
        try:
            return await read(db)
        finally:
            await db.close()
    return asyncio.run(go())


def test_dry_run_prints_the_preview_and_writes_nothing(capsys, dbfile):
    code, out, err = run(capsys, "--db", dbfile, "import", "--dry-run", str(FIXTURES / "moodle_aiken.txt"))
    assert code == 0, err
    assert not Path(dbfile).exists()  # not even a new database
    # shell words, not the chat's (before: "Nothing is written until you press Import")
    assert out.startswith("📄 moodle_aiken.txt: 3 questions in 1 paper. A dry run: nothing was written. To import, "
                          "run the same command without --dry-run.\n")
    assert "press" not in out
    assert "• moodle_aiken: 3 — Single choice 3" in out
    assert "new paper · Q1 · 1 of 3 · Single choice · 1 pt\n\nIs this a multiple choice question?\nA. Yes\nB. No" in out
    assert _read(dbfile, question_count) == 0


def test_bank_add_to_a_new_paper_then_an_existing_one(capsys, dbfile):
    _read(dbfile, question_count)  # `bank add` needs a database: only run, sandbox and import make one
    code, out, err = run(capsys, "--db", dbfile, "bank", "add", "--kind", "single", "--stem", "2+2?",
                         "--option", "3", "--option", "4", "--key", "B", "--points", "2", "--new-paper", "Sums")
    assert code == 0, err
    assert "added P6 · Q1 to Sums, 单项选择题" in out  # its reference, given as it was stored
    code, out, err = run(capsys, "--db", dbfile, "bank", "add", "--kind", "fill", "--stem", "2+3=____",
                         "--key", "5;five", "--paper", "sums")
    assert code == 0, err
    assert "added P6 · Q2 to Sums, 填空题" in out
    [sums] = [p for p in _read(dbfile, list_papers) if p.title == "Sums"]
    rows = sorted((q.id, q.kind.value, q.answer, q.points) for q in sums.questions())
    assert [r[1:] for r in rows] == [("single", "B", 2.0), ("fill", [["5", "five"]], 1.0)]
    assert _read(dbfile, lambda db: audit_count(db, action="add_question")) == 2


@pytest.mark.parametrize("argv,why", [
    (["--kind", "single", "--stem", "x", "--option", "a", "--key", "A", "--new-paper", "P"], "2 to 26 --option"),
    (["--kind", "single", "--stem", "x", "--option", "a", "--option", "b", "--key", "C", "--new-paper", "P"],
     "names an option that is not there"),
    (["--kind", "numerical", "--stem", "x", "--key", "pi", "--new-paper", "P"], "--key: expected a number"),
    (["--kind", "truefalse", "--stem", "x", "--key", "T", "--paper", "nope"], "no paper 'nope'"),
    (["--kind", "truefalse", "--stem", "x", "--key", "T", "--paper", "招聘"], "is in 3 titles: P1 "),
])
def test_bank_add_refuses_bad_questions_and_writes_nothing(capsys, dbfile, argv, why):
    _read(dbfile, question_count)  # the database, as `proctor run` or an import makes it
    code, out, err = run(capsys, "--db", dbfile, "bank", "add", *argv)
    assert code == 1 and why in err, err
    assert "x" not in {q.stem for p in _read(dbfile, list_papers) for q in p.questions()}


@pytest.mark.parametrize("ref", ["P2", "p2", "2", "專家并行", "专家并行"])
def test_bank_add_takes_the_paper_as_every_command_names_it(capsys, dbfile, ref):
    """Before: `--paper P2` was "no paper P2" (only a slug or a row id was read)."""
    _read(dbfile, question_count)
    code, out, err = run(capsys, "--db", dbfile, "bank", "add", "--kind", "truefalse", "--stem", "Is 2 even?",
                         "--key", "T", "--paper", ref)
    assert code == 0, err
    [paper] = [p for p in _read(dbfile, list_papers) if "Is 2 even?" in {q.stem for q in p.questions()}]
    assert paper.code == "P2"
