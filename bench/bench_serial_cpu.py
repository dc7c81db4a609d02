"""CPU per update, one update at a time: our bot against a bare PTB bot on httpx and on aiohttp.

Issue 23's measurement. Each bot runs alone in a fresh child process (bench/_exam_bots.py); the fake
Bot API and the candidates run in this process. Candidates take the bundled paper with the longest
leading run of typed answers and button presses (`bench_exam.pick_paper`: 10 fill-ins typed, then
single choices pressed) one after another, each answer waiting for the bot's reply before the next,
so the bot handles exactly one update at a time: --candidates × 19 answers (default 4 × 19 = 76).
The candidates take turns, question by question, and none answers sooner than 1/RATE s after their
previous answer (bot/ordering.py meters each user: a burst of 20, then 5 a second; a faster
candidate would have answers dropped as a flood). Two candidates answer the same run first,
uncounted (first use: lazy imports, the warm-up thread).

The figure is the bot process's CPU (utime + stime of all its threads, in clock ticks from
/proc/PID/stat, read by this process) over the measured answers, divided by their number. The bots
are interleaved ABBA: round 1 ours, bare, bare-aiohttp; round 2 the reverse; ... and every ratio is
taken round by round, so the machine's drift lands on all of them alike. bench_update_cpu.py is the
method that replaces it (the real `proctor run` process against a bare bot making the same calls, both
with their rate limiters); this one stays for comparison.

    python bench/bench_serial_cpu.py [--rounds 4] [--candidates 4]
    python bench/bench_serial_cpu.py --aa ours       # A/A: the same bot twice, to see the noise
    python bench/bench_serial_cpu.py --profile FILE  # cProfile our bot's event loop over the answers

The bots: "ours" (bot.app.build_application, a temp SQLite file, no rate limiter), "bare" (PTB with
its default transport, httpx: answerCallbackQuery + editMessageText per press, sendMessage +
sendMessage + deleteMessage per typed answer, no database, no logic), "bare-aiohttp" (the same bare
bot with both of PTB's clients on bot/aiohttp_request.py). Also printed: resident memory after
start-up (idle) and at its peak, the same as PSS summed over the bot's process tree (bench/_proc_tree.py;
the peak from samples every 0.25 s), and the bot-side median time per answer.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _exam_driver import Candidate, Probe  # noqa: E402
from _proc_tree import PssSampler, pss_kib  # noqa: E402
from bench_exam import CLK_TCK, TOKEN, Child, _pct, _spread, pick_paper  # noqa: E402

from bot.ordering import RATE  # noqa: E402
from sandbox.fakeapi import FakeBotApi  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BOTS = ("ours", "bare", "bare-aiohttp")
TARGET = 1.0  # ours / bare (httpx), CPU per update
WARM_UP = 2  # candidates who answer first, uncounted


@dataclass
class Run:
    label: str
    ticks: int = 0
    loop_s: float = 0.0  # of the CPU: the event loop's thread (the rest: aiosqlite's, the warm-up's...)
    answers: int = 0
    idle_rss: float = 0.0
    peak_rss: float = 0.0
    idle_pss: float = 0.0  # MiB, the bot's process tree
    peak_pss: float = 0.0
    bot_side: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def cpu_ms(self) -> float:
        return self.ticks / CLK_TCK / self.answers * 1000

    @property
    def other_threads_ms(self) -> float:
        return max(0.0, self.ticks / CLK_TCK - self.loop_s) / self.answers * 1000


def _ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, every thread


async def take_turns(people: list[Candidate], answers: int) -> None:
    """One answer at a time: everyone answers question 1, then question 2, ...; each person at most
    RATE answers a second, as the bot's per-user meter allows."""
    last = dict.fromkeys(range(len(people)), 0.0)
    for _ in range(answers):
        for i, person in enumerate(people):
            await asyncio.sleep(max(0.0, last[i] + 1 / RATE - time.perf_counter()))
            last[i] = time.perf_counter()
            await person.answer()


async def one_run(label: str, kind: str, args, paper_button: str, answers: int, layout: str,
                  profile: str | None) -> Run:
    out = Run(label)
    with tempfile.TemporaryDirectory() as tmp, Probe() as probe:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        child = Child(kind, api.base_url, Path(tmp) / "proctor.db", False, profile, layout,
                      0 if args.one_core else None)
        try:
            out.idle_rss = (await child.recv())["rss_mib"]
            out.idle_pss = pss_kib(child.process.pid) / 1024
            async with PssSampler(child.process.pid) as pss:
                people = [Candidate(api, probe, 400_000 + i) for i in range(args.candidates + WARM_UP)]
                for person in people:  # set-up, one at a time too: /exam (ours: the paper, ▶️ Start)
                    await (person.open_ours(paper_button) if kind == "ours" else person.open_bare())
                await take_turns(people[:WARM_UP], answers)  # uncounted
                await child.ask("settle")
                await api.wait_idle(quiet=0.3, timeout=60)
                if profile:
                    await child.ask("profile-on")
                loop_before = (await child.ask("usage"))["loop_cpu"]
                first, before = len(probe.presses), _ticks(child.process.pid)
                await take_turns(people[WARM_UP:], answers)
                out.ticks = _ticks(child.process.pid) - before
                out.loop_s = (await child.ask("usage"))["loop_cpu"] - loop_before
                measured = probe.presses[first:]
                out.answers = len(measured)
                out.bot_side = [p.bot_side for p in measured if p.bot_side is not None]
                if profile:
                    await child.ask("profile-off")
            out.peak_pss = pss.peak / 1024
            out.peak_rss = (await child.ask("stop"))["peak_rss_mib"]
        finally:
            child.end()
            await api.stop()
        out.errors = [f"{call.method}: {code} {text}" for call, code, text in api.errors]
    return out


def report(runs: dict[str, list[Run]], pairs: list[tuple[str, str]]) -> None:
    width = max(len(label) for label in runs)
    print(f"{'':{width}}  CPU ms/update median (min-max)   of which not the loop's thread   idle RSS MiB   "
          f"peak RSS MiB   idle PSS MiB   peak PSS MiB   bot-side p50 ms")
    for label, rs in runs.items():
        print(f"{label:{width}}  {_spread([r.cpu_ms for r in rs], '{:.2f}'):>30}   "
              f"{_spread([r.other_threads_ms for r in rs], '{:.2f}'):>30}   "
              f"{_spread([r.idle_rss for r in rs], '{:.0f}'):>12}   {_spread([r.peak_rss for r in rs], '{:.0f}'):>12}   "
              f"{_spread([r.idle_pss for r in rs], '{:.0f}'):>12}   {_spread([r.peak_pss for r in rs], '{:.0f}'):>12}   "
              f"{_spread([_pct(r.bot_side, 0.5) for r in rs], '{:.2f}'):>15}")
    print()
    for a, b in pairs:
        cpu = [x.cpu_ms / y.cpu_ms for x, y in zip(runs[a], runs[b], strict=True)]
        idle = [x.idle_rss / y.idle_rss for x, y in zip(runs[a], runs[b], strict=True)]
        peak = [x.peak_rss / y.peak_rss for x, y in zip(runs[a], runs[b], strict=True)]
        idle_pss = [x.idle_pss / y.idle_pss for x, y in zip(runs[a], runs[b], strict=True)]
        peak_pss = [x.peak_pss / y.peak_pss for x, y in zip(runs[a], runs[b], strict=True)]
        print(f"{a}/{b}: CPU per update {_spread(cpu, '{:.2f}')}, idle RSS {_spread(idle, '{:.2f}')}, "
              f"peak RSS {_spread(peak, '{:.2f}')}, PSS of the process tree idle {_spread(idle_pss, '{:.2f}')}, "
              f"peak {_spread(peak_pss, '{:.2f}')} (pair by pair, {len(cpu)} rounds)")
    for label, rs in runs.items():
        for r in rs:
            if r.errors:
                print(f"! {label}: {len(r.errors)} API errors, e.g. {r.errors[0]}")


def by_package(path: str, answers: int) -> list[tuple[str, float]]:
    """A profile's own time per update, summed by where the code lives (our packages, PTB, aiohttp...)."""
    import pstats

    totals: dict[str, float] = {}
    for (filename, _, name), (_, _, own, _, _) in pstats.Stats(path).stats.items():  # type: ignore[attr-defined]
        parts = Path(filename).parts
        if "site-packages" in parts:
            package = parts[parts.index("site-packages") + 1]
        elif filename == "~":
            package = f"builtins: {name.split(' of ')[0].strip('{<>}')}" if "poll" in name or "send" in name \
                or "recv" in name else "builtins (other)"
        elif REPO in Path(filename).parents:
            package = "ours: " + Path(filename).relative_to(REPO).parts[0]
        else:
            package = "stdlib: " + (parts[-2] if len(parts) > 1 and not parts[-2].startswith("python3")
                                    else Path(filename).stem)
        totals[package] = totals.get(package, 0.0) + own
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    return [(package, seconds / answers * 1000) for package, seconds in ranked[:14]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds (ABBA: each round reverses the order)")
    parser.add_argument("--candidates", type=int, default=4, help="measured candidates, one after another")
    parser.add_argument("--bots", default=",".join(BOTS), help=f"which bots, comma-separated, of {', '.join(BOTS)}")
    parser.add_argument("--aa", choices=BOTS, help="A/A: this bot against itself (the noise of the method)")
    parser.add_argument("--one-core", action="store_true", help="run each bot on CPU 0 alone")
    parser.add_argument("--profile", metavar="FILE", help="cProfile each bot's event loop thread (its CPU time) over the "
                        "measured answers of the last round, to FILE.<bot>; prints where each bot's time went, by package")
    args = parser.parse_args(argv)

    if args.aa:
        columns = {args.aa: args.aa, f"{args.aa}'": args.aa}
    else:
        columns = {kind: kind for kind in args.bots.split(",")}
    labels = list(columns)
    pairs = [(labels[0], labels[1])] if args.aa else [
        (a, b) for a, b in (("ours", "bare"), ("ours", "bare-aiohttp"), ("bare-aiohttp", "bare")) if {a, b} <= set(labels)]
    paper_button, layout = asyncio.run(pick_paper())
    answers = len(layout) - 1  # the last question of the run stays unanswered
    typed = layout[:answers].count("T")
    print(f"paper {paper_button!r}: {answers} answers a candidate ({typed} typed, {answers - typed} pressed), "
          f"{args.candidates} candidates one after another = {args.candidates * answers} updates a run, one at a time; "
          f"{args.rounds} ABBA rounds of {', '.join(labels)}\n", flush=True)
    runs: dict[str, list[Run]] = {label: [] for label in labels}
    for i in range(args.rounds):
        for label in labels if i % 2 == 0 else labels[::-1]:
            started = time.perf_counter()
            profile = f"{args.profile}.{label}" if args.profile and i == args.rounds - 1 else None
            run = asyncio.run(one_run(label, columns[label], args, paper_button, answers, layout, profile))
            runs[label].append(run)
            print(f"round {i + 1} {label}: {run.cpu_ms:.2f} ms/update ({run.ticks} ticks over {run.answers} updates) "
                  f"in {time.perf_counter() - started:.0f} s", flush=True)
    print()
    report(runs, pairs)
    if args.profile:
        for label, rs in runs.items():
            print(f"\n{label}: the event loop thread's CPU ms per update by package (own time; {args.profile}.{label})")
            for package, ms in by_package(f"{args.profile}.{label}", rs[-1].answers):
                print(f"   {package:<28} {ms:6.2f}")
    if "ours" in runs and "bare" in runs and not args.aa:
        ratio = statistics.median(o.cpu_ms / b.cpu_ms for o, b in zip(runs["ours"], runs["bare"], strict=True))
        print(f"\nCPU per update, ours/bare (httpx) {ratio:.2f} (target ≤ {TARGET}): {'PASS' if ratio <= TARGET else 'MISS'}")
        return 0 if ratio <= TARGET else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
