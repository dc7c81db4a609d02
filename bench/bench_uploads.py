"""Uploads beside other users (issue 21, item 4): the worst file of each format, 20 MB, sent in
chat while other users send /help; how long its reply takes, and what it costs the others.

Our real Application (an admin configured) runs alone in a child process, as in bench_flood; the
fake Bot API server and the users run here, and every timestamp is taken here.

1. The worst file of each format: every candidate below is built at --probe-size and read once
   as the bot reads it (bank.formats.child, limit --probe-limit s); the slowest per format (bytes
   per second) is that format's worst. The candidates are what makes each reader work hardest:
   the most questions a file of that size can hold, one huge field, runs of spaces or blank lines
   where a quantifier once backtracked, the issue's line of "{", unclosed HTML tags, deep nesting.
2. Per format, in turn: an upload window (the admin sends the worst file built at --size, 20 MB
   by default, just under Telegram's 20 MiB; it lasts until the bot's reply, a preview or a
   refusal) while --users users each send /help every --period s, staggered; then a baseline
   window of the same length (at most --baseline-max s) with no upload. Upload and baseline
   alternate, so a change in the machine's load falls on both.

Printed per format: the file, its reply time and first words, the others' p99 during the upload
and in the baseline, their ratio and difference, and the bot process's CPU (its own threads; the
child reading the file is not counted) in each window. Target: the upload adds < 100 ms to the
p99. `--slowest N` prints when in each window its N slowest replies came.

    python bench/bench_uploads.py [--size 20000000] [--users 20] [--period 1] [--formats GIFT,CSV]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exam import TOKEN, os_cpu  # noqa: E402
from bench_flood import Replies, _pct  # noqa: E402

from bank.authoring.upload import read_upload  # noqa: E402
from bank.errors import BankError  # noqa: E402
from bank.formats import child  # noqa: E402
from bank.formats.sheet_export import to_xlsx  # noqa: E402
from sandbox.fakeapi import FakeBotApi  # noqa: E402

ADMIN = 4242
FIRST_USER = 600_000
TARGET_MS = 100.0
SIZE = 20 * 1024 * 1024 - 64 * 1024  # under the 20 MiB a bot may fetch, with room for a generator's head and tail


# --- the candidates: (format, suffix, name, build(size) -> bytes) -------------------------------

def _fill(unit: str, size: int, head: str = "", tail: str = "") -> bytes:
    n = max(1, (size - len(head.encode()) - len(tail.encode())) // len(unit.encode()))
    return (head + unit * n + tail).encode()


def _numbered(each: Callable[[int], str], size: int, head: str = "", tail: str = "") -> bytes:
    parts, total, i = [head], len(head.encode()), 1
    while total < size - len(tail.encode()):
        part = each(i)
        parts.append(part)
        total += len(part.encode())
        i += 1
    return ("".join(parts) + tail).encode()


XML_HEAD = '<?xml version="1.0"?><quiz>'
XML_TF = ('<question type="truefalse"><name><text>n</text></name><questiontext format="html"><text>t</text>'
          '</questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text>'
          '</answer></question>')
XML_ESSAY = ('<?xml version="1.0"?><quiz><question type="essay"><name><text>n</text></name>'
             '<questiontext format="html"><text><![CDATA[')
XML_ESSAY_END = "]]></text></questiontext></question></quiz>"
SEED_HEAD = "paper\n一、填空题（每题1分，共1题）\n"
CSV_HEAD = "题型,题干,选项A,选项B,答案\n"


def _xlsx_rows(size: int) -> bytes:
    """As many rows as fit: stems that do not compress, so the workbook stays under the unpack cap
    (200 MB, 200 times its size) and is read, not refused at once."""
    rng = random.Random(21)

    def rows(n: int) -> list[list[str]]:
        return [["题型", "题干", "选项A", "选项B", "答案"]] + [
            ["单选", f"{rng.getrandbits(96):x}", "1", "2", "B"] for _ in range(n)]

    per_row = len(to_xlsx(rows(2000))) / 2000
    return to_xlsx(rows(int(size / per_row)))


def _json(size: int) -> bytes:
    return _json_of(int(0.97 * size / (len(_json_of(1000)) / 1000)))  # numbers grow longer: a margin


def _json_of(n: int) -> bytes:
    q = {"kind": "truefalse", "stem": "s", "options": [], "answer": True, "explanation": "", "points": 1.0,
         "flags": [], "topic": ""}
    section = {"kind": "truefalse", "title": "s", "points_each": 1, "declared_count": n,
               "questions": [dict(q, number=i + 1) for i in range(n)]}
    return json.dumps({"format": "exam-proctor-bank", "version": 1, "papers": [
        {"slug": "p", "title": "p", "source_file": "p", "settings": {}, "notes": [], "sections": [section]}]}).encode()


CANDIDATES: list[tuple[str, str, str, Callable[[int], bytes]]] = [
    ("GIFT", ".gift", "tiny questions", lambda s: _fill("::q::a{T}\n\n", s)),
    ("GIFT", ".txt", "a line of '{' (issue 21)", lambda s: _fill("{", s, head="x")),
    ("GIFT", ".txt", "blank lines", lambda s: _fill("\n", s, head="::a:: b {T}")),
    ("GIFT", ".gift", "unclosed HTML tags", lambda s: _fill("<a ", s, head="::a::[html] ", tail="{T}\n")),
    ("Aiken", ".txt", "tiny questions", lambda s: _fill("Q\nA. x\nB. y\nANSWER: A\n\n", s)),
    ("Aiken", ".txt", "spaces in an option", lambda s: _fill(" ", s, head="Q\nA.", tail="x\nB. y\nANSWER: A\n")),
    ("Moodle XML", ".xml", "tiny questions", lambda s: _fill(XML_TF, s, head=XML_HEAD, tail="</quiz>")),
    ("Moodle XML", ".xml", "one long HTML text", lambda s: _fill("<b>x</b> ", s, head=XML_ESSAY, tail=XML_ESSAY_END)),
    ("Moodle XML", ".xml", "unclosed HTML tags", lambda s: _fill("<a ", s, head=XML_ESSAY, tail=XML_ESSAY_END)),
    ("Moodle XML", ".xml", "deep elements", lambda s: _fill("<a>", s, head=XML_HEAD, tail="</quiz>")),
    ("CSV", ".csv", "tiny rows", lambda s: _fill("单选,q,1,2,B\n", s, head=CSV_HEAD)),
    ("CSV", ".csv", "spaces in a numeric key", lambda s: _fill("数值,q,1" + " " * 60_000 + "x\n", s, head=CSV_HEAD)),
    ("CSV", ".csv", "spaces in fill-in alternatives",
     lambda s: _fill("填空,q ____,a" + " " * 60_000 + "（或b）\n", s, head=CSV_HEAD)),
    ("XLSX", ".xlsx", "tiny rows", _xlsx_rows),
    ("seed text", ".txt", "tiny questions", lambda s: _numbered(lambda i: f"{i}. a ____ b\n答案：x\n", s, head=SEED_HEAD)),
    ("seed text", ".txt", "blank lines", lambda s: _fill("\n", s, head=SEED_HEAD + "1. a ____\n答案：x\n")),
    ("seed text", ".txt", "spaces before empty brackets",
     lambda s: _fill(" ", s, head="paper\n一、判断题（每题1分，共1题）\n1. a", tail="()\n答案：对\n")),
    ("JSON", ".json", "tiny questions", _json),
    ("JSON", ".json", "deep nesting", lambda s: _fill("[", s)),
]


def worst_files(formats: list[str], size: int, limit: float) -> dict[str, tuple[str, str, Callable[[int], bytes]]]:
    """Per format, the candidate that the reader goes through slowest per byte at `size` (less the
    time a child takes to read an empty file)."""
    started = time.perf_counter()
    try:
        child.run(read_upload, "empty.gift", b"", file="empty.gift", limit=limit)
    except BankError:
        pass
    fixed = time.perf_counter() - started
    worst: dict[str, tuple[float, str, str, Callable[[int], bytes]]] = {}
    for fmt, suffix, name, build in CANDIDATES:
        if fmt not in formats:
            continue
        data = build(size)
        started = time.perf_counter()
        try:
            papers = child.run(read_upload, f"probe{suffix}", data, file=f"probe{suffix}", limit=limit)
            said = f"{sum(len(p.questions()) for p in papers)} questions"
        except BankError as e:
            said = str(e)[:60]
        seconds = time.perf_counter() - started
        rate = (seconds - fixed) / max(len(data), 1)
        print(f"  probe {fmt:10} {name:32} {len(data) / 1e6:6.2f} MB {seconds:6.2f} s  {said}", flush=True)
        if fmt not in worst or rate > worst[fmt][0]:
            worst[fmt] = (rate, suffix, name, build)
    return {fmt: (suffix, name, build) for fmt, (_, suffix, name, build) in worst.items()}


# --- the bot in its own process -----------------------------------------------------------------

def serve(base_url: str, file_url: str, db_path: str, conn) -> None:
    """Child process: our Application with ADMIN configured, until the parent says stop."""
    asyncio.run(_serve(base_url, file_url, db_path, conn))


async def _serve(base_url: str, file_url: str, db_path: str, conn) -> None:
    from _exam_bots import _wait_warm_up

    from bot.app import build_application
    from bot.lifecycle import start_app, stop_app
    from bot.settings import Settings

    settings = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_DB=Path(db_path), PROCTOR_BOT_API_URL=base_url,
                        PROCTOR_BOT_API_FILE_URL=file_url, PROCTOR_ADMINS=str(ADMIN))
    app = build_application(settings, rate_limiter=False)
    await start_app(app, poll_timeout=1)
    await _wait_warm_up()
    conn.send("ready")
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    await stop_app(app)
    conn.send("stopped")


# --- the windows ---------------------------------------------------------------------------------

async def others(probe: Replies, users: list, period: float, stop: asyncio.Event) -> None:
    """User i sends /help at i·period/N + r·period, r = 0, 1, ..., until `stop`."""
    start = time.perf_counter() + 0.05

    async def one(i: int, user) -> None:
        at = start + i * period / len(users)
        while not stop.is_set():
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            if stop.is_set():
                return
            probe.asked(user.id)
            await user.send("/help")
            at += period

    await asyncio.gather(*(one(i, u) for i, u in enumerate(users)))


class Stamped(list):
    """Latencies, each with when it was taken (to see where in a window the slow ones fall)."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def append(self, value: float) -> None:
        super().append(value)
        self.at.append(time.perf_counter())


async def window(api: FakeBotApi, probe: Replies, users: list, args, bot_pid: int, *, upload=None,
                 length: float = 0.0):
    """The others' latencies over one window: until the upload's reply (at least args.min_window
    s), or `length` s without one. Returns (latencies, reply seconds, reply text, the bot process's
    CPU seconds: its own threads, not the child reading the file)."""
    cpu = os_cpu(bot_pid)
    latencies = Stamped()
    probe.latencies, probe.bot_side = latencies, []
    probe.measuring = True
    stop = asyncio.Event()
    sending = asyncio.create_task(others(probe, users, args.period, stop))
    started = time.perf_counter()
    reply_s, reply = 0.0, ""
    if upload is not None:
        admin, name, data = upload
        await admin.send_document(data, name)
        message = await admin.wait_message(timeout=300)
        reply_s, reply = time.perf_counter() - started, (message.text or "").replace("\n", " ")
        await asyncio.sleep(max(0.0, args.min_window - reply_s))
    else:
        await asyncio.sleep(length)
    stop.set()
    await sending
    probe.measuring = False
    if args.slowest:
        slow = sorted(zip(latencies, latencies.at, strict=True), reverse=True)[:args.slowest]
        print("    slowest: " + ", ".join(f"{v * 1000:.0f} ms at {t - started:.1f} s" for v, t in slow), flush=True)
    cpu = os_cpu(bot_pid) - cpu
    await api.wait_idle(quiet=0.3, timeout=120)
    return latencies, reply_s, reply, cpu


async def run(args) -> list[dict]:
    formats = [f for f in args.formats.split(",") if f] or sorted({c[0] for c in CANDIDATES}, key=lambda f: [
        c[0] for c in CANDIDATES].index(f))
    print(f"the worst file per format, read at {args.probe_size / 1e6:.1f} MB:", flush=True)
    worst = worst_files(formats, args.probe_size, args.probe_limit)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Replies() as probe:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        ctx = multiprocessing.get_context("spawn")
        conn, child_conn = ctx.Pipe()
        bot = ctx.Process(target=serve, args=(api.base_url, api.base_file_url, str(Path(tmp) / "proctor.db"), child_conn))
        bot.start()
        loop = asyncio.get_running_loop()
        try:
            if not await loop.run_in_executor(None, conn.poll, 120):
                raise TimeoutError("the bot did not start within 120 s")
            conn.recv()
            users = [api.user(FIRST_USER + i, f"U{i}", language_code="en") for i in range(args.users)]
            admin = api.user(ADMIN, "Admin", language_code="en")
            for u in [*users, admin]:  # first sight of each user is not measured
                probe.asked(u.id)
                await u.send("/help")
            await api.wait_idle(quiet=0.5, timeout=60)
            for fmt in formats:
                suffix, name, build = worst[fmt]
                data = build(args.size)
                loaded, reply_s, reply, cpu = await window(api, probe, users, args, bot.pid,
                                                           upload=(admin, f"worst{suffix}", data))
                quiet, _, _, base_cpu = await window(api, probe, users, args, bot.pid,
                                                     length=min(args.baseline_max, max(args.min_window, reply_s)))
                rows.append({"format": fmt, "file": name, "mb": len(data) / 1e6, "reply_s": reply_s,
                             "reply": reply[:70], "p99": _pct(loaded, 0.99), "base_p99": _pct(quiet, 0.99),
                             "n": len(loaded), "base_n": len(quiet), "cpu": cpu / max(reply_s, args.min_window),
                             "base_cpu": base_cpu / min(args.baseline_max, max(args.min_window, reply_s))})
                print(_row(rows[-1]), flush=True)
            conn.send("stop")
            await loop.run_in_executor(None, conn.poll, 60)  # "stopped": the fake server may go now
        finally:
            bot.join(30)
            if bot.is_alive():
                bot.terminate()
            await api.stop()
    return rows


def _row(r: dict) -> str:
    ratio = r["p99"] / r["base_p99"] if r["base_p99"] else float("nan")
    return (f"| {r['format']} | {r['file']} | {r['mb']:.1f} | {r['reply_s']:.1f} | {r['reply']} | "
            f"{r['p99']:.1f} ({r['n']}) | {r['base_p99']:.1f} ({r['base_n']}) | {ratio:.2f} | "
            f"{r['p99'] - r['base_p99']:+.1f} | {r['cpu'] * 100:.0f} / {r['base_cpu'] * 100:.0f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=SIZE, help="bytes per uploaded file")
    parser.add_argument("--probe-size", type=int, default=500_000, help="bytes per candidate when finding the worst")
    parser.add_argument("--probe-limit", type=float, default=10.0, help="seconds a candidate may take to read")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--period", type=float, default=1.0, help="seconds between one user's /help")
    parser.add_argument("--min-window", type=float, default=5.0)
    parser.add_argument("--baseline-max", type=float, default=12.0)
    parser.add_argument("--slowest", type=int, default=0, help="print when the N slowest replies of each window came")
    parser.add_argument("--formats", default="", help="comma-separated, e.g. GIFT,CSV (default: all)")
    args = parser.parse_args()
    rows = asyncio.run(run(args))
    print("\n| format | worst file | MB | reply s | reply | others' p99 ms (n) | baseline p99 ms (n) | ratio | Δ ms "
          "| bot CPU % upload / baseline |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(_row(r))
    worst = max((r["p99"] - r["base_p99"] for r in rows), default=0.0)
    print(f"\nworst added p99: {worst:+.1f} ms (target < {TARGET_MS:.0f} ms): {'pass' if worst < TARGET_MS else 'FAIL'}")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
