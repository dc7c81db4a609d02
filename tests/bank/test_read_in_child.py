"""A user's file is read in a child process (bank.formats.child on bank.child_process): the child's
result or its ImportFailed come back as they were; past the time limit the child is killed and the
file refused naming its format; the child runs niced, with an allow-listed environment.

The children, file readers and jieba's alike, are forked from one zygote per process: the zygote is
reused, started again if it dies, and a child that crashes or is killed leaves no process behind."""

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from bank import child_process
from bank.errors import ImportFailed
from bank.formats import child
from bank.formats.files import parse_bytes, read_any
from bank.grading.terms import SegmentIn, key_terms, terms_for
from tests.bank.child_jobs import chatty, crash, my_pid, niceness, wait_for, wait_forever

# the bot's settings in both cases pydantic-settings reads, one of its secrets, and someone else's
SECRETS = {"TELEGRAM_BOT_TOKEN": "1:upper-secret", "telegram_bot_token": "1:lower-secret",
           "PROCTOR_DB": "postgresql://ann:db-secret@db.example/proctor",
           "PROCTOR_WEBHOOK_SECRET": "webhook-secret", "MY_API_KEY": "api-secret"}


def _processes() -> dict[int, tuple[int, str, str]]:
    """Every process: pid -> (parent pid, state, command line)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        found[int(stat.parent.name)] = (int(fields[1]), fields[0], cmdline)
    return found


def _zygotes() -> list[int]:
    return [pid for pid, (ppid, _, cmd) in _processes().items()
            if ppid == os.getpid() and "bank.child_process --zygote" in cmd]


def _readers(zygote: int) -> list[int]:
    """The zygote's children, zombies included."""
    return [pid for pid, (ppid, _, _) in _processes().items() if ppid == zygote]


@pytest.fixture(params=["zygote", "fresh"])
def way(request, monkeypatch):
    """Both ways of starting a reader: forked from the zygote, or (without pidfds) a fresh interpreter."""
    if request.param == "fresh":
        monkeypatch.setattr(child_process, "HAVE_PIDFD", False)
    return request.param


def test_a_reader_past_the_limit_is_killed_and_the_file_refused_by_its_format(way):
    with pytest.raises(child.TooSlow) as e:
        child.run(wait_forever, file="quiz.gift", limit=0.5)
    assert str(e.value) == "quiz.gift: file: took too long to read (over 0.5 s); is it really a GIFT file?"
    assert isinstance(e.value, ImportFailed)
    if way == "zygote":
        [zygote] = _zygotes()
        assert _readers(zygote) == []  # killed and reaped
    else:
        assert [p for p, (ppid, _, cmd) in _processes().items()
                if ppid == os.getpid() and "bank.child_process" in cmd and "--zygote" not in cmd] == []


def test_the_childs_result_and_error_are_those_of_the_parser_in_process(tmp_path, way):
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


def test_the_child_is_niced(way):
    assert child.run(niceness, file="x.gift") == min(19, os.nice(0) + child_process.NICENESS)


def _children_at_work(way: str) -> list[int]:
    """The children doing a job now: the zygote's, or (without pidfds) this process's fresh interpreters."""
    procs = _processes()
    if way == "fresh":
        return [pid for pid, (ppid, _, cmd) in procs.items()
                if ppid == os.getpid() and "bank.child_process" in cmd and "--zygote" not in cmd]
    zygotes = [pid for pid, (ppid, _, cmd) in procs.items()
               if ppid == os.getpid() and "bank.child_process --zygote" in cmd]
    return [pid for pid, (ppid, state, _) in procs.items() if ppid in zygotes and state != "Z"]


def _environ_of_a_child_at_work(way: str, job: threading.Thread) -> dict[str, str]:
    """/proc/<pid>/environ of the child doing `job`'s work, read from here while it works."""
    deadline = time.monotonic() + 60
    while job.is_alive() and time.monotonic() < deadline:
        for pid in _children_at_work(way):
            try:
                block = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:  # it ended in between
                continue
            return dict(entry.split("=", 1) for entry in block.decode().split("\0") if "=" in entry)
        time.sleep(0.005)
    raise AssertionError("never saw the child at work")


def _secrets_in(environ: dict[str, str]) -> list[str]:
    found = [k for k in SECRETS if k.lower() in {name.lower() for name in environ}]
    return found + [k for k, v in SECRETS.items() if any(v in value for value in environ.values())]


@pytest.fixture
def secrets(monkeypatch):
    """This process's environment holds the secrets, and the next zygote starts with them around."""
    child_process.shutdown()
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    yield
    child_process.shutdown()


def test_a_reader_child_gets_no_secret_of_the_environment(tmp_path, way, secrets):
    seen = tmp_path / "seen"
    done: list[str] = []
    job = threading.Thread(target=lambda: done.append(child.run(wait_for, str(seen), file="x.gift")))
    job.start()
    try:
        environ = _environ_of_a_child_at_work(way, job)
    finally:
        seen.touch()
        job.join(timeout=30)
    assert done == ["done"]
    assert _secrets_in(environ) == []
    assert environ["PATH"] == os.environ["PATH"] and "PYTHONPATH" in environ  # what it needs to run
    assert {k for k in environ if not k.startswith("LC_")} <= child_process.ENV_NAMES | {"PYTHONPATH"}


def test_the_jieba_child_gets_no_secret_of_the_environment(secrets):
    """Seen while it loads jieba's dictionary (most of a second), as the bot's start-up, Import, /newq and
    /editq run it."""
    references = [f"第{i}层的权重矩阵切分到多个设备上，前向时各设备计算部分结果再通过全归约合并" for i in range(50)]
    found: list[list[list[str]]] = []
    job = threading.Thread(target=lambda: found.append(terms_for(references, segment_in=SegmentIn.CHILD)))
    job.start()
    try:
        environ = _environ_of_a_child_at_work("zygote", job)
    finally:
        job.join(timeout=300)
    assert _secrets_in(environ) == []
    assert found == [[list(key_terms(r)) for r in references]]


def test_what_a_reader_prints_does_not_spoil_its_result(way):
    assert child.run(chatty, file="x.gift") == "the result"


def test_a_reader_that_dies_is_one_line_and_logged(way, caplog):
    with pytest.raises(ImportFailed) as e:
        child.run(crash, file="q.xml")
    assert str(e.value) == "q.xml: file: could not be read (the reader failed; see the log)"
    assert "reading q.xml failed in its child process" in caplog.text


def test_every_file_gets_a_fresh_process_forked_from_one_zygote():
    pids = [child.run(my_pid, file="x.gift") for _ in range(3)]
    assert len(set(pids)) == 3 and os.getpid() not in pids
    [zygote] = _zygotes()
    assert _readers(zygote) == []  # each reaped when it ended


def test_a_zygote_that_died_is_started_again():
    child.run(my_pid, file="x.gift")
    [first] = _zygotes()
    os.kill(first, signal.SIGKILL)
    os.waitpid(first, 0)
    assert child.run(chatty, file="x.gift") == "the result"
    assert _zygotes() not in ([first], [])


def test_readers_run_side_by_side_and_a_shutdown_ends_them():
    """Two files at once (two users uploading): neither waits for the other's reader; stopping the
    zygote (the bot stopping) ends a reader still at work, and its file is refused in one line."""
    ended: list[ImportFailed] = []

    def slow_one() -> None:
        try:
            child.run(wait_forever, file="slow.gift", limit=120)
        except ImportFailed as e:
            ended.append(e)

    t = threading.Thread(target=slow_one)
    t.start()
    deadline = time.monotonic() + 60
    while not (_zygotes() and _readers(_zygotes()[0])):  # the slow file's reader is at work
        assert time.monotonic() < deadline, "the slow reader never started"
        time.sleep(0.01)
    assert child.run(chatty, file="x.gift") == "the result"
    assert ended == [] and t.is_alive()  # the fast file came back while the slow one is being read
    child_process.shutdown()
    t.join(timeout=30)
    assert [str(e) for e in ended] == ["slow.gift: file: could not be read (the reader failed; see the log)"]
