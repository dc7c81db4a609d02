"""CPU per update, one update at a time, of the bot as users run it: `proctor run` against a bare PTB bot.

Ours is the real process, `python -m bot.cli run` (the pacer on, settings from the environment: the
fake Bot API's URL, a fresh temporary database that start-up fills with the bundled bank); the
bare bot is `bench/_bare_paper_bot.py`, a python-telegram-bot Application with PTB's defaults and
its own `AIORateLimiter`, making the same Bot API calls for each kind of update (bench/README.md:
`--calls` records ours and the bare bot's and checks them against the list). Each runs in a
process of its own, started fresh for every run; the fake Bot API and the people run in this one.

A run: the bot starts and settles; idle memory is read; every person opens the paper (/exam; ours:
the paper, ▶️ Start); one person skims the paper and hands it in (a warm-up, uncounted); the bot
settles; then `--people` people take the whole paper, one update at a time (`_paper_driver`), and
the figure is the CPU the bot's process tree spent meanwhile (utime + stime of the process and of
every descendant, from /proc, exited children included) divided by the updates. Memory: PSS summed
over the tree, idle after start-up and the peak of samples taken every 0.25 s for the whole run.

Every round runs three processes: ours, the bare bot, and ours again (ours'), the A/A in the same
run as the A/B, under the same conditions. The six rounds of a cycle take the six orders of the
three, so no side is always first, last or next to the same neighbour (a position on this VM that
reads lower, which ABBA's A/A kept showing, then weighs on every side alike). Ratios are taken round
by round: ours/bare and ours'/bare (both the A/B), ours/ours' (the A/A), each reported as the median
and the spread (min-max). Targets: CPU per update median ≤ 0.97× the bare bot, with the A/A median
within ±3% (else the machine was too noisy: run again); PSS idle and peak ≤ 1.5×. `--aa` runs
only ours and ours' (ABBA), the noise alone. `--old` then runs `bench_serial_cpu.py` (the method
before: three calls per typed answer in its bare bot, no limiter on either side) to put both
figures side by side.

    python bench/bench_update_cpu.py [--rounds 6] [--people 6] [--rate 20] [--paper 1]
    python bench/bench_update_cpu.py --aa [--rounds 6]
    python bench/bench_update_cpu.py --calls        # the calls each kind of update makes, both bots
    python bench/bench_update_cpu.py --old          # and the old method after
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import itertools
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH))

from _engines import PgServer, Tally, postgres_tally, spent, sqlite_tally  # noqa: E402
from _paper_driver import CALLS, Paper, Person, Step, bundled_paper, take_turns  # noqa: E402
from _proc_tree import CLK_TCK, PssSampler, cpu_ticks, pss_kib, settle  # noqa: E402

from sandbox.fakeapi import Call, FakeBotApi  # noqa: E402

TOKEN = "123456:BENCH-update-cpu-fake-token-for-bench"
CPU_TARGET = 0.97
AA_BAND = 0.03
MEMORY_TARGET = 1.5
FIRST_USER = 700_000


class Bot(StrEnum):
    ours = "ours"
    bare = "bare"


@dataclass
class Run:
    label: str
    ticks: int = 0
    updates: int = 0
    wall: float = 0.0
    idle_kib: int = 0
    peak_kib: int = 0
    children: int = 0  # processes the bot started during the run
    db_ticks: int = 0  # the PostgreSQL backends serving the bot (--engines)
    steps: Counter[Step] = field(default_factory=Counter)
    unexpected: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    @property
    def cpu_ms(self) -> float:
        return self.ticks / CLK_TCK / self.updates * 1000

    @property
    def with_db_ms(self) -> float:
        """The bot's and its database server's backends' CPU per update."""
        return (self.ticks + self.db_ticks) / CLK_TCK / self.updates * 1000


def _environment(api: FakeBotApi, db: Path | str) -> dict[str, str]:
    """This process's environment without any bot setting of its own, and the bot's: the fake server,
    a fresh database. Bytecode is written and reused, as for an installed package."""
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith(("PROCTOR_", "TELEGRAM_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_BOT_API_URL=api.base_url, PROCTOR_DB=str(db), PYTHONPATH=str(REPO))
    return env


def _die_with_the_bench() -> None:
    """In the bot's process before it starts: killed when the bench dies (PR_SET_PDEATHSIG), so no bot
    is left polling a fake server that is gone."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


class BotProcess:
    """`proctor run` or the bare bot, in a process of its own (its log in the run's directory)."""

    def __init__(self, bot: Bot, api: FakeBotApi, directory: Path, paper: Paper, db: str | None = None,
                 traced: bool = False) -> None:
        """`db`: the record (default: a fresh file in `directory`); `traced`: ours through
        `_traced_bot.py`, every SQLite statement written to `directory/sql.trace`."""
        if bot == Bot.ours:
            command = [sys.executable, "-m", "bot.cli", "run"]
            if traced:
                command = [sys.executable, str(BENCH / "_traced_bot.py"), str(directory / "sql.trace"), "run"]
        else:
            paper_file = directory / "paper.json"
            paper_file.write_text(json.dumps(paper.as_json(), ensure_ascii=False), encoding="utf-8")
            command = [sys.executable, str(BENCH / "_bare_paper_bot.py"), str(paper_file)]
        self.log = directory / "bot.log"
        with self.log.open("wb") as log:  # cwd: the run's directory, so no `.env` of the checkout is read
            self.process = subprocess.Popen(command, cwd=directory, env=_environment(api, db or directory / "proctor.db"),
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            preexec_fn=_die_with_the_bench)
        self.pid = self.process.pid

    async def polling(self, api: FakeBotApi) -> None:
        """Until the bot has started polling and its start-up work has settled."""
        def started() -> bool:
            if self.process.poll() is not None:
                raise RuntimeError(f"the bot exited with {self.process.returncode}: {self.tail()}")
            return any(c.method == "deleteWebhook" for c in api.calls)
        await api.wait_for(started, 120, "the bot to start polling")
        await settle(self.pid)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]

    async def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        for _ in range(150):
            if self.process.poll() is not None:
                return
            await asyncio.sleep(0.1)
        self.process.kill()
        self.process.wait()


async def one_run(label: str, bot: Bot, args: argparse.Namespace, paper: Paper, pg: PgServer | None = None) -> Run:
    """One run; with `pg`, ours on a fresh database of that server (its backends' CPU read too)."""
    out = Run(label)
    with tempfile.TemporaryDirectory(prefix="bench-update-cpu-") as tmp:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        database, url = pg.new_database() if pg is not None else (None, None)
        process = BotProcess(bot, api, Path(tmp), paper, db=url)
        try:
            await process.polling(api)
            out.idle_kib = pss_kib(process.pid)
            async with PssSampler(process.pid) as pss:
                warm_up = Person(api, paper, FIRST_USER, skim=True)
                people = [Person(api, paper, FIRST_USER + 1 + i) for i in range(args.people)]
                await asyncio.gather(*(p.open(bot == Bot.ours) for p in [warm_up, *people]))
                await take_turns([warm_up], args.rate)
                await api.wait_idle(quiet=0.3, timeout=60)
                await settle(process.pid)
                db_before = pg.backend_ticks(database) if pg is not None and database else {}
                before, started = cpu_ticks(process.pid), time.perf_counter()
                await take_turns(people, args.rate)
                await api.wait_idle(quiet=0.3, timeout=60)
                await settle(process.pid)  # work left after the last reply (a done mark, a delivered mark)
                out.ticks = cpu_ticks(process.pid) - before
                if pg is not None and database:
                    out.db_ticks = spent(db_before, pg.backend_ticks(database))
                out.wall = time.perf_counter() - started
            out.peak_kib, out.children = pss.peak, len(pss.children_seen)
            for p in people:
                out.steps.update(p.updates)
                out.unexpected.update(p.unexpected)
            out.updates = sum(out.steps.values())
        except Exception:
            print(f"{label}: the run failed; the bot's log ends:\n{process.tail()}", file=sys.stderr)
            raise
        finally:
            await process.stop()
            await api.stop()
            if pg is not None and database:
                pg.drop(database)
        out.errors = [f"{call.method}: {code} {text}" for call, code, text in api.errors]
    return out


def _warn_faults(rs: list[Run]) -> None:
    """A run's calls the list does not have, and its error answers: its figure is not to be trusted."""
    for r in rs:
        if r.unexpected:
            print(f"  ! {r.label}: calls the list does not have: {dict(r.unexpected)}")
        if r.errors:
            print(f"  ! {r.label}: {len(r.errors)} error answers, e.g. {r.errors[0]}")


def report_engines(runs: dict[str, list[Run]]) -> int:
    """--engines: each side's CPU per update (the bot's tree, and with PostgreSQL's backends), the
    ratios round by round, the A/A (postgres/postgres'); 0 when the A/A is within its band."""
    for label, rs in runs.items():
        print(f"{label:>9}: bot {_spread([r.cpu_ms for r in rs])} ms/update, bot + PostgreSQL backends "
              f"{_spread([r.with_db_ms for r in rs])} ms/update over {rs[0].updates} updates, "
              f"PSS idle {_spread([r.idle_kib / 1024 for r in rs], '{:.1f}')} MiB, "
              f"{statistics.median(r.wall for r in rs):.0f} s a run")
        _warn_faults(rs)
    for measure, of in (("the bot alone", lambda r: r.cpu_ms), ("the bot + its backends", lambda r: r.with_db_ms)):
        ratios = {pair: [of(x) / of(y) for x, y in zip(runs[pair[0]], runs[pair[1]], strict=True)]
                  for pair in (("postgres", "sqlite"), ("postgres'", "sqlite"), ("postgres", "postgres'"))}
        for (a, b), values in ratios.items():
            print(f"{measure}: {a}/{b} round by round {_spread(values, '{:.3f}')} [{', '.join(f'{v:.3f}' for v in values)}]")
    aa = statistics.median(r.cpu_ms / q.cpu_ms for r, q in zip(runs["postgres"], runs["postgres'"], strict=True))
    ok = abs(aa - 1) <= AA_BAND
    print(f"A/A (postgres/postgres', the bot): median {aa:.3f}, within ±{AA_BAND:.0%}: {'yes' if ok else 'NO: too noisy'}")
    return 0 if ok else 1


async def count_statements(paper: Paper, pg: PgServer | None) -> dict[Step, list[Tally]]:
    """One person takes the whole paper, one update at a time, waiting for quiet after each: the
    statements and transactions each update caused (its reply, done mark and outbox included), from
    the bot's SQLite trace or the server's log."""
    seen: dict[Step, list[Tally]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-update-sql-") as tmp:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        database, url = pg.new_database() if pg is not None else (None, None)
        trace = pg.log if pg is not None else Path(tmp) / "sql.trace"
        process = BotProcess(Bot.ours, api, Path(tmp), paper, db=url, traced=pg is None)
        try:
            await process.polling(api)
            person = Person(api, paper, FIRST_USER)
            await person.open(True)
            await api.wait_idle(quiet=0.5, timeout=60)
            while not person.done:
                step, action = person.next_step()
                await asyncio.sleep(max(0.0, person.ready_at(step) - time.perf_counter()))
                start = trace.stat().st_size if trace.exists() else 0
                await person.act(step, action, quiet=0.5)
                await asyncio.sleep(0.3)  # a done mark after the last call
                with trace.open(encoding="utf-8", errors="replace") as f:
                    f.seek(start)
                    lines = f.readlines()
                seen.setdefault(step, []).append(postgres_tally(lines, database) if pg is not None and database
                                                 else sqlite_tally(lines))
        finally:
            await process.stop()
            await api.stop()
            if pg is not None and database:
                pg.drop(database)
    return seen


def show_statements(paper: Paper, pg: PgServer) -> None:
    """--engines --count: statements and write transactions per kind of update, both engines."""
    pg.logging(True)
    try:
        counted = {"sqlite": asyncio.run(count_statements(paper, None)),
                   "postgres": asyncio.run(count_statements(paper, pg))}
    finally:
        pg.logging(False)
    print(f"{'update':<38} {'engine':<9} {'n':>3} {'write txns':>11} {'txns':>9} {'statements':>11}  statements by kind (median update)")
    for step in counted["sqlite"]:
        for engine, steps in counted.items():
            tallies = steps.get(step, [])
            if not tallies:
                continue
            w = [t.write_transactions for t in tallies]
            x = [t.transactions for t in tallies]
            st = [t.statements for t in tallies]
            middle = sorted(tallies, key=lambda t: t.statements)[len(tallies) // 2]
            print(f"{step:<38} {engine:<9} {len(tallies):>3} {statistics.median(w):>5g} (≤{max(w)}) "
                  f"{statistics.median(x):>4g} (≤{max(x)}) {statistics.median(st):>5g} (≤{max(st)})  {dict(middle.kinds)}")
            for write in middle.writes:
                print(f"{'':<52}write: {write}")


def _spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def report(runs: dict[str, list[Run]], aa: bool) -> int:
    """Prints each side's figures and the ratios pair by pair; returns the exit status (0: targets met)."""
    for label, rs in runs.items():
        print(f"{label:>6}: CPU {_spread([r.cpu_ms for r in rs])} ms/update over {rs[0].updates} updates, "
              f"PSS idle {_spread([r.idle_kib / 1024 for r in rs], '{:.1f}')} MiB, "
              f"peak {_spread([r.peak_kib / 1024 for r in rs], '{:.1f}')} MiB, "
              f"{statistics.median(r.wall for r in rs):.0f} s a run, children {max(r.children for r in rs)}")
        _warn_faults(rs)
    mix = runs[next(iter(runs))][0].steps
    print(f"updates a run: {', '.join(f'{step} {n}' for step, n in mix.items())}")
    if aa or "bare" not in runs:
        a, b = runs
        aa_median = _ratios(runs, [(a, b)])[0]
        ok = abs(aa_median - 1) <= AA_BAND
        print(f"A/A: CPU median {aa_median:.3f}, within ±{AA_BAND:.0%}: {'yes' if ok else 'NO: too noisy, run again'}")
        return 0 if ok else 1
    median, idle, peak = _ratios(runs, [("ours", "bare"), ("ours'", "bare")])
    aa_median = _ratios(runs, [("ours", "ours'")])[0]
    aa_ok = abs(aa_median - 1) <= AA_BAND
    print(f"A/A in the same run: CPU median {aa_median:.3f}, within ±{AA_BAND:.0%}: "
          f"{'yes' if aa_ok else 'NO: too noisy, the A/B does not decide: run again'}")
    cpu_ok = median <= CPU_TARGET and aa_ok
    memory_ok = idle <= MEMORY_TARGET and peak <= MEMORY_TARGET
    print(f"CPU per update ours/bare {median:.3f} (target ≤ {CPU_TARGET}): {'PASS' if cpu_ok else 'MISS'}; "
          f"PSS idle {idle:.2f}, peak {peak:.2f} (target ≤ {MEMORY_TARGET}): {'PASS' if memory_ok else 'MISS'}")
    return 0 if cpu_ok and memory_ok else 1


def _ratios(runs: dict[str, list[Run]], pairs: list[tuple[str, str]]) -> tuple[float, float, float]:
    """Prints the ratios of each pair of sides round by round; returns the medians over all of them
    (CPU, PSS idle, PSS peak)."""
    cpu: list[float] = []
    idle: list[float] = []
    peak: list[float] = []
    for a, b in pairs:
        c = [x.cpu_ms / y.cpu_ms for x, y in zip(runs[a], runs[b], strict=True)]
        i = [x.idle_kib / y.idle_kib for x, y in zip(runs[a], runs[b], strict=True)]
        p = [x.peak_kib / y.peak_kib for x, y in zip(runs[a], runs[b], strict=True)]
        print(f"\n{a}/{b}, round by round ({len(c)} rounds): CPU per update {_spread(c, '{:.3f}')} "
              f"[{', '.join(f'{x:.3f}' for x in c)}]; PSS idle {_spread(i)}, peak {_spread(p)}")
        cpu, idle, peak = cpu + c, idle + i, peak + p
    if len(pairs) > 1:
        print(f"together ({len(cpu)} ratios): CPU per update {_spread(cpu, '{:.3f}')}")
    return statistics.median(cpu), statistics.median(idle), statistics.median(peak)


async def record_calls(bot: Bot, paper: Paper) -> dict[Step, list[list[Call]]]:
    """The calls each update made, waiting for quiet after each: a person through the whole paper and
    one who skims it (Skip, Finish)."""
    seen: dict[Step, list[list[Call]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-update-calls-") as tmp:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        process = BotProcess(bot, api, Path(tmp), paper)
        try:
            await process.polling(api)
            for person in (Person(api, paper, FIRST_USER), Person(api, paper, FIRST_USER + 1, skim=True)):
                await person.open(bot == Bot.ours)
                while not person.done:
                    step, action = person.next_step()
                    await asyncio.sleep(max(0.0, person.ready_at(step) - time.perf_counter()))
                    seen.setdefault(step, []).append(await person.act(step, action, quiet=0.5))
        finally:
            await process.stop()
            await api.stop()
    return seen


def show_calls(paper: Paper) -> int:
    """Prints the calls of each kind of update, both bots, and the median size of their parameters
    (JSON characters: text and keyboard); 1 if any differs from `CALLS`."""
    status = 0
    for bot in Bot:
        print(f"{bot}: the Bot API calls of each kind of update (how many updates made them), parameters' median size")
        for step, updates in asyncio.run(record_calls(bot, paper)).items():
            sequences = Counter(tuple(c.method for c in calls) for calls in updates)
            size = statistics.median(sum(len(json.dumps(c.params, ensure_ascii=False)) for c in calls)
                                     for calls in updates)
            for methods, n in sequences.items():
                same = methods == CALLS[step]
                status |= not same
                print(f"  {step:<36} {', '.join(methods):<55} ×{n:<3} {size:6.0f} chars"
                      f"{'' if same else f'  ≠ the list: {CALLS[step]}'}")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6,
                        help="rounds: each a run of ours, the bare bot and ours again, the six orders in turn")
    parser.add_argument("--people", type=int, default=6, help="people measured in a run, each taking the whole paper")
    parser.add_argument("--rate", type=float, default=20.0,
                        help="updates a second at most (under PTB's limiter's 30 calls a second)")
    parser.add_argument("--paper", type=int, default=1, help="which bundled paper (P1-P5 as /exam lists them)")
    parser.add_argument("--aa", action="store_true", help="ours against ours: the method's noise")
    parser.add_argument("--calls", action="store_true", help="record the calls each kind of update makes, both bots")
    parser.add_argument("--old", action="store_true", help="then the old method, bench_serial_cpu.py --bots ours,bare")
    parser.add_argument("--engines", action="store_true",
                        help="ours on SQLite against ours on PostgreSQL (this machine's, a fresh database a run), with an A/A")
    parser.add_argument("--count", action="store_true",
                        help="with --engines: statements and write transactions per kind of update, both engines")
    args = parser.parse_args(argv)

    paper = bundled_paper(args.paper)
    if args.calls:
        return show_calls(paper)
    if args.engines:
        return engines(args, paper)
    sides = ({"ours": Bot.ours, "ours'": Bot.ours} if args.aa
             else {"ours": Bot.ours, "bare": Bot.bare, "ours'": Bot.ours})
    orders = [list(sides), list(sides)[::-1]] if args.aa else [list(o) for o in itertools.permutations(sides)]
    print(f"paper P{args.paper} ({len(paper.questions)} questions), {args.people} people a run, one update at a time, "
          f"at most {args.rate:g} a second; {args.rounds} rounds of {', '.join(sides)}, "
          f"the orders in turn: {'; '.join(', '.join(o) for o in orders)}\n", flush=True)
    runs: dict[str, list[Run]] = {label: [] for label in sides}
    for i in range(args.rounds):
        for label in orders[i % len(orders)]:
            started = time.perf_counter()
            run = asyncio.run(one_run(label, sides[label], args, paper))
            runs[label].append(run)
            print(f"round {i + 1} {label:>5}: {run.cpu_ms:.3f} ms/update ({run.ticks} ticks, {run.updates} updates, "
                  f"{run.wall:.0f} s), PSS idle {run.idle_kib / 1024:.1f} peak {run.peak_kib / 1024:.1f} MiB; "
                  f"{time.perf_counter() - started:.0f} s in all", flush=True)
    print()
    status = report(runs, args.aa)
    if args.old:
        print("\nThe old method: bench_serial_cpu.py --bots ours,bare\n", flush=True)
        old = subprocess.run([sys.executable, str(BENCH / "bench_serial_cpu.py"), "--bots", "ours,bare"], check=False)
        status |= old.returncode
    return status


def engines(args: argparse.Namespace, paper: Paper) -> int:
    """--engines: postgres, sqlite and postgres' in the six orders in turn (or, with --count, the
    statements per update on both)."""
    pg = PgServer()
    try:
        if args.count:
            show_statements(paper, pg)
            return 0
        sides = ["postgres", "sqlite", "postgres'"]
        orders = [list(o) for o in itertools.permutations(sides)]
        print(f"paper P{args.paper}, {args.people} people a run, one update at a time, at most {args.rate:g} a second; "
              f"{args.rounds} rounds of {', '.join(sides)} in rotated orders; PostgreSQL {pg.server.url} on this machine\n",
              flush=True)
        runs: dict[str, list[Run]] = {label: [] for label in sides}
        for i in range(args.rounds):
            for label in orders[i % len(orders)]:
                started = time.perf_counter()
                run = asyncio.run(one_run(label, Bot.ours, args, paper, pg if label.startswith("postgres") else None))
                runs[label].append(run)
                print(f"round {i + 1} {label:>9}: {run.cpu_ms:.3f} ms/update, with its backends {run.with_db_ms:.3f} "
                      f"({run.ticks}+{run.db_ticks} ticks, {run.updates} updates, {run.wall:.0f} s); load {os.getloadavg()[0]:.1f}; "
                      f"{time.perf_counter() - started:.0f} s in all", flush=True)
        print()
        return report_engines(runs)
    finally:
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
