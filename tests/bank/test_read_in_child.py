"""A user's file is read in a child process (bank.formats.child, issue 21 item 4): the child's
result or its ImportFailed come back as they were; past the time limit the child is killed and the
file refused naming its format; the child runs niced and without the bot's secrets."""

import os
import threading
from pathlib import Path

import pytest

from bank.errors import ImportFailed
from bank.formats import child
from bank.formats.files import parse_bytes, read_any


def wait_forever() -> None:
    """A reader that never finishes (a stuck parser)."""
    threading.Event().wait()


def what_the_child_sees() -> tuple[int, list[str]]:
    return os.nice(0), sorted(k for k in os.environ if k.startswith("PROCTOR_") or k == "TELEGRAM_BOT_TOKEN")


def _children() -> list[str]:
    """Command lines of this process's live children that read files."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == os.getpid() and "bank.formats.child" in cmdline:
            found.append(cmdline)
    return found


def test_a_reader_past_the_limit_is_killed_and_the_file_refused_by_its_format():
    with pytest.raises(child.TooSlow) as e:
        child.run(wait_forever, file="quiz.gift", limit=0.5)
    assert str(e.value) == "quiz.gift: file: took too long to read (over 0.5 s); is it really a GIFT file?"
    assert isinstance(e.value, ImportFailed)
    assert _children() == []  # killed and reaped


def test_the_childs_result_and_error_are_those_of_the_parser_in_process(tmp_path):
    good = tmp_path / "q.gift"
    good.write_bytes(b"::a:: 2+2? {=4 ~3}\n\n::b:: Sky is blue {T}\n")
    assert read_any(good) == parse_bytes(good.read_bytes(), "q.gift")
    bad = tmp_path / "bad.gift"
    bad.write_bytes(b"::a:: 2+2? {=4 ~3\n")
    with pytest.raises(ImportFailed) as in_child:
        read_any(bad)
    with pytest.raises(ImportFailed) as here:
        parse_bytes(bad.read_bytes(), "bad.gift")
    assert (in_child.value.file, in_child.value.place, in_child.value.problem) == \
        (here.value.file, here.value.place, here.value.problem)


def test_the_child_is_niced_and_gets_no_secrets(monkeypatch):
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:secret")
    monkeypatch.setenv("PROCTOR_WEBHOOK_SECRET", "secret")
    niceness, secrets = child.run(what_the_child_sees, file="x.gift")
    assert niceness == min(19, os.nice(0) + child.NICENESS)
    assert secrets == []


def chatty() -> str:
    print("a library talking on stdout")
    return "the result"


def test_what_a_reader_prints_does_not_spoil_its_result():
    assert child.run(chatty, file="x.gift") == "the result"
