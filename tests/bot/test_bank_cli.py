"""`proctor import` and `proctor bank ...` against a real record: a SQLite file, and a PostgreSQL database
(`dbfile` takes each engine in turn)."""

import json
import re
from pathlib import Path

import pytest

from bot.cli import main


@pytest.fixture
def dbfile(db_location, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    return db_location


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_then_stats(capsys, dbfile, seed_files):
    code, out, _ = run(capsys, "--db", dbfile, "import", *map(str, seed_files))
    assert code == 0
    assert out.count("imported ") == 5
    code, out, _ = run(capsys, "--db", dbfile, "bank", "stats")
    assert code == 0
    assert "大模型梯度累积工程师招聘笔试考试试卷和答案" in out
    assert "2025年大模型訓練優化器（含答案與解析）" in out
    assert "docVIP" not in out and "(x" not in out
    assert ("5 papers, 230 questions: 209 askable · 12 held (7 key in doubt, 5 repeats) · 9 unaskable "
            "(5 cut off, 4 garbled) · 0 retired") in out
    # issue 22: each paper headed by its code and title, as /papers shows it; no internal slug
    assert not re.search(r"\d{3}_[0-9a-f]{16}", out), out
    block = out.split("\nP2 大模型專家并行工程師招聘筆試考試試卷和答案\n")[1].split("\n\n")[0]
    assert [line.split()[:2] for line in block.splitlines()[1:]] == [
        ["fill", "10"], ["single", "10"], ["multi", "10"], ["truefalse", "10"],
        ["short", "4"], ["discussion", "2"], ["all", "46"], ["46", "questions:"]]


def test_export_import_round_trip(capsys, dbfile, tmp_path, seed_files):
    run(capsys, "--db", dbfile, "import", *map(str, seed_files))
    code, exported, _ = run(capsys, "--db", dbfile, "bank", "export")
    assert code == 0
    data = json.loads(exported)
    assert "深度學習" in exported  # readable UTF-8, not \\u escapes
    q = data["papers"][2]["sections"][1]["questions"][0]
    assert set(q) >= {"number", "kind", "stem", "options", "answer", "explanation", "points", "flags"}
    assert q["answer"] == "ABCD" and len(q["options"]) == 5
    path = tmp_path / "bank.json"
    path.write_text(exported, encoding="utf-8")
    other = str(tmp_path / "other.db")
    assert run(capsys, "--db", other, "import", str(path))[0] == 0
    assert run(capsys, "--db", other, "bank", "export")[1] == exported


def test_show_one_question(capsys, dbfile, seed_files):
    run(capsys, "--db", dbfile, "import", str(seed_files[1]))
    code, out, _ = run(capsys, "--db", dbfile, "bank", "show", "1")
    assert code == 0
    # the paper's title and the section's name, not the file's name (issue 22: "000_55527286228126e4 section 1")
    assert out.splitlines()[0].startswith("P1 · Q1 · 大模型專家并行工程師招聘筆試考試試卷和答案 · 一、填空題") and "001_" not in out
    assert out.splitlines()[1] == "bank id #1"  # the handle commands take besides the reference
    assert run(capsys, "--db", dbfile, "bank", "show", "P1", "Q1")[1] == out  # the reference finds it too
    assert "深度學習中常用的激活函數sigmoid的公式是______。" in out
    assert r"$f(x)=\frac{1}{1+e^{-x}}$" in out
    code, out, _ = run(capsys, "--db", dbfile, "bank", "show", "11")
    assert "A. TensorFlow" in out and "Answer: C" in out


def test_show_missing_question_is_one_line_error(capsys, dbfile, seed_files):
    run(capsys, "--db", dbfile, "import", str(seed_files[1]))
    code, out, err = run(capsys, "--db", dbfile, "bank", "show", "999")
    assert code == 1
    assert err.strip() == "proctor: no question 999"
    assert "Traceback" not in err


def test_bad_import_is_one_line_error_and_writes_nothing(capsys, dbfile, tmp_path, seed_files):
    bad = tmp_path / "junk.txt"
    bad.write_text("just some words\n", encoding="utf-8")
    code, _, err = run(capsys, "--db", dbfile, "import", str(seed_files[0]), str(bad))
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert "junk.txt" in err and "no section header" in err
    code, out, err = run(capsys, "--db", dbfile, "bank", "stats")
    # the import made the database and wrote no paper, so `bank stats` imports the bundled bank first (as
    # `run` would)
    assert "imported the bundled bank first (5 papers)" in err
    assert "5 papers, 230 questions" in out


@pytest.mark.parametrize("argv", [["status"], ["bank", "stats"], ["bank", "show", "1"], ["bank", "lint"],
                                  ["bank", "export"], ["invite", "list"], ["bank", "set", "x", "--exam-only", "on"]])
def test_a_missing_database_is_refused_in_one_line_not_made(capsys, tmp_path, monkeypatch, argv):
    """Before: `proctor --db /nonexistent/dir/x.db status` made the folders, imported the bundled bank and
    said "0 running"."""
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    missing = tmp_path / "typo.db"
    code, out, err = run(capsys, "--db", str(missing), *argv)
    assert code == 1 and out == ""
    # issue 22: the sandbox keeps its own ./data/sandbox.db, so naming it here sent people astray
    assert err.strip() == (f"proctor: {missing} does not exist; check --db or PROCTOR_DB (`proctor run` and "
                           "`proctor import` create one)")
    assert not missing.exists()
    nested = tmp_path / "no" / "such" / "dir" / "x.db"
    code, out, err = run(capsys, "--db", str(nested), *argv)
    assert code == 1 and err.strip() == f"proctor: {nested} does not exist; check --db or PROCTOR_DB " \
        "(`proctor run` and `proctor import` create one)"
    assert not (tmp_path / "no").exists()


def test_only_import_run_and_sandbox_create_a_database_and_never_its_folders(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    gift = tmp_path / "one.gift"
    gift.write_text("::q:: Two plus two? {=four ~five}\n", encoding="utf-8")
    nested = tmp_path / "no" / "such" / "x.db"
    folder_missing = (f"proctor: {nested}: its folder {nested.parent} does not exist; create it first, "
                      "or check --db or PROCTOR_DB\n")  # one line, as docs/settings.md says
    code, _, err = run(capsys, "--db", str(nested), "import", str(gift))
    assert code == 1 and err == folder_missing
    assert not (tmp_path / "no").exists()
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    monkeypatch.setenv("PROCTOR_BOT_API_URL", "http://127.0.0.1:9/bot")  # nothing listens there
    assert run(capsys, "--db", str(nested), "run")[::2] == (1, folder_missing)
    assert not (tmp_path / "no").exists()
    own = tmp_path / "own.db"
    assert run(capsys, "--db", str(own), "import", str(gift))[0] == 0  # an import is the bank itself
    code, out, err = run(capsys, "--db", str(own), "bank", "stats")
    assert code == 0 and "1 paper, " in out and err == ""


async def test_bank_commands_on_a_database_without_papers_see_the_bundled_bank_like_run(capsys, dbfile):
    """Before: `proctor bank stats` on a new database said 0 papers while `proctor run` had 5."""
    import asyncio

    from proctor.storage.db import Database

    await (await Database.open(dbfile)).close()  # a database with no papers, as a stopped first start leaves it
    code, out, err = await asyncio.to_thread(run, capsys, "--db", dbfile, "bank", "stats")
    assert code == 0 and "5 papers, 230 questions" in out
    assert err.strip() == "proctor: a new database: imported the bundled bank first (5 papers)"
    code, out, err = await asyncio.to_thread(run, capsys, "--db", dbfile, "bank", "stats")
    assert "5 papers" in out and err == ""  # once


def test_a_closed_pipe_ends_quietly(tmp_path, seed_files):
    """`proctor bank lint | head -1`: before, a BrokenPipeError traceback."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo), "PROCTOR_DB": str(tmp_path / "p.db")}
    assert main(["--db", env["PROCTOR_DB"], "import", *map(str, seed_files)]) == 0
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "bank", "lint"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline()  # the reader takes one line and leaves
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, 1)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err


def test_lint_lists_flags_and_oddities(capsys, dbfile, seed_files):
    run(capsys, "--db", dbfile, "import", *map(str, seed_files))
    code, out, _ = run(capsys, "--db", dbfile, "bank", "lint")
    assert code == 0
    assert out.count(": truncated:") == 5
    assert out.count(": corrupted:") == 4
    # where: the question's reference, the paper's title and the section's name; no file name (issue 22)
    title = "2025年大模型訓練優化器（含答案與解析）"
    assert f"{title} · 案例分析題: count: question count: 2 declared, " in out
    assert "duplicate_across" in out
    assert f"\nP5 · Q18 ({title} · 多選題): " in out and "004_" not in out


def test_bank_set_changes_a_papers_settings_and_refuses_bad_values(tmp_path, capsys):
    from bot.cli import main

    db = str(tmp_path / "set.db")
    seed = sorted((Path(__file__).resolve().parents[2] / "bank" / "seeds").glob("000_*.txt"))[0]
    assert main(["--db", db, "import", str(seed)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "bank", "set", seed.stem, "--time-limit", "90", "--attempts", "2",
                 "--grading", "last", "--exam-only", "on"]) == 0
    out = capsys.readouterr().out
    assert "90 min, attempts 2, grading last" in out and "exam-only on" in out
    assert main(["--db", db, "bank", "set", seed.stem, "--time-limit", "0"]) == 1
    assert "1 to 1440" in capsys.readouterr().err
    assert main(["--db", db, "bank", "set", "no-such-paper", "--time-limit", "5"]) == 1
    assert "no paper" in capsys.readouterr().err
    assert main(["--db", db, "bank", "set", seed.stem, "--attempts", "unlimited"]) == 0
    assert "attempts unlimited" in capsys.readouterr().out


def test_the_bank_commands_read_the_database_from_dot_env_as_run_does(capsys, tmp_path, monkeypatch, seed_files):
    """Before: PROCTOR_DB in `.env` was read by `proctor run` only; `proctor status` looked at (and made)
    ./data/proctor.db."""
    monkeypatch.setenv("PROCTOR_DB", "")  # so the test's end restores it, whatever main sets
    monkeypatch.delenv("PROCTOR_DB")
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("proctor_db=mine.db\n", encoding="utf-8")
    assert run(capsys, "import", str(seed_files[0]))[0] == 0
    assert (tmp_path / "mine.db").exists() and not (tmp_path / "data").exists()
    code, out, _ = run(capsys, "bank", "stats")
    assert code == 0 and "1 paper, " in out


def test_import_reads_each_file_under_the_time_limit(capsys, dbfile, tmp_path, monkeypatch):
    from bank.formats import child

    quiz = tmp_path / "quiz.gift"
    # 20,000 questions (1 MB): no reader gets through them in 10 ms, even one forked from a warm zygote
    quiz.write_text("".join(f"::q{i}:: {i}+2? {{={i + 2} ~{i}}}\n\n" for i in range(20_000)))
    monkeypatch.setattr(child, "READ_SECONDS", 0.01)
    for dry in ([], ["--dry-run"]):
        code, out, err = run(capsys, "--db", dbfile, "import", *dry, str(quiz))
        assert code == 1 and out == ""
        assert err == f"proctor: {quiz}: file: took too long to read (over 0.01 s); is it really a GIFT file?\n"
