"""A word the command line does not take is reported by the command it follows, with that command's
usage (`proctor import: error: unrecognized arguments: --bogus`), as argparse reports a missing one."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.mark.parametrize("argv, command", [
    (["import", "a.txt", "--bogus"], "proctor import"),
    (["import", "--bogus", "a.txt"], "proctor import"),
    (["bank", "list", "--bogus"], "proctor bank list"),
    (["bank", "export", "-x", "3"], "proctor bank export"),
    (["team", "verify", "-100", "--bogus"], "proctor team verify"),
    (["backup", "b.db", "more"], "proctor backup"),
    (["--bogus", "bank", "list"], "proctor"),  # before any command: the program's own
])
def test_an_unknown_word_is_reported_by_its_command(tmp_path, capsys, monkeypatch, argv, command):
    """Before: `proctor import a.txt --bogus` printed the whole program's usage and `proctor: error`."""
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(["--db", str(tmp_path / "p.db"), *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    usage, last = err.splitlines()[0], err.splitlines()[-1]
    assert usage.startswith(f"usage: {command} ") and last.startswith(f"{command}: error: unrecognized arguments: ")
    assert not (tmp_path / "p.db").exists()
