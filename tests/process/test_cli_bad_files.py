"""A database that is not one, is truncated or damaged, is a directory or is read-only, and a JSON file
nested too deeply: `proctor` says so in one line naming the file, exits non-zero, and prints no
traceback. `proctor run` and the read-only cases run the real process (the latter without root's
power over file modes); `bank stats` and `import`, which start nothing, run `main()` in this process."""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bank.importer import import_files
from bot.cli import main
from proctor.storage.db import Database
from tests.process_helpers import TOKEN, child_env

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "bank" / "seeds" / "000_55527286228126e4.txt"
COMMANDS = {"run": ["run"], "bank stats": ["bank", "stats"]}
PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 24, 1, 2, 3


def proctor(tmp_path: Path, *args: str, as_a_user: bool = False) -> subprocess.CompletedProcess:
    env = child_env(tmp_path, TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_BOT_API_URL="http://127.0.0.1:9/bot")
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, preexec_fn=_without_root_file_powers if as_a_user else None)


def _without_root_file_powers() -> None:
    """Root ignores file modes (CAP_DAC_OVERRIDE): drop that power from the child's bounding set, so
    the exec'd python runs as uid 0 yet meets 0444 and 0555 like any user. Not root: nothing to drop."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def in_process(capsys, monkeypatch, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """`proctor ARGS` through `main()` here (what the process would print and return)."""
    monkeypatch.chdir(tmp_path)
    code = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["proctor", *args], code, out, err)


def assert_one_line(done: subprocess.CompletedProcess, path: Path, *words: str) -> None:
    assert done.returncode != 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"proctor: {path}") and all(w in lines[0] for w in words), lines[0]


@pytest.fixture
async def real_db(tmp_path) -> Path:
    path = tmp_path / "real.db"
    db = await Database.open(path)
    await import_files(db, [SEED], now=1.0)
    await db.close()
    return path


def _garbage(tmp_path, real_db):
    path = tmp_path / "garbage.db"
    path.write_bytes(os.urandom(8192))
    return path, "not an SQLite database"


def _text(tmp_path, real_db):
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n")
    return path, "not an SQLite database"


def _truncated(tmp_path, real_db):
    path = tmp_path / "truncated.db"
    data = real_db.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path, "damaged"


def _damaged_inside(tmp_path, real_db):
    path = tmp_path / "damaged.db"
    data = bytearray(real_db.read_bytes())
    pages = len(data) // 4096
    start, end = 4096 * (pages // 3), 4096 * (2 * pages // 3)
    data[start:end] = b"\xff" * (end - start)  # a third of the pages overwritten; the header is intact
    path.write_bytes(bytes(data))
    return path, "damaged"


def _directory(tmp_path, real_db):
    path = tmp_path / "a-folder.db"
    path.mkdir()
    return path, "is a directory"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("make", [_garbage, _text, _truncated, _damaged_inside, _directory],
                         ids=["garbage", "text", "truncated", "damaged", "directory"])
def test_unusable_database_is_one_line_naming_it(tmp_path, real_db, make, command, capsys, monkeypatch):
    path, word = make(tmp_path, real_db)
    argv = ["--db", str(path), *COMMANDS[command]]
    done = proctor(tmp_path, *argv) if command == "run" else in_process(capsys, monkeypatch, tmp_path, *argv)
    assert_one_line(done, path, word)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("where", ["file", "folder"])
def test_read_only_database_is_one_line_naming_it(tmp_path, real_db, command, where):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "proctor.db"
    path.write_bytes(real_db.read_bytes())
    path.chmod(0o444 if where == "file" else 0o644)
    folder.chmod(0o555 if where == "folder" else 0o755)
    try:
        done = proctor(tmp_path, "--db", str(path), *COMMANDS[command], as_a_user=True)
    finally:
        folder.chmod(0o755)
    assert_one_line(done, path, "read-only")
    assert path.read_bytes() == real_db.read_bytes() and stat.S_IMODE(path.stat().st_mode) in (0o444, 0o644)
    assert sorted(p.name for p in folder.iterdir()) == ["proctor.db"]  # not even a journal was written


def test_deeply_nested_json_is_one_line_naming_the_file(tmp_path, capsys, monkeypatch):
    deep = tmp_path / "deep.json"
    deep.write_text('{"papers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    done = in_process(capsys, monkeypatch, tmp_path, "--db", str(tmp_path / "p.db"), "import", str(deep))
    assert_one_line(done, Path("deep.json"), "nested too deeply")
    assert "RecursionError" not in done.stderr


def test_json_deep_enough_for_the_parser_but_not_for_validation_is_one_line(tmp_path, capsys, monkeypatch):
    n = 900
    deep = tmp_path / "answer.json"
    deep.write_text('{"papers": [{"slug": "x", "title": "t", "sections": [{"kind": "fill", "questions": '
                    '[{"number": 1, "kind": "fill", "stem": "s", "answer": ' + "[" * n + "]" * n + "}]}]}]}")
    done = in_process(capsys, monkeypatch, tmp_path, "--db", str(tmp_path / "p.db"), "import", str(deep))
    assert_one_line(done, Path("answer.json"))
