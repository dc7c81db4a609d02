"""Exam benchmark: our bot against a bare python-telegram-bot bot, CPU per update first.

Headline: bot CPU per answered update (button presses and typed answers both), our bot against a
bare PTB 22 bot whose whole job per update is the same Bot API calls with no database and no logic:
answerCallbackQuery + editMessageText per press; sendMessage (recorded) + sendMessage (next screen)
+ deleteMessage per typed answer. CPU is the OS's account of the bot process (utime + stime from
/proc/PID/stat, read by this process), so every thread of the bot is counted and nothing else.

Candidates take the bundled paper with the longest leading run of questions answered by one press
or one message (the first: fill-ins typed, then single choice pressed), so both kinds are counted.

Runs of the two bots are interleaved, ours, bare, bare, ours, ... (--rounds, default 3): each figure
is the median over rounds, with the spread (min-max) beside it, and the CPU ratio is taken round by
round, so the machine's drift during the call does not land on one side.

Phases, in each run:
0. headline, closed loop: --light candidates (default 20) answer back to back (CPU per update);
1. saturation, closed loop: --candidates (default 200) at once. Only meaningful when the load path
   outruns the bot: it prints each bot's CPU as % of one core; the bare bot should sit near 100%.
   If it does not, the driver (fake server + candidates, this process) was the bottleneck and the
   answers/s ratio says nothing about the bots (it is printed, flagged);
2. open loop at 25 answers/s (500 candidates, one answer each per 20 s, for 40 s): bot-side p99
   latency for both bots (target: ours < 100 ms).

Each bot runs alone in a fresh spawned child process; the fake Bot API and the candidates run in
this process (its CPU is not the bot's). Rate limits are off on both sides (the fake server's and
our pacer, bot/pacing.py, unless --rate-limiter): this measures bot-side cost. Beside the CPU per update it
prints how much of it our database thread spent and the context switches per update: the bare bot is
one thread, ours hands work (and the GIL) to aiosqlite's thread and back, which costs most when the two
threads run on different cores; --one-core runs each bot on one CPU. Memory: RSS after start-up
(idle) and peak RSS (ru_maxrss) of each bot process; whether jieba was ever imported by ours.

    python bench/bench_exam.py [--rounds 3] [--light 20] [--candidates 200] [--answers 19]
                               [--open-candidates 500] [--period 20] [--duration 40] [--rate-limiter]
                               [--one-core] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _exam_bots  # noqa: E402
from _exam_driver import Candidate, Press, Probe, closed_loop, open_loop  # noqa: E402

from sandbox.fakeapi import FakeBotApi

TOKEN = "123456:BENCH-fake-token-for-bench-exam"
THROUGHPUT_TARGET = 0.8
P99_TARGET_MS = 100.0
BUTTON_KINDS = ("single", "truefalse")
TYPED_KINDS = ("fill",)
CLK_TCK = os.sysconf("SC_CLK_TCK")


def os_cpu(pid: int) -> float:
    """User + system CPU seconds of process `pid`, all its threads, as the kernel accounts them."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def os_switches(pid: int) -> int:
    """Context switches of process `pid`, all its threads (voluntary and not): each hop to the
    database thread and back, and each hand-over of the GIL between threads, costs some."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if "ctxt_switches:" in line:
                total += int(line.split()[1])
    return total


async def pick_paper() -> tuple[str, str]:
    """The bundled paper with the longest leading run of questions answered by one press ("B") or one
    typed message ("T"): (its button, that run as a layout string)."""
    from bank.paper_list import paper_summaries
    from bank.paper_store import list_papers
    from bot.exam.render import chooser_label
    from proctor.storage.bootstrap import ensure_default_bank
    from proctor.storage.db import Database

    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "scratch.db")
        try:
            await ensure_default_bank(db, time.time())
            best = ("", "")
            labels = {p.id: chooser_label(p) for p in await paper_summaries(db)}  # "P3 · title", as /exam shows
            for paper in await list_papers(db):
                run = ""
                for q in (q for q in paper.questions() if q.askable):
                    if q.kind.value not in BUTTON_KINDS + TYPED_KINDS:
                        break
                    run += "B" if q.kind.value in BUTTON_KINDS else "T"
                if len(run) > len(best[1]):
                    best = (labels[paper.id], run)
            return best
        finally:
            await db.close()


# ---- figures ----------------------------------------------------------------------------------

def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


@dataclass
class Phase:
    presses: list[Press]
    wall: float
    bot_cpu: float  # CPU seconds of the bot process (all threads)
    driver_cpu: float  # CPU seconds of this process: fake server and candidates
    gc_worst: float
    late: float = 0.0
    loop_cpu: float = 0.0  # of bot_cpu: the event loop's thread (the rest: the database thread, ...)
    switches: int = 0  # the bot process's context switches

    @property
    def rate(self) -> float:
        return len(self.presses) / self.wall

    @property
    def cpu_ms_per_answer(self) -> float:
        return self.bot_cpu / len(self.presses) * 1000

    def bot_side(self, q: float) -> float:
        return _pct([p.bot_side for p in self.presses if p.bot_side is not None], q)

    def e2e(self, q: float) -> float:
        return _pct([p.end_to_end for p in self.presses if p.end_to_end is not None], q)

    @property
    def unstamped(self) -> int:
        return sum(p.bot_side is None for p in self.presses)


@dataclass
class BotRun:
    kind: str
    ready_rss: float = 0.0
    peak_rss: float = 0.0
    jieba: bool = False
    phases: dict[str, Phase] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


class Child:
    """A bot in its own process, asked for usage figures over a pipe."""

    def __init__(self, kind: str, base_url: str, db_path: Path, rate_limiter: bool, profile: str | None,
                 layout: str, cpu: int | None = None, against: str | None = None):
        ctx = multiprocessing.get_context("spawn")
        self.conn, child_conn = ctx.Pipe()
        self.process = ctx.Process(target=_exam_bots.serve, name=f"bench-{kind}",
                                   args=(kind, TOKEN, base_url, str(db_path), child_conn, rate_limiter, profile,
                                         layout, cpu, against))
        self.process.start()

    def cpu(self) -> float:
        return os_cpu(self.process.pid)

    async def recv(self) -> dict[str, float]:
        loop = asyncio.get_running_loop()
        ready = await loop.run_in_executor(None, self.conn.poll, 120)
        if not ready:
            raise TimeoutError("the bot process did not answer within 120 s")
        return self.conn.recv()[1]

    async def ask(self, command: str) -> dict[str, float]:
        self.conn.send(command)
        return await self.recv()

    def end(self) -> None:
        """After "stop" (or a failure): the process gone, within 30 s or terminated."""
        self.process.join(30)
        if self.process.is_alive():
            self.process.terminate()


async def _measure(child: Child, api: FakeBotApi, probe: Probe, run, profiling: bool = False) -> Phase:
    await api.wait_idle(quiet=0.3, timeout=60)
    first = len(probe.presses)
    loop_before = (await child.ask("usage"))["loop_cpu"]  # the ask resets the worst GC pause
    if profiling:  # the measured answers only: not the candidates' set-up (/exam, the paper's start)
        await child.ask("profile-on")
    before, cpu, switches = child.cpu(), time.process_time(), os_switches(child.process.pid)
    result = await run()
    wall, late = result if isinstance(result, tuple) else (result, 0.0)
    bot_cpu, driver_cpu = child.cpu() - before, time.process_time() - cpu
    switches = os_switches(child.process.pid) - switches
    if profiling:
        await child.ask("profile-off")
    after = await child.ask("usage")
    return Phase(probe.presses[first:], wall, bot_cpu, driver_cpu, after["gc_worst"], late,
                 after["loop_cpu"] - loop_before, switches)


async def bench_bot(kind: str, args, paper_button: str, answers: int, layout: str) -> BotRun:
    """Both phases (and the light one) against one bot in a fresh child process and fake server."""
    out = BotRun(kind)
    profiling = bool(args.profile)
    profile_path = (args.profile if kind == "ours" else f"{args.profile}.bare") if profiling else None
    with tempfile.TemporaryDirectory() as tmp, Probe() as probe:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        child = Child(kind, api.base_url, Path(tmp) / "proctor.db", args.rate_limiter,
                      profile_path, layout, 0 if args.one_core else None, args.against)
        try:
            out.ready_rss = (await child.recv())["rss_mib"]

            async def candidates(first_id: int, n: int) -> list[Candidate]:
                cands = [Candidate(api, probe, first_id + i) for i in range(n)]
                await asyncio.gather(*(c.open_ours(paper_button) if kind == "ours" or args.against else c.open_bare()
                                       for c in cands))
                return cands

            if args.light:
                light = await candidates(300_000, args.light)
                out.phases["light"] = await _measure(child, api, probe, lambda: closed_loop(light, answers), profiling)
            sat = await candidates(100_000, args.candidates)
            out.phases["saturation"] = await _measure(child, api, probe, lambda: closed_loop(sat, answers), profiling)
            steady = await candidates(200_000, args.open_candidates)
            out.phases["open"] = await _measure(
                child, api, probe, lambda: open_loop(steady, args.period, args.duration), profiling)
            stopped = await child.ask("stop")
            out.peak_rss, out.jieba = stopped["peak_rss_mib"], bool(stopped.get("jieba"))
        finally:
            child.end()
            await api.stop()
        out.errors = [f"{call.method}: {code} {text}" for call, code, text in api.errors]
        toasts = [r.text for r in api.state.callbacks.values() if r.text]
        out.errors += [f"unexpected toast: {t!r}" for t in toasts[:5]]
    return out


# ---- report -----------------------------------------------------------------------------------

def _spread(values: list[float], fmt: str) -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = [("", "ours: median (min-max)", "bare: median (min-max)",
                                             "ours/bare", "target")]

    def title(self, text: str) -> None:
        self.rows.append((text,))

    def row(self, label: str, ours: list[float], bare: list[float], fmt: str = "{:.1f}", *,
            ratio: bool = True, target: str = "") -> None:
        """Per-round values; the ratio is taken round by round (pairs), then its median and spread."""
        ratios = [o / b for o, b in zip(ours, bare, strict=False) if b] if ratio else []
        self.rows.append((label, _spread(ours, fmt), _spread(bare, fmt),
                          _spread(ratios, "{:.2f}") if ratios else "", target))

    def print(self) -> None:
        full = [r for r in self.rows if len(r) > 1]
        widths = [max(len(r[i]) for r in full) for i in range(5)]
        for r in self.rows:
            if len(r) == 1:
                print(r[0])
            else:
                print("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                                for i, c in enumerate(r)).rstrip())


def _phase_rows(table: Table, name: str, ours: list[BotRun], bare: list[BotRun]) -> None:
    o = [r.phases[name] for r in ours]
    b = [r.phases[name] for r in bare]
    table.row("   bot CPU ms per update (OS)", [p.cpu_ms_per_answer for p in o], [p.cpu_ms_per_answer for p in b],
              "{:.2f}")
    table.row("     of which other threads (DB)", [(p.bot_cpu - p.loop_cpu) / len(p.presses) * 1000 for p in o],
              [(p.bot_cpu - p.loop_cpu) / len(p.presses) * 1000 for p in b], "{:.2f}", ratio=False)
    table.row("   context switches per update", [p.switches / len(p.presses) for p in o],
              [p.switches / len(p.presses) for p in b], "{:.1f}", ratio=False)
    table.row("   bot CPU % of one core", [p.bot_cpu / p.wall * 100 for p in o], [p.bot_cpu / p.wall * 100 for p in b],
              "{:.0f}", ratio=False)
    table.row("   driver CPU % (this process)", [p.driver_cpu / p.wall * 100 for p in o],
              [p.driver_cpu / p.wall * 100 for p in b], "{:.0f}", ratio=False)
    table.row("   updates/s", [p.rate for p in o], [p.rate for p in b])
    table.row("   bot-side p50 ms", [p.bot_side(0.5) for p in o], [p.bot_side(0.5) for p in b])
    table.row("   bot-side p99 ms", [p.bot_side(0.99) for p in o], [p.bot_side(0.99) for p in b],
              target="< 100 (ours)" if name == "open" else "")
    table.row("   end-to-end p99 ms", [p.e2e(0.99) for p in o], [p.e2e(0.99) for p in b])
    table.row("   worst GC pause ms", [p.gc_worst * 1000 for p in o], [p.gc_worst * 1000 for p in b], ratio=False)


def report(ours: list[BotRun], bare: list[BotRun], args, answers: int, layout: str) -> bool:
    table = Table()
    typed = layout[:answers].count("T")
    if args.light:
        table.title(f"0. HEADLINE, closed loop: {args.light} candidates × {answers} answers "
                    f"({typed} typed, {answers - typed} pressed)")
        _phase_rows(table, "light", ours, bare)
    table.title(f"1. saturation, closed loop: {args.candidates} candidates × {answers} answers")
    _phase_rows(table, "saturation", ours, bare)
    rate = args.open_candidates / args.period
    table.title(f"2. open loop: {args.open_candidates} candidates, one answer each per {args.period:g} s "
                f"({rate:g}/s), {args.duration:g} s")
    _phase_rows(table, "open", ours, bare)
    table.title("memory (bot process, MiB)")
    table.row("   RSS idle after start-up", [r.ready_rss for r in ours], [r.ready_rss for r in bare], "{:.0f}",
              target="≤ 1.5×")
    table.row("   peak RSS (ru_maxrss)", [r.peak_rss for r in ours], [r.peak_rss for r in bare], "{:.0f}",
              target="≤ 1.5×")
    table.print()

    errors = False
    for run in ours + bare:
        missing = sum(p.unstamped for p in run.phases.values())
        if run.errors or missing:
            errors = True
            print(f"! {run.kind}: {len(run.errors)} API errors, {missing} answers without timestamps")
            for e in run.errors[:5]:
                print(f"    {e}")
    cpu = [o.phases["light"].cpu_ms_per_answer / b.phases["light"].cpu_ms_per_answer
           for o, b in zip(ours, bare, strict=True)] if args.light else []
    bare_core = [b.phases["saturation"].bot_cpu / b.phases["saturation"].wall * 100 for b in bare]
    sat = [o.phases["saturation"].rate / b.phases["saturation"].rate for o, b in zip(ours, bare, strict=True)]
    p99 = statistics.median(o.phases["open"].bot_side(0.99) for o in ours)
    if cpu:
        print(f"\nCPU per update, ours/bare: {_spread(cpu, '{:.2f}')} over {len(cpu)} interleaved rounds")
    if min(bare_core) >= 90:
        print(f"saturation: the bare bot at {_spread(bare_core, '{:.0f}')} % of a core in every round: the load "
              f"path outran it; answers/s ours/bare {_spread(sat, '{:.2f}')}")
    else:
        print(f"saturation: the bare bot at {_spread(bare_core, '{:.0f}')} % of a core, under 90 % in some round: "
              f"the load path (this process, or a machine shared with other work) did NOT provably outrun it, "
              f"so the answers/s ratio {_spread(sat, '{:.2f}')} says little; trust the CPU per update")
    jieba = any(r.jieba for r in ours)
    print(f"ours p99 at {rate:g} answers/s: {p99:.1f} ms (target < {P99_TARGET_MS:g}); "
          f"jieba imported by our bot: {'YES' if jieba else 'no'}")
    return p99 < P99_TARGET_MS and not jieba and not errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs of each bot (ours, bare, ...)")
    parser.add_argument("--light", type=int, default=20, help="headline phase: candidates at once")
    parser.add_argument("--candidates", type=int, default=200, help="saturation phase: candidates at once")
    parser.add_argument("--answers", type=int, default=19, help="closed-loop phases: answers per candidate")
    parser.add_argument("--open-candidates", type=int, default=500, help="open-loop phase: candidates")
    parser.add_argument("--period", type=float, default=20.0, help="open-loop phase: seconds between answers")
    parser.add_argument("--duration", type=float, default=40.0, help="open-loop phase: seconds")
    parser.add_argument("--rate-limiter", action="store_true",
                        help="build ours with its pacer (production: bot/pacing.py; sends at 30/s, edits unpaced)")
    parser.add_argument("--one-core", action="store_true",
                        help="run each bot on CPU 0 alone (its threads share one core; this process and the "
                             "fake server are free to use the others): less noise from the machine, and no "
                             "cost of our database thread and event loop handing the GIL across cores")
    parser.add_argument("--against", metavar="TREE",
                        help="A/B of two versions of our bot: in the bare bot's place, our bot from TREE (a "
                             "checkout, e.g. `git worktree add /tmp/base <commit>`); the 'bare' column is that bot. "
                             "The machine's drift lands on both alike, so a change's effect shows in the ratio")
    parser.add_argument("--profile", metavar="FILE", help="cProfile each bot's event loop during the measured phases (last round): "
                        "ours to FILE, the bare bot to FILE.bare")
    args = parser.parse_args(argv)

    paper_button, layout = asyncio.run(pick_paper())
    answers = min(args.answers, len(layout) - 1)  # the last question stays unanswered
    if answers < args.answers:
        print(f"(answers per candidate capped at {answers}: the paper has {len(layout)} such questions in a row)")
    print(f"paper: {paper_button!r} ({layout[:answers]}: T typed, B pressed); fake server rate limits OFF; "
          f"our pacer {'ON' if args.rate_limiter else 'OFF'}; bots in child processes; "
          f"{args.rounds} interleaved rounds\n")
    if args.against:
        print(f"A/B: the 'bare' column below is OUR bot from {args.against}, not the bare bot\n")
    runs: dict[str, list[BotRun]] = {"ours": [], "bare": []}
    for i in range(args.rounds):
        # ABBA: the two bots swap places every round, so whatever favours the first (or the second)
        # run of a round lands on both alike
        for kind in ("ours", "bare") if i % 2 == 0 else ("bare", "ours"):
            started = time.perf_counter()
            profile = args.profile if i == args.rounds - 1 else None
            runs[kind].append(asyncio.run(bench_bot(kind, argparse.Namespace(**{**vars(args), "profile": profile}),
                                                    paper_button, answers, layout)))
            print(f"round {i + 1} {kind}: done in {time.perf_counter() - started:.0f} s", flush=True)
    print()
    ok = report(runs["ours"], runs["bare"], args, answers, layout)
    if args.profile:
        import pstats

        print(f"\nprofile of our bot's event loop ({args.profile}), top 25 by own time:")
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
