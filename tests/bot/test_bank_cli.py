"""`proctor import` and `proctor bank ...` against a real SQLite file."""

import json
from pathlib import Path

import pytest

from bot.cli import main


@pytest.fixture
def dbfile(tmp_path, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    return str(tmp_path / "cli.db")


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
    assert "5 papers, 230 questions, 209 askable, 21 flagged" in out  # 12 held: 7 keys in doubt, 5 repeats
    block = out.split("001_c9ee6912cd06a1b6")[1].split("\n\n")[0]
    assert [line.split()[:2] for line in block.splitlines()[2:]] == [
        ["fill", "10"], ["single", "10"], ["multi", "10"], ["truefalse", "10"],
        ["short", "4"], ["discussion", "2"], ["all", "46"]]


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
    assert "深度學習中常用的激活函數sigmoid的公式是______。" in out
    assert r"$f(x)=\frac{1}{1+e^{-x}}$" in out
    code, out, _ = run(capsys, "--db", dbfile, "bank", "show", "11")
    assert "A. TensorFlow" in out and "Answer: C" in out


def test_show_missing_question_is_one_line_error(capsys, dbfile):
    code, out, err = run(capsys, "--db", dbfile, "bank", "show", "999")
    assert code == 1
    assert err.strip().splitlines()[-1] == "proctor: no question 999"  # after the bundled bank's note
    assert "Traceback" not in err


def test_bad_import_is_one_line_error_and_writes_nothing(capsys, dbfile, tmp_path, seed_files):
    bad = tmp_path / "junk.txt"
    bad.write_text("just some words\n", encoding="utf-8")
    code, _, err = run(capsys, "--db", dbfile, "import", str(seed_files[0]), str(bad))
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert "junk.txt" in err and "no section header" in err
    code, out, err = run(capsys, "--db", dbfile, "bank", "stats")
    # still a fresh database, so `bank stats` imports the bundled bank first (as `run` would)
    assert "imported the bundled bank first (5 papers)" in err
    assert "5 papers, 230 questions" in out


def test_bank_commands_on_a_fresh_database_see_the_bundled_bank_like_run(capsys, dbfile, tmp_path):
    """Before: `proctor bank stats` on a new database said 0 papers while `proctor run` had 5."""
    code, out, err = run(capsys, "--db", dbfile, "bank", "stats")
    assert code == 0 and "5 papers, 230 questions" in out
    assert err.strip() == "proctor: a new database: imported the bundled bank first (5 papers)"
    code, out, err = run(capsys, "--db", dbfile, "bank", "stats")
    assert "5 papers" in out and err == ""  # once
    own = tmp_path / "own.db"
    gift = tmp_path / "one.gift"
    gift.write_text("::q:: Two plus two? {=four ~five}\n", encoding="utf-8")
    assert run(capsys, "--db", str(own), "import", str(gift))[0] == 0  # an import is the bank itself
    code, out, _ = run(capsys, "--db", str(own), "bank", "stats")
    assert "1 papers" in out or "1 paper" in out


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`proctor bank lint | head -1`: before, a BrokenPipeError traceback."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo), "PROCTOR_DB": str(tmp_path / "p.db")}
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
    assert "004_ad5bfb426744f568 s5: count:" in out
    assert "duplicate_across" in out
    assert "004_ad5bfb426744f568 s2 q3 (id " in out


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


def test_import_reads_each_file_under_the_time_limit(capsys, dbfile, tmp_path, monkeypatch):
    from bank.formats import child

    quiz = tmp_path / "quiz.gift"
    quiz.write_text("::a:: 2+2? {=4 ~3}\n")
    monkeypatch.setattr(child, "READ_SECONDS", 0.01)  # no reader's process even starts in 10 ms
    for dry in ([], ["--dry-run"]):
        code, out, err = run(capsys, "--db", dbfile, "import", *dry, str(quiz))
        assert code == 1 and out == ""
        assert err == f"proctor: {quiz}: file: took too long to read (over 0.01 s); is it really a GIFT file?\n"
