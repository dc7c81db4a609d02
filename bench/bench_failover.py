"""Failover during a hiring round: two `proctor run` processes on one PostgreSQL record, the active
killed (-9) or frozen (SIGSTOP) during the deadline burst, the standby taking over.

The round is bench/bench_hiring.py's (its paper, its candidates' pace, its invites split among leads,
its fake Bot API with Telegram's flood limits), on a PostgreSQL record instead of a SQLite file.
Topology: PostgreSQL 15, both bots, the fake Bot API and the simulated candidates on this one machine
(a throwaway server from tests/postgres_server.py, set durable for the run: fsync, full-page writes
and synchronous commit on). Process A is started first and leads (epoch 1); B starts once A is up
and stands by. `--kill-at burst` sends the signal --kill-after seconds after the first deadline:
result and lead cards are being sent and the later candidates still answer. A frozen A is woken once
the round has ended (it must send nothing and exit 75).

Telling the processes apart: each bot gets its own PROCTOR_BOT_API_URL on the same fake server
(`/A/bot…`, `/B/bot…`); the bench adds those routes to the fake server in this process (the fake
server and the bot are unchanged) and logs every method call with the process that made it.

Figures:
- standby_leads_s: the signal to B's first getUpdates (it polls only once it leads; ≤ 5 s wanted);
- gap_s: the last update answered by A (its last answerCallbackQuery, edit or screen sent for a
  candidate's answer) to the first answered by B;
- answers_lost: answers a candidate saw confirmed (the next screen) that are not in the record;
  answers_counted_twice: answers in the record beyond those the candidate gave (and (attempt, pos)
  pairs held twice);
- result and lead cards delivered (one per finished attempt each), the duplicates per card
  (a card sent more than once: allowed once per card that was on the wire at the kill), and the
  messages sent by both processes (chat and text) with A's send time relative to the kill;
- p50/p99 bot-side latency of every answer, and p99 outside the gap (answers delivered and shown
  both before the signal or both after B's first answer); CPU seconds of A, B and PostgreSQL's
  processes; the machine's load average.

    python bench/bench_failover.py --candidates 300 --kill sigkill [--limit 1] [--kill-after 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: its packages and tests/
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _engines import PgServer  # noqa: E402
from _exam_driver import Candidate, Probe  # noqa: E402
from _proc_tree import tree  # noqa: E402
from bench_hiring import (  # noqa: E402
    BOT,
    FIRST_ID,
    LEAD,
    WRITTEN,
    _cpu,
    _env,
    _open,
    _pct,
    _save,
    _take,
    hiring_paper,
    invite_links,
)

from sandbox.fakeapi import FakeBotApi, RateLimits  # noqa: E402
from sandbox.fakeapi import methods as fake_methods  # noqa: E402
from sandbox.fakeapi import server as fake_server  # noqa: E402

TOKEN = "123456:BENCH-fake-token-for-bench-failover"
WRITTEN_SENTENCE = WRITTEN.split("，")[0]  # a written answer's paragraph repeats it
CALLER: contextvars.ContextVar[str] = contextvars.ContextVar("caller", default="?")
ANSWERING = frozenset({"answerCallbackQuery", "editMessageText", "sendMessage"})  # a result card (🏁) is not an answer
LEADS_TIMEOUT = 120.0  # a cold bot on a busy 2-core machine may take a while to import and migrate


@dataclass
class ApiCall:
    proc: str
    name: str
    chat_id: int | None
    text: str
    at: float  # time.perf_counter() in this process


class TaggedServer(fake_server.ApiServer):
    """The fake server with `/<proc>/bot<token>/<method>` beside `/bot<token>/<method>`: the same
    handler, the caller's name kept in a context variable for the call log."""

    async def start(self) -> None:
        real = web.Application

        def application(*args: Any, **kwargs: Any) -> web.Application:
            app = real(*args, **kwargs)
            app.router.add_route("*", "/{proc}/bot{token}/{method}", self._tagged)
            return app

        fake_server.web.Application = application  # type: ignore[misc]  # only while the app is built
        try:
            await super().start()
        finally:
            fake_server.web.Application = real  # type: ignore[misc]

    async def _tagged(self, request: web.Request) -> web.Response:
        CALLER.set(request.match_info["proc"])
        return await self._handle_method(request)


class CallLog:
    """Wraps the fake server's method table (after the Probe's) and logs each call with its caller."""

    def __init__(self) -> None:
        self.calls: list[ApiCall] = []
        self._saved: dict[str, tuple[str, Any]] = {}

    def __enter__(self) -> CallLog:
        table = fake_methods.METHODS
        self._saved = dict(table)
        for key, (name, handler) in self._saved.items():
            table[key] = (name, self._wrap(name, handler))
        return self

    def __exit__(self, *exc_info: object) -> None:
        fake_methods.METHODS.update(self._saved)

    def _log(self, name: str, params: dict[str, Any]) -> None:
        try:
            chat = int(params["chat_id"])
        except (KeyError, TypeError, ValueError):
            chat = None
        self.calls.append(ApiCall(CALLER.get(), name, chat, str(params.get("text", "")), time.perf_counter()))

    def _wrap(self, name: str, handler: Any) -> Any:
        if asyncio.iscoroutinefunction(handler):
            async def wrapped_async(api: Any, params: dict[str, Any]) -> Any:
                self._log(name, params)
                return await handler(api, params)
            return wrapped_async

        def wrapped(api: Any, params: dict[str, Any]) -> Any:
            self._log(name, params)
            return handler(api, params)
        return wrapped


def _rows(url: str, sql: str, *params: Any) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql, params)  # type: ignore[arg-type]  # the bench's own SQL
        return cursor.fetchall() if cursor.description else []


def _tree_cpu(root: int) -> float:
    total = 0.0
    for pid in tree(root):  # PostgreSQL's postmaster and its backends
        try:
            total += _cpu(pid)
        except (OSError, IndexError):
            pass
    return total


async def _wait_log(path: Path, text: str, timeout: float) -> float:
    """Waits until the bot's log holds `text`; returns when (perf_counter)."""
    deadline = time.perf_counter() + timeout
    while text not in path.read_text(errors="replace"):
        if time.perf_counter() > deadline:
            raise SystemExit(f"{path}: no {text!r} within {timeout:.0f} s:\n{path.read_text()[-3000:]}")
        await asyncio.sleep(0.1)
    return time.perf_counter()


async def _bot(tmp: Path, name: str, url: str, env: dict[str, str], api: FakeBotApi) -> asyncio.subprocess.Process:
    home = tmp / name
    home.mkdir()
    base = f"http://{api.server.host}:{api.server.port}/{name}/bot"
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "--db", url, "run", cwd=home, stdout=subprocess.DEVNULL,
        stderr=(tmp / f"{name}.log").open("w"), env=env | {"PROCTOR_BOT_API_URL": base})


async def run(n: int, limit_min: int, idle_share: float, seed: int, leads: int, stagger: float,
              think: tuple[float, float], kill: str, kill_after: float) -> dict:
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="bench-failover-"))
    pg = PgServer()  # durable: fsync, full-page writes and synchronous commit on
    bots: list[asyncio.subprocess.Process] = []
    api = FakeBotApi(TOKEN, bot_username=BOT, rate_limits=RateLimits())
    api.server.__class__ = TaggedServer
    try:
        _, url = pg.new_database()
        await api.start()
        env = _env(api, leads) | {"TELEGRAM_BOT_TOKEN": TOKEN}
        paper = f"P{await _save(url, hiring_paper(limit_min))}"  # type: ignore[arg-type]  # a URL: open_database takes both
        payloads = invite_links(url, env, api, paper, n, leads, rng)
        with Probe() as probe, CallLog() as log:
            a = await _bot(tmp, "A", url, env, api)
            bots.append(a)
            await _wait_log(tmp / "A.log", "leading with epoch 1 ", LEADS_TIMEOUT)
            await api.wait_for(lambda: api.calls_to("setMyCommands"), LEADS_TIMEOUT, "A's start-up")
            b = await _bot(tmp, "B", url, env, api)
            bots.append(b)
            await _wait_log(tmp / "B.log", "standby: waiting for the active ", LEADS_TIMEOUT)
            return await _round(api, probe, log, pg, url, tmp, a, b, n, payloads, idle_share, rng, leads,
                                stagger, think, kill, kill_after) | {"topology": "PostgreSQL 15, bots A and B, "
                                                                    "fake Telegram and candidates: one machine"}
    finally:
        for bot in bots:
            if bot.returncode is None:
                bot.send_signal(signal.SIGCONT)
                bot.terminate()
                try:
                    await asyncio.wait_for(bot.wait(), 20)
                except TimeoutError:
                    bot.kill()
                    await bot.wait()
        await api.stop()
        pg.stop()
        print(f"bot logs in {tmp}", file=sys.stderr)


async def _round(api: FakeBotApi, probe: Probe, log: CallLog, pg: PgServer, url: str, tmp: Path,
                 a: asyncio.subprocess.Process, b: asyncio.subprocess.Process, n: int, payloads: list[str],
                 idle_share: float, rng: random.Random, leads: int, stagger: float, think: tuple[float, float],
                 kill: str, kill_after: float) -> dict:
    load_before = os.getloadavg()
    postmaster = pg.postmaster()
    candidates = [Candidate(api, probe, FIRST_ID + i) for i in range(n)]
    await _open(candidates[0], payloads[0])
    await candidates[0].answer()
    cpu0 = {"A": _cpu(a.pid), "B": _cpu(b.pid), "pg": _tree_cpu(postmaster)}
    wall0 = time.monotonic()
    idle = set(rng.sample(range(n), round(n * idle_share)))
    stuck: list[int] = []
    deadlines: dict[int, float] = {}
    all_open, to_open = asyncio.Event(), [n - 1]

    async def person(i: int, c: Candidate, payload: str) -> None:
        if i:
            await asyncio.sleep(stagger * (i - 1) / n)
            await _open(c, payload)
            to_open[0] -= 1
            if not to_open[0]:
                all_open.set()
        await _take(c, deadlines, i in idle, rng, think, stuck)

    if n == 1:
        all_open.set()
    answering = asyncio.ensure_future(asyncio.gather(*(person(i, c, p) for i, (c, p)
                                                       in enumerate(zip(candidates, payloads, strict=True)))))
    await all_open.wait()
    [(first_deadline, last_deadline)] = _rows(url, "SELECT MIN(deadline), MAX(deadline) FROM attempts WHERE status = 'running'")
    deadlines.update(_rows(url, "SELECT user_id, deadline FROM attempts WHERE status = 'running'"))
    await asyncio.sleep(max(0.0, first_deadline + kill_after - time.time()))
    finished_at_kill = _rows(url, "SELECT COUNT(*) FROM attempts WHERE status = 'finished'")[0][0]
    cpu0["A_total"] = _cpu(a.pid) - cpu0["A"]  # A's CPU up to the signal
    signalled_wall = time.time()
    a.send_signal(signal.SIGKILL if kill == "sigkill" else signal.SIGSTOP)
    signalled = time.perf_counter()
    try:
        await _wait_log(tmp / "B.log", "leading with epoch 2 ", 30)
    except SystemExit:
        pass
    await answering
    burst_started = time.monotonic()
    expected = n
    while True:
        finished = _rows(url, "SELECT COUNT(*) FROM attempts WHERE status = 'finished'")[0][0]
        pending = _rows(url, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'")[0][0]
        if finished >= expected and not pending:
            break
        if time.monotonic() - burst_started > 60 + 2.5 * n / leads:
            break
        await asyncio.sleep(0.5)
    await asyncio.sleep(3)  # any late duplicate
    cpu = {"A": cpu0["A_total"], "B": _cpu(b.pid) - cpu0["B"], "pg": _tree_cpu(postmaster) - cpu0["pg"]}
    wall = time.monotonic() - wall0
    woken: dict[str, Any] = {}
    if kill == "sigstop":  # wake A: it must send nothing and exit 75
        calls_before = len(log.calls)
        a.send_signal(signal.SIGCONT)
        try:
            woken["exit"] = await asyncio.wait_for(a.wait(), 15)
        except TimeoutError:
            woken["exit"] = "still running after 15 s"
        await asyncio.sleep(1)
        woken["calls_after_waking"] = Counter(c.name for c in log.calls[calls_before:] if c.proc == "A")
    else:
        woken["exit"] = await a.wait()

    # --- the handover, from the call log ---------------------------------------------------------
    b_polls = [c.at for c in log.calls if c.proc == "B" and c.name == "getUpdates"]
    answers = [c for c in log.calls if c.name in ANSWERING and not c.text.startswith("🏁")
               and (c.chat_id is None or c.chat_id < LEAD)]  # answerCallbackQuery has no chat
    a_answers = [c.at for c in answers if c.proc == "A" and c.at <= signalled]
    b_answers = [c.at for c in answers if c.proc == "B"]
    last_a = max(a_answers, default=math.nan)
    first_b = min(b_answers, default=math.nan)
    a_after = [c for c in log.calls if c.proc == "A" and c.at > signalled]

    # --- answers: confirmed on screen against the record ------------------------------------------
    # what each answer brought on screen: the next question confirms it; the result card in its place
    # (the deadline came first) does not
    screens: dict[int, list[ApiCall]] = defaultdict(list)
    for c in log.calls:
        if c.name in ("editMessageText", "sendMessage") and c.chat_id is not None and c.chat_id < LEAD:
            screens[c.chat_id].append(c)

    def card_instead(p: Any) -> bool:
        shown = [c for c in screens[p.chat_id] if c.at <= p.edited]
        return bool(shown) and shown[-1].text.startswith("🏁")

    given: Counter[int] = Counter(p.chat_id for p in probe.presses)
    confirmed: Counter[int] = Counter(p.chat_id for p in probe.presses if p.seen is not None and p.edited is not None
                                      and not card_instead(p))
    overtaken = [p for p in probe.presses if p.seen is not None and p.edited is not None and card_instead(p)]
    # a typed answer the deadline overtook gets no next screen: the result card came after it instead
    unanswered_card = [p for p in probe.presses if p.seen is None and screens[p.chat_id]
                       and screens[p.chat_id][-1].text.startswith("🏁") and screens[p.chat_id][-1].at > p.pressed]
    # a written question keeps its screen and adds each typed message to its answer: a row holds as
    # many of the candidate's messages as its text holds the paragraph they type
    recorded: Counter[int] = Counter()
    for user, response in _rows(url, "SELECT t.user_id, s.response FROM answers s JOIN attempts t ON t.id = s.attempt_id"):
        recorded[user] += max(1, response.count(WRITTEN_SENTENCE) // WRITTEN.count(WRITTEN_SENTENCE))
    lost = sum(max(0, confirmed[u] - recorded[u]) for u in confirmed)
    deadline_of = dict(_rows(url, "SELECT user_id, deadline FROM attempts"))
    on_wall = time.time() - time.perf_counter()
    short = {u: (confirmed[u], recorded[u], [round(p.pressed + on_wall - deadline_of[u], 1) for p in probe.presses
                                             if p.chat_id == u]) for u in confirmed if confirmed[u] > recorded[u]}
    # a candidate whose answer was not shown within 60 s (who then gave up): its last press and what
    # reached its chat after it, to tell a lost reply from a deadline that came first
    stuck_detail = []
    for u in stuck:
        last = max((p for p in probe.presses if p.chat_id == u), key=lambda p: p.pressed)
        at = last.pressed + on_wall
        stuck_detail.append({"typed": last.callback_id == "", "pressed_from_deadline_s": round(at - deadline_of[u], 1),
                             "pressed_from_signal_s": round(at - signalled_wall, 1),
                             "delivered": last.delivered is not None, "edited": last.edited is not None,
                             "after": [(c.name, c.proc, c.text[:24], round(c.at - signalled, 1))
                                       for c in screens[u] if c.at >= last.pressed]})
    twice = sum(max(0, recorded[u] - given[u]) for u in recorded)
    pairs_twice = _rows(url, "SELECT COUNT(*) FROM (SELECT attempt_id, pos FROM answers GROUP BY 1, 2 "
                             "HAVING COUNT(*) > 1) x")[0][0]

    # --- cards -----------------------------------------------------------------------------------
    finished_rows = _rows(url, "SELECT user_id FROM attempts WHERE status = 'finished'")
    sends = [c for c in log.calls if c.name in ("sendMessage", "editMessageText") and c.chat_id is not None]
    result_calls: dict[int, list[ApiCall]] = defaultdict(list)
    for c in sends:
        if c.chat_id < LEAD and c.text.startswith("🏁"):
            result_calls[c.chat_id].append(c)
    no_card = [u for (u,) in finished_rows if not any(m.from_bot and (m.text or "").startswith("🏁")
                                                        for m in api.chat_view(u))]
    result_delivered = len(finished_rows) - len(no_card)
    result_sent_twice = {u: len(cs) for u, cs in result_calls.items() if sum(c.name == "sendMessage" for c in cs) > 1
                         or sum(c.name == "editMessageText" for c in cs) > 1}
    lead_texts: Counter[tuple[int, str]] = Counter((c.chat_id, c.text) for c in sends
                                                    if c.chat_id >= LEAD and c.name == "sendMessage")
    lead_dupes = {k: v for k, v in lead_texts.items() if v > 1}
    by_procs: dict[tuple[int, str], set[str]] = defaultdict(set)
    a_time: dict[tuple[int, str], float] = {}
    for c in sends:
        if c.name == "sendMessage":
            by_procs[(c.chat_id, c.text)].add(c.proc)
            if c.proc == "A":
                a_time[(c.chat_id, c.text)] = c.at
    both = [(chat, text[:40], round(a_time[(chat, text)] - signalled, 2))
            for (chat, text), procs in by_procs.items() if procs >= {"A", "B"}]
    outbox = _rows(url, "SELECT kind, state, COUNT(*) FROM outbox GROUP BY 1, 2 ORDER BY 1, 2")

    # --- latency ---------------------------------------------------------------------------------
    answered = [p for p in probe.presses[1:] if p.bot_side is not None]
    outside = [p for p in answered if (p.edited is not None and p.edited <= signalled)
               or (p.delivered is not None and p.delivered >= first_b)]
    after = [p for p in outside if p.delivered >= first_b]
    straddling = [p for p in answered if p not in outside]
    return {
        "kill": kill, "candidates": n, "idle": len(idle), "leads": leads,
        "deadline_spread_s": round(last_deadline - first_deadline, 1),
        "signal_after_first_deadline_s": round(signalled_wall - first_deadline, 1),
        "finished_at_signal": finished_at_kill,
        "standby_leads_s": round(min(b_polls, default=math.nan) - signalled, 2),
        "gap_s": round(first_b - last_a, 2), "last_answer_by_A_before_signal_s": round(signalled - last_a, 2),
        "first_answer_by_B_after_signal_s": round(first_b - signalled, 2),
        "a_exit": woken.get("exit"), "a_calls_after_signal": Counter(c.name for c in a_after),
        "a_calls_after_waking": woken.get("calls_after_waking"),
        "answers": len(answered), "answers_confirmed": sum(confirmed.values()),
        "answers_recorded": sum(recorded.values()), "answers_lost": lost, "answers_counted_twice": twice,
        "attempt_pos_twice": pairs_twice, "short_users(confirmed,recorded,pressed_s_before_deadline)": list(short.items())[:8],
        "answers_overtaken_by_deadline": len(overtaken), "typed_unanswered_card_came": len(unanswered_card),
        "overtaken_pressed_s_from_deadline": sorted(round(p.pressed + on_wall - deadline_of[p.chat_id], 1) for p in overtaken)[:20], "answers_not_shown_in_60s": len(stuck),
        "not_shown": stuck_detail[:5],
        "finished": len(finished_rows), "result_cards_delivered": result_delivered,
        "result_cards_sent_more_than_once": result_sent_twice,
        "no_result_card": [(u, [(c.proc, c.name, c.text[:30], round(c.at - signalled, 2)) for c in screens[u][-4:]],
                            [(call.method, code, text) for call, code, text in api.state.errors
                             if call.params.get("chat_id") in (u, str(u))]) for u in no_card],
        "lead_cards_delivered": len({k for k in lead_texts}), "lead_card_duplicates": lead_dupes and {
            k[0]: v for k, v in lead_dupes.items()},
        "sent_by_both": both, "outbox": outbox,
        "p50_ms": round(_pct([p.bot_side for p in answered], 0.5), 1),
        "p99_ms": round(_pct([p.bot_side for p in answered], 0.99), 1),
        "p99_outside_gap_ms": round(_pct([p.bot_side for p in outside], 0.99), 1),
        "p50_outside_gap_ms": round(_pct([p.bot_side for p in outside], 0.5), 1),
        "p99_before_signal_ms": round(_pct([p.bot_side for p in outside if p.edited <= signalled], 0.99), 1),
        "p99_after_takeover_ms": round(_pct([p.bot_side for p in after], 0.99), 1),
        "p99_from_10s_after_takeover_ms": round(_pct([p.bot_side for p in after if p.delivered >= first_b + 10], 0.99), 1),
        "answers_after_takeover": len(after),
        "answers_straddling_gap": len(straddling),
        "max_straddling_ms": round(max((p.bot_side for p in straddling), default=math.nan) * 1000, 1),
        "http_429": api.stats.rejected,
        "cpu_s_A_until_signal": round(cpu["A"], 1), "cpu_s_B": round(cpu["B"], 1), "cpu_s_postgres": round(cpu["pg"], 1), "wall_s": round(wall, 1),
        "load_avg_before": load_before, "load_avg_after": os.getloadavg(),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--candidates", type=int, default=100)
    p.add_argument("--limit", type=int, default=1, help="the paper's time limit in minutes")
    p.add_argument("--idle", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--leads", type=int)
    p.add_argument("--stagger", type=float, default=40.0)
    p.add_argument("--think", type=float, nargs=2, default=(5.0, 30.0), metavar=("MIN", "MAX"))
    p.add_argument("--kill", choices=("sigkill", "sigstop"), default="sigkill")
    p.add_argument("--kill-at", choices=("burst",), default="burst")
    p.add_argument("--kill-after", type=float, default=8.0, help="seconds after the first deadline")
    args = p.parse_args()
    leads = args.leads or max(1, math.ceil(args.candidates / 20))
    result = asyncio.run(run(args.candidates, args.limit, args.idle, args.seed, leads, args.stagger,
                             tuple(args.think), args.kill, args.kill_after))
    for key, value in result.items():
        print(f"{key:>34}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
