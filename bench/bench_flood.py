"""Flood benchmark (issue 9): one user sending 200 updates/s must not slow down everyone else.

Our real Application (bot.app.build_application, temp SQLite file, bundled bank imported at
start-up) runs alone in a child process, as in bench_exam; the fake Bot API server and the
simulated users run in this process, and every timestamp is taken here (time.perf_counter).

Two phases against the same bot, alternating (`--rounds` times each):

1. Baseline: 50 normal users each send /help once every `--period` s (staggered: 50/period per
   second in all) for `--duration` s.
2. Flood: the same 50 users and the same schedule, plus one flooder sending /help at `--rate`
   (200) updates/s, from `--warm-up` s before the measured window until its end.

A normal user's latency runs from their /help reaching the fake server until the bot's reply
(sendMessage to that chat) reaches it; bot-side latency starts when getUpdates hands it over.
Printed: the normal users' p50/p99/max in both phases, the ratio flood/baseline, how many of the
flooder's updates were answered, and the bot's CPU. The
target: the flood costs the others at most a few ms of p99 (flood p99 - baseline p99 < 10 ms).
The bot's pacer (bot/pacing.py) is OFF unless --rate-limiter (it holds sends to Telegram's 30/s, which
then dominate: a flooder answered as fast as the limit allows takes half of it), and the fake
server's own limits are off: this measures what the bot costs.

    python bench/bench_flood.py [--users 50] [--period 2] [--duration 20] [--rounds 2] [--rate 200]
                                [--warm-up 3] [--rate-limiter]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exam import TOKEN, Child  # noqa: E402

from sandbox.fakeapi import FakeBotApi
from sandbox.fakeapi import methods as fake_methods

FLOODER = 900_000
FIRST_USER = 500_000
P99_EXTRA_TARGET_MS = 10.0


@dataclass
class Replies:
    """Stamps, per normal user's /help, when getUpdates hands it to the bot and when the bot's reply
    arrives (process-local patches of the fake server's method table, as bench_exam's probe)."""

    sent: dict[int, deque] = field(default_factory=lambda: defaultdict(deque))
    latencies: list[float] = field(default_factory=list)  # /help reaching the server -> the reply
    bot_side: list[float] = field(default_factory=list)  # getUpdates handing it over -> the reply
    flooder_replies: int = 0
    measuring: bool = False

    def __enter__(self) -> Replies:
        table = fake_methods.METHODS
        self._saved = {key: table[key] for key in ("sendmessage", "getupdates")}
        name, handler = self._saved["sendmessage"]

        def stamped(api, params):
            arrived = time.perf_counter()
            result = handler(api, params)
            chat_id = int(params.get("chat_id", 0))
            if chat_id == FLOODER:
                self.flooder_replies += 1
            elif self.sent[chat_id]:
                at, measured, delivered = self.sent[chat_id].popleft()
                if measured:
                    self.latencies.append(arrived - at)
                    if delivered is not None:
                        self.bot_side.append(arrived - delivered)
            return result

        updates_name, get_updates = self._saved["getupdates"]

        async def delivered(api, params):
            result = await get_updates(api, params)
            now = time.perf_counter()
            for update in result or ():
                chat_id = (update.get("message") or {}).get("chat", {}).get("id")
                for entry in self.sent.get(chat_id, ()):
                    if entry[2] is None:
                        entry[2] = now
                        break
            return result

        table["sendmessage"] = (name, stamped)
        table["getupdates"] = (updates_name, delivered)
        return self

    def __exit__(self, *exc_info: object) -> None:
        fake_methods.METHODS.update(self._saved)

    def asked(self, chat_id: int) -> None:
        self.sent[chat_id].append([time.perf_counter(), self.measuring, None])


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def normal_users(api: FakeBotApi, probe: Replies, users: list, period: float, duration: float) -> None:
    """User i sends /help at i·period/N + r·period for r = 0, 1, ... while within `duration`."""
    start = time.perf_counter() + 0.1

    async def one(i: int, user) -> None:
        r = 0
        offset = i * period / len(users)
        while offset + r * period < duration:
            await asyncio.sleep(max(0.0, start + offset + r * period - time.perf_counter()))
            probe.asked(user.id)
            await user.send("/help")
            r += 1

    await asyncio.gather(*(one(i, u) for i, u in enumerate(users)))


async def flood(user, rate: float, stop: asyncio.Event) -> int:
    """/help at `rate` per second (in ticks of 10 ms) until `stop`; returns how many were sent."""
    sent, start = 0, time.perf_counter()
    while not stop.is_set():
        due = int((time.perf_counter() - start) * rate)
        while sent < due:
            await user.send("/help")
            sent += 1
        await asyncio.sleep(0.01)
    return sent


async def run(args) -> dict:
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp, Replies() as probe:
        api = FakeBotApi(TOKEN, bot_username="proctor_bot")
        await api.start()
        child = Child("ours", api.base_url, Path(tmp) / "proctor.db", args.rate_limiter, None, "B")
        try:
            await child.recv()
            users = [api.user(FIRST_USER + i, f"U{i}", language_code="en") for i in range(args.users)]
            flooder = api.user(FLOODER, "Flood", language_code="en")
            for u in users + [flooder]:  # first sight of each user (a users row) is not measured
                probe.asked(u.id)
                await u.send("/help")
            await api.wait_idle(quiet=0.5, timeout=60)

            # the phases alternate, `--rounds` times each, so a change in the machine's load
            # (other processes) falls on both alike
            figures: dict[str, dict] = {p: {"lat": [], "bot": [], "cpu": 0.0, "wall": 0.0, "sent": 0, "gc": 0.0,
                                             "answered": 0} for p in ("baseline", "flood")}
            for _round in range(args.rounds):
                for phase in ("baseline", "flood"):
                    f = figures[phase]
                    probe.latencies, probe.bot_side, probe.flooder_replies = f["lat"], f["bot"], 0
                    before = await child.ask("usage")
                    stop = asyncio.Event()
                    flooding = asyncio.create_task(flood(flooder, args.rate, stop)) if phase == "flood" else None
                    if flooding:
                        await asyncio.sleep(args.warm_up)  # the flooder's allowance is spent before measuring
                    probe.measuring = True
                    started = time.perf_counter()
                    await normal_users(api, probe, users, args.period, args.duration)
                    f["wall"] += time.perf_counter() - started
                    probe.measuring = False
                    if flooding:
                        stop.set()
                        f["sent"] += await flooding
                    await api.wait_idle(quiet=0.5, timeout=120)
                    after = await child.ask("usage")
                    f["cpu"] += after["cpu"] - before["cpu"]
                    f["gc"] = max(f["gc"], after["gc_worst"])
                    f["answered"] += probe.flooder_replies
            for phase, f in figures.items():
                out[phase] = {
                    "n": len(f["lat"]), "p50": _pct(f["lat"], 0.5), "p99": _pct(f["lat"], 0.99),
                    "max": _pct(f["lat"], 1.0), "bot_p50": _pct(f["bot"], 0.5), "bot_p99": _pct(f["bot"], 0.99),
                    "cpu": f["cpu"] / f["wall"] * 100, "flood_sent": f["sent"], "flood_answered": f["answered"],
                    "gc": f["gc"] * 1000,
                    "expected": round(args.rounds * args.users * args.duration / args.period),  # staggered sends
                }
            await child.ask("stop")
        finally:
            child.end()
            await api.stop()
        out["errors"] = [f"{call.method}: {code} {text}" for call, code, text in api.errors]
    return out


def report(out: dict, args) -> bool:
    base, fl = out["baseline"], out["flood"]
    print(f"normal users: {args.users}, one /help each per {args.period:g} s "
          f"({args.users / args.period:g}/s), {args.rounds} × {args.duration:g} s measured per phase; "
          f"pacer {'ON' if args.rate_limiter else 'OFF'}\n")
    print(f"{'':28}{'baseline':>10}{'flood':>10}{'flood/base':>12}")
    for key, label in (("p50", "normal p50 ms"), ("p99", "normal p99 ms"), ("max", "normal max ms"),
                       ("bot_p50", "  bot-side p50 ms"), ("bot_p99", "  bot-side p99 ms")):
        print(f"{label:28}{base[key]:10.1f}{fl[key]:10.1f}{fl[key] / base[key]:12.2f}")
    print(f"{'replies measured':28}{base['n']:10d}{fl['n']:10d}   (of {base['expected']} each)")
    print(f"{'bot process CPU %':28}{base['cpu']:10.0f}{fl['cpu']:10.0f}")
    print(f"{'worst GC pause in bot ms':28}{base['gc']:10.1f}{fl['gc']:10.1f}")
    answered = fl["flood_answered"]
    print(f"\nflooder: {fl['flood_sent']} updates sent at {args.rate:g}/s, {answered} replies (answers, and "
          f"one notice per burst if its queue hit the cap); the rest were dropped by the per-user cap")
    for e in out["errors"][:5]:
        print(f"! {e}")
    extra = fl["p99"] - base["p99"]
    ok = extra < P99_EXTRA_TARGET_MS and fl["n"] == fl["expected"]
    print(f"\nflood adds {extra:.1f} ms to the normal users' p99 (target < {P99_EXTRA_TARGET_MS:g}): "
          f"{'PASS' if ok else 'MISS'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50, help="normal users")
    parser.add_argument("--period", type=float, default=2.0, help="seconds between one user's /help")
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds per phase")
    parser.add_argument("--rate", type=float, default=200.0, help="the flooder's updates per second")
    parser.add_argument("--rounds", type=int, default=2, help="baseline/flood alternations")
    parser.add_argument("--warm-up", type=float, default=3.0, help="seconds of flood before measuring")
    parser.add_argument("--rate-limiter", action="store_true", help="the bot's pacer on (bot/pacing.py: 30 sends/s)")
    args = parser.parse_args(argv)
    return 0 if report(asyncio.run(run(args)), args) else 1


if __name__ == "__main__":
    sys.exit(main())
