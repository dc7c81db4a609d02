"""Cold start to the first reply: our `proctor run` process against the bare PTB bot's process.

One run: the fake Bot API starts in this process with a user's /exam already queued, the bot is
started as a child process, and the time from starting it until its first sendMessage to that user
reaches the server is printed; then the bot is stopped (SIGTERM) and this process exits.
Ours runs on a database that already holds the migrated bundled bank (a restart, the usual cold
start), or on an empty one with --fresh (the very first start: migrations and the bundled import).

    python bench/bench_cold_start.py ours|bare [--fresh]    # one run, prints "first reply: X s"
    python bench/bench_cold_start.py --ab 10 [--fresh]       # ours, bare, bare, ours...: medians
    python bench/bench_cold_start.py --ab 10 --aa            # ours against ours: the noise
    python bench/bench_cold_start.py ours --papers 50        # a bigger bank: the bundled papers copied

A figure reported, not a target (a bot that runs for days starts once): the median of the pairs'
ratios, CPU and wall. The bots run with cached bytecode (an installed package has it); --ab starts
with one uncounted pair. To time whole processes from outside instead, run the one-run form under
/usr/bin/time -v.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sandbox.fakeapi import FakeBotApi  # noqa: E402  (after the path set-up above)

TOKEN = "123456:COLD-start-fake-token-for-bench"


def _bot_command(kind: str, db: Path, base_url: str) -> list[str]:
    if kind == "ours":
        return [sys.executable, "-m", "bot.cli", "--db", str(db), "run"]
    return [sys.executable, str(REPO / "bench" / "_exam_bots.py"), TOKEN, base_url]


def os_cpu(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far, all its threads, as the kernel accounts them."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def first_reply(kind: str, db: Path) -> tuple[float, float]:
    """Seconds from starting the bot's process until its first message to a waiting user, and the CPU
    seconds the bot's process spent until then (less sensitive than the wall time to a busy machine)."""
    api = FakeBotApi(TOKEN, bot_username="proctor_bot")
    await api.start()
    user = api.user(4242, "Cold", language_code="en")
    await user.send("/exam")
    # bytecode is cached, as for an installed package (pip compiles it): a run with
    # PYTHONDONTWRITEBYTECODE would compile our ~100 modules from source at every start
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCTOR_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_BOT_API_URL=api.base_url, PYTHONPATH=str(REPO))
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(*_bot_command(kind, db, api.base_url), cwd=REPO, env=env,
                                                stdout=asyncio.subprocess.DEVNULL,
                                                stderr=asyncio.subprocess.DEVNULL)
    try:
        await user.wait_message(lambda m: m.from_bot, timeout=60)
        elapsed, cpu = time.perf_counter() - started, os_cpu(proc.pid)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(10):
                await proc.wait()
        except TimeoutError:
            proc.kill()
            await proc.wait()
        await api.stop()
    return elapsed, cpu


async def _prepared_db(directory: Path, papers: int = 5) -> Path:
    """A database holding the migrated bundled bank, as after a first start; with more `papers` than
    the five bundled ones, copies of them (another slug and title) make up the number (/exam lists them)."""
    from bank.grading.terms import SegmentIn
    from bank.importer import parse_files
    from bank.paper_store import with_key_terms, write_papers
    from proctor.storage.bootstrap import SEEDS_DIR, ensure_default_bank
    from proctor.storage.db import Database

    path = directory / "proctor.db"
    db = await Database.open(path)
    await ensure_default_bank(db, time.time())
    seeds = parse_files(sorted(SEEDS_DIR.glob("*.txt")))
    copies = [seeds[i % len(seeds)] for i in range(max(0, papers - len(seeds)))]
    renamed = await with_key_terms([p.model_copy(update={"slug": f"{p.slug}-{i}", "title": f"{p.title} ({i})"})
                                    for i, p in enumerate(copies)], segment_in=SegmentIn.THIS_PROCESS)
    await db.run_write(lambda conn: write_papers(conn, renamed, time.time()))
    await db.close()
    return path


def one(kind: str, fresh: bool, papers: int = 5) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "proctor.db" if fresh else asyncio.run(_prepared_db(Path(tmp), papers))
        return asyncio.run(first_reply(kind, db))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", nargs="?", choices=("ours", "bare"))
    ap.add_argument("--ab", type=int, metavar="N", help="N interleaved pairs, ABBA: ours, bare, bare, ours...")
    ap.add_argument("--aa", action="store_true", help="ours against ours: the noise of this machine's figure")
    ap.add_argument("--fresh", action="store_true", help="ours starts on an empty database")
    ap.add_argument("--papers", type=int, default=5, help="papers in the bank (the 5 bundled, then copies)")
    args = ap.parse_args(argv)
    if args.kind:
        wall, cpu = one(args.kind, args.fresh, args.papers)
        print(f"first reply: {wall:.3f} s (bot process CPU {cpu:.3f} s)")
        return 0
    a, b = "ours", "ours" if args.aa else "bare"

    def start(kind: str) -> tuple[float, float]:
        return one(kind, args.fresh, args.papers)

    start(a), start(b)  # warm-up, not counted: bytecode, page cache
    pairs = []
    for k in range(args.ab or 10):
        # ABBA: every other pair the baseline goes first, so a drift of the machine's speed within
        # the run does not favour either side
        if k % 2:
            theirs = start(b)
            ours = start(a)
        else:
            ours = start(a)
            theirs = start(b)
        pairs.append((ours, theirs))
    for what, i in (("wall s", 0), ("CPU s", 1)):
        ours, bare = [p[0][i] for p in pairs], [p[1][i] for p in pairs]
        ratios = [p[0][i] / p[1][i] for p in pairs]
        for name, values in ((f"{a} {what}", ours), (f"{b} {what}", bare), (f"{a}/{b} {what}", ratios)):
            print(f"{name:>16}: median {statistics.median(values):.3f}  min {min(values):.3f}  max {max(values):.3f}")
    # the headline is CPU: the process's own work to its first reply, less sensitive than wall time
    # to what else the machine runs (both are printed above)
    ratio = statistics.median(p[0][1] / p[1][1] for p in pairs)
    print(f"cold start to first reply, CPU {a}/{b} {ratio:.2f} (reported, not a target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
