"""A hiring round of N invited candidates against the real `proctor run` process, Telegram's limits on.

The round: a 30-question paper (bench/bench_hiring.py's own: single choices answered by a press,
fill-ins and written answers typed, interleaved so every stretch of the paper mixes both; a third
of the answers are typed) with its time limit set to --limit minutes; `proctor invite create --count
N` (in batches of 500, the command's maximum) split among --leads leads (default: one lead per 20
candidates; one lead receiving N cards is bound by Telegram's 1 a second in a chat: N seconds).
Every candidate is a simulated person in this process: opens the link (`/start inv_...`), presses
Start, then answers one question every --think seconds from its own Start on (default 5-30 s, the
real pace; a written answer is a paragraph; with --lockstep everyone starts answering at once when
the last link is open, the worst case). --idle of them (default 10%) answer nothing after Start and let the deadline
take them. The links are opened over --stagger seconds (default 40), so every deadline falls within
the same minute, and the deadline burst (N result cards to N candidates, N lead cards) is real.

Time compression: only the exam's length (--limit minutes instead of the paper's hour): a candidate
answers a few questions, not 30. The answers per second the bot sees are those of a real round of
N (unless --think is shortened: then they are more), and the burst is not compressed. For a quick
look while developing: `--candidates 30 --limit 1 --stagger 10`.

The fake Bot API runs here with Telegram's flood limits (sandbox/fakeapi/limits.py: 30 sends/s
overall, 1/s per chat after a burst of 3, 20/min per group; 429 with retry_after above them); the
bot paces itself (bot/pacing.py). Edits and callback answers are not sends (as on Telegram).

Figures: bot-side latency from an update's delivery by getUpdates to the bot's answer on screen
(the edit after a press, the next screen after a typed answer: bench/_exam_driver.py's Probe), p50
and p99, before and during the deadline burst, and p99 of pressed and of typed answers apart (with
the seconds in which the round sent 27 or more messages a second); the burst's length from the first deadline to the
last card delivered, beside Telegram's own bounds for the cards that are messages (each lead's
card, and a candidate's card only where it could not take the exam message's place by an edit): all
of them at 30 a second; the same queue fed at the actual hand-ins; each lead's cards at 1 a second;
2N/30 s, both cards as messages, is printed beside them); the bot process's CPU share of
one core (/proc), resident memory idle and with N attempts running (growth per attempt), the
database's size, the outbox's largest backlog, 429s, and the load average of the machine.

    python bench/bench_hiring.py --candidates 100 [--limit 2] [--leads 5] [--idle 0.1] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _exam_driver import Candidate, Probe  # noqa: E402

from bank.kinds import Kind  # noqa: E402
from bank.models import Paper, PaperSettings, Question, Section  # noqa: E402
from proctor.storage.bootstrap import open_database  # noqa: E402
from sandbox.fakeapi import FakeBotApi, RateLimits  # noqa: E402
from tests.papers_fixture import save_paper  # noqa: E402

TOKEN = "123456:BENCH-fake-token-for-bench-hiring"
BOT = "proctor_bench_bot"
LEAD = 9_000_001
FIRST_ID = 100_000
LINK = re.compile(r"start=(inv_[A-Za-z0-9_-]{22})")
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _env(api: FakeBotApi, leads: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCTOR_") and k != "TELEGRAM_BOT_TOKEN"}
    env.update(PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1", TELEGRAM_BOT_TOKEN=TOKEN,
               PROCTOR_BOT_API_URL=api.base_url, PROCTOR_ADMINS=",".join(str(LEAD + k) for k in range(leads)), PROCTOR_BOT_USERNAME=BOT)
    return env


WRITTEN = "梯度累积是在每次前向传播计算损失后不立即更新参数，而是把若干小批次的梯度累加起来再更新，" * 4


def hiring_paper(limit_min: int) -> Paper:
    """30 questions in ten stretches of two single choices and one typed question (six fill-ins,
    four written): presses and typed answers mixed wherever a candidate is in the paper."""
    sections = []
    for k in range(10):
        sections.append(Section(kind=Kind.single, title=f"Choice {k + 1}", points_each=2, questions=[
            Question(number=j + 1, kind=Kind.single, stem=f"Question {k}.{j}: which is the gradient step?",
                     options=["alpha", "beta", "gamma", "delta"], answer="C", points=2) for j in range(2)]))
        if k % 5 in (1, 3):
            sections.append(Section(kind=Kind.short, title=f"Written {k + 1}", points_each=5, questions=[
                Question(number=1, kind=Kind.short, stem=f"简述梯度累积的原理 ({k})。", answer=WRITTEN, points=5)]))
        else:
            sections.append(Section(kind=Kind.fill, title=f"Fill-in {k + 1}", points_each=1, questions=[
                Question(number=1, kind=Kind.fill, stem=f"梯度累积的步数叫______ ({k})。", answer=[["梯度累积步数"]],
                         points=1)]))
    return Paper(slug="hiring30", title="Hiring round (30 questions)",
                 settings=PaperSettings(time_limit_min=limit_min), sections=sections)


async def _save(db_path: Path, paper: Paper) -> int:
    db = await open_database(db_path)
    try:
        return await save_paper(db, paper, time.time())
    finally:
        await db.close()


def _cli(db: Path | str, env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "bot.cli", "--db", str(db), *args], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    if done.returncode:
        raise SystemExit(f"proctor {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def _own_cpu() -> float:
    """This process's CPU seconds so far (the fake Bot API and the simulated people)."""
    t = os.times()
    return t.user + t.system


def _rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 1e6


def _rows(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def _open(c: Candidate, payload: str) -> None:
    """The link, then Start: the first question on screen."""
    await c.user.send(f"/start {payload}")
    welcome = await c.probe.until(c.chat_id, lambda: next(
        (m for m in reversed(c.user.chat()) if m.from_bot and "▶️ Start" in m.button_texts), None), timeout=600)
    await c.user.press(welcome, "▶️ Start")
    await c.probe.until(c.chat_id, c.screen, timeout=600)


async def _take(c: Candidate, deadlines: dict[int, float], idle: bool, rng: random.Random,
                think: tuple[float, float], stuck: list[int]) -> None:
    """Answers one question every `think` seconds until shortly before the deadline (an idle one:
    none); an answer not shown within the driver's 60 s counts as stuck, and that candidate gives up.
    `deadlines` is filled in once every link is open (well before the first deadline)."""
    while not idle:
        await asyncio.sleep(rng.uniform(*think))
        if time.time() > deadlines.get(c.chat_id, math.inf) - 1.5:
            return
        screen = c.screen()
        written = screen is not None and "简述" in (screen.text or "")
        try:
            await c.answer(WRITTEN if written else None)
        except TimeoutError:
            stuck.append(c.chat_id)
            return


def _card_in_place(api: FakeBotApi, user: int, screen: int | None) -> bool:
    """Whether the candidate's result card took the exam message's place (an edit), not a message of its own."""
    return any(m.message_id == screen and m.from_bot and (m.text or "").startswith("🏁") for m in api.chat_view(user))


def ideal_finish(arrivals: list[float], rate: float) -> float:
    """When a queue sending `rate` a second, fed at `arrivals`, would send its last message."""
    at = -math.inf
    for arrival in sorted(arrivals):
        at = max(at, arrival) + 1 / rate
    return at


def invite_links(record: Path | str, env: dict[str, str], api: FakeBotApi, paper: str, n: int, leads: int,
                 rng: random.Random) -> list[str]:
    """`n` invite links to `paper` made through `proctor invite create`, shared among `leads` leads (each a
    user of the fake Telegram), shuffled."""
    payloads: list[str] = []
    for k in range(leads):
        share = n // leads + (k < n % leads)
        while share > 0:
            out = _cli(record, env, "invite", "create", "--paper", paper, "--count", str(min(500, share)),
                       "--bot", BOT, "--lead", str(LEAD + k), "--window", "3h")
            payloads += LINK.findall(out)
            share -= 500
        api.user(LEAD + k, f"Lead {k}", language_code="en")
    rng.shuffle(payloads)
    return payloads


async def run(n: int, limit_min: int, idle_share: float, seed: int, leads: int, stagger: float,
              think: tuple[float, float], pin: bool = False, dump: Path | None = None,
              lockstep: bool = False) -> dict:
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="bench-hiring-"))
    db = tmp / "proctor.db"
    api = FakeBotApi(TOKEN, bot_username=BOT, rate_limits=RateLimits())
    await api.start()
    env = _env(api, leads)
    paper = f"P{await _save(db, hiring_paper(limit_min))}"  # a new database, migrated, with the paper
    payloads = invite_links(db, env, api, paper, n, leads, rng)
    with Probe() as probe, (tmp / "bot.log").open("w") as log:
        # --pin: the bot on core 0, this process (the fake Telegram and the N people) on core 1, as in
        # production, where neither Telegram nor the candidates' phones share the bot's machine
        cores = sorted(os.sched_getaffinity(0))
        pinned = pin and len(cores) >= 2
        bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "--db", str(db), "run",
                                                   env=env, cwd=tmp, stdout=subprocess.DEVNULL,
                                                   stderr=log,  # a file: an unread pipe would fill and stall the bot
                                                   preexec_fn=(lambda: os.sched_setaffinity(0, cores[:1])) if pinned else None)
        if pinned:
            os.sched_setaffinity(0, cores[1:])
        try:
            return await _round(api, probe, bot.pid, db, n, payloads, idle_share, rng, leads, stagger, think,
                                dump, lockstep) | {"pinned": pinned, "lockstep": lockstep}
        finally:
            bot.terminate()
            await bot.wait()
            await api.stop()
            if pinned:
                os.sched_setaffinity(0, cores)


async def _round(api: FakeBotApi, probe: Probe, pid: int, db: Path, n: int, payloads: list[str],
                 idle_share: float, rng: random.Random, leads: int, stagger: float,
                 think: tuple[float, float], dump: Path | None = None, lockstep: bool = False) -> dict:
    load_before = os.getloadavg()
    candidates = [Candidate(api, probe, FIRST_ID + i) for i in range(n)]
    warm = candidates[0]
    await _open(warm, payloads[0])  # the bot is up and has served one candidate's start and answer
    await warm.answer()
    await asyncio.sleep(2)
    rss_idle = _rss_mb(pid)
    cpu0, wall0 = _cpu(pid), time.monotonic()
    backlog = [0]
    sampling = True

    timeline: list[tuple[float, float, int, int]] = []  # (wall clock, bot CPU s, messages sent, outbox pending)

    async def sample() -> None:
        while sampling:
            pending = _rows(db, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'")[0][0]
            backlog[0] = max(backlog[0], pending)
            timeline.append((time.time(), _cpu(pid), api.stats.sent, pending))
            await asyncio.sleep(0.5)

    # this process's own event-loop lag: the latency figures are stamped here (the fake server's
    # handlers), so a busy simulation shows up in them; this says how much
    lags: list[tuple[float, float]] = []  # (wall clock, how late a 10 ms sleep woke)

    async def lag_probe() -> None:
        while sampling:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((time.time(), time.perf_counter() - t - 0.01))

    sampler = asyncio.gather(sample(), lag_probe())
    own0 = _own_cpu()
    measured = len(probe.presses)  # the warm-up's answer is not counted
    opened = time.monotonic()
    idle = set(rng.sample(range(n), round(n * idle_share)))
    stuck: list[int] = []
    deadlines: dict[int, float] = {}
    all_open, to_open = asyncio.Event(), [n - 1]

    async def person(i: int, c: Candidate, payload: str) -> None:
        """Opens the link (the warm-up candidate has), presses Start, then answers at a person's pace
        from that moment on: each one's clock runs from their own Start. With --lockstep everyone
        waits for the last link to open and then starts answering at once (the worst case: the
        paper's typed questions come up for everyone together)."""
        if i:
            await asyncio.sleep(stagger * (i - 1) / n)  # links opened over `stagger` s: deadlines in one minute
            await _open(c, payload)
            to_open[0] -= 1
            if not to_open[0]:
                all_open.set()
        if lockstep:
            await all_open.wait()
        await _take(c, deadlines, i in idle, rng, think, stuck)

    if n == 1:
        all_open.set()
    answering = asyncio.ensure_future(asyncio.gather(*(person(i, c, p) for i, (c, p)
                                                       in enumerate(zip(candidates, payloads, strict=True)))))
    await all_open.wait()
    opening = time.monotonic() - opened
    [(first_deadline, last_deadline)] = _rows(db, "SELECT MIN(deadline), MAX(deadline) FROM attempts WHERE status = 'running'")
    deadlines.update(_rows(db, "SELECT user_id, deadline FROM attempts WHERE status = 'running'"))
    await asyncio.sleep(max(0.0, first_deadline - time.time() - 4))
    rss_running = _rss_mb(pid)
    running = _rows(db, "SELECT COUNT(*) FROM attempts WHERE status = 'running'")[0][0]
    await answering
    lead_cards = 0
    burst_started = time.monotonic()
    while lead_cards < n or _rows(db, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'")[0][0]:
        lead_cards = sum(len(api.stats.per_chat.get(LEAD + k, [])) for k in range(leads))
        if time.monotonic() - burst_started > 60 + 2.5 * n / leads:
            break
        await asyncio.sleep(0.5)
    sampling = False
    await sampler
    cpu, wall, own = _cpu(pid) - cpu0, time.monotonic() - wall0, _own_cpu() - own0
    outbox = _rows(db, "SELECT kind, COUNT(*), MIN(created_at), MAX(done_at), SUM(state = 'pending') "
                       "FROM outbox GROUP BY kind")
    answered = [p for p in probe.presses[measured:] if p.bot_side is not None]
    in_burst = [p for p in answered if p.delivered is not None
                and p.delivered >= time.perf_counter() - (time.time() - first_deadline)]
    last_done = max((row[3] or 0) for row in outbox) if outbox else first_deadline
    if dump is not None:  # each answer on the wall clock, for a look at when the slow ones came
        on_wall = time.time() - time.perf_counter()
        dump.write_text("delivered_s,typed,latency_ms\n" + "".join(
            f"{p.delivered + on_wall - first_deadline:.3f},{int(not p.callback_id)},{p.bot_side * 1000:.1f}\n"
            for p in answered if p.delivered is not None and p.bot_side is not None))
        # and every half second: the bot's share of a core, the messages sent a second, the outbox's backlog
        dump.with_suffix(".timeline.csv").write_text("at_s,bot_cpu_share,sent_per_s,outbox_pending\n" + "".join(
            f"{b[0] - first_deadline:.1f},{(b[1] - a[1]) / (b[0] - a[0]):.2f},{(b[2] - a[2]) / (b[0] - a[0]):.1f},{b[3]}\n"
            for a, b in zip(timeline, timeline[1:], strict=False)))
    # Telegram's own bound for these cards: every card that is a message of its own (each lead's card;
    # a candidate's card only where it did not take the exam message's place, since an edit is not one
    # of the 30 messages a second), sent from its hand-in on at 30 a second overall, and each lead's
    # at 1 a second
    ends = _rows(db, "SELECT a.finished_at, i.created_by, a.user_id, a.message_id FROM attempts a "
                     "JOIN invites i ON i.id = a.invite_id WHERE a.status = 'finished'")
    posted = [at for at, _, user, screen in ends if not _card_in_place(api, user, screen)]
    messages = [at for at, *_ in ends] + posted
    bound_queue = ideal_finish(messages, 30) - first_deadline
    bound_leads = max(ideal_finish([at for at, lead, *_ in ends if lead == LEAD + k], 1) for k in range(leads)) - first_deadline
    bound = max(bound_queue, bound_leads, len(messages) / 30)
    # every message sent during the burst (cards and the replies to those still answering), on the
    # fake server's clock (monotonic): how much of Telegram's 30 a second the burst used
    offset = time.monotonic() - time.time()
    sent_in_burst = sum(first_deadline + offset <= t <= last_done + offset
                        for times in api.stats.per_chat.values() for t in times)
    size = sum(f.stat().st_size for f in db.parent.glob(db.name + "*"))
    return {
        "candidates": n, "idle": len(idle), "opening_s": round(opening, 1),
        "deadline_spread_s": round(last_deadline - first_deadline, 1), "running_at_deadline": running,
        "answers": len(answered), "p50_ms": round(_pct([p.bot_side for p in answered], 0.5), 1),
        "p99_ms": round(_pct([p.bot_side for p in answered], 0.99), 1),
        "max_ms": round(max((p.bot_side for p in answered), default=float("nan")) * 1000, 1),
        "answers_in_burst": len(in_burst), "p99_in_burst_ms": round(_pct([p.bot_side for p in in_burst], 0.99), 1),
        "p99_before_burst_ms": round(_pct([p.bot_side for p in answered if p not in in_burst], 0.99), 1),
        # a press is answered by an edit, a typed answer by a message (the next question), which waits
        # for Telegram's budget when the round's sends approach 30 a second
        "p99_pressed_ms": round(_pct([p.bot_side for p in answered if p.callback_id], 0.99), 1),
        "p99_typed_ms": round(_pct([p.bot_side for p in answered if not p.callback_id], 0.99), 1),
        "seconds_at_27_sends_per_s": sum(0.5 for a, b in zip(timeline, timeline[1:], strict=False)
                                         if (b[2] - a[2]) / (b[0] - a[0]) >= 27),
        "answers_over_1s": sum(p.bot_side > 1 for p in answered), "answers_not_shown_in_60s": len(stuck),
        "burst_s": round(last_done - first_deadline, 1), "after_last_deadline_s": round(last_done - last_deadline, 1),
        "leads": leads, "candidate_cards_in_place": len(ends) - len(posted), "card_messages": len(messages),
        "bound_2n_over_30_s": round(2 * n / 30, 1), "bound_cards_over_30_s": round(len(messages) / 30, 1),
        "bound_queue_at_deadlines_s": round(bound_queue, 1),
        "bound_lead_chats_s": round(bound_leads, 1), "burst_over_bound": round((last_done - first_deadline) / bound, 2),
        "sent_in_burst": sent_in_burst, "budget_used_in_burst": round(sent_in_burst / (30 * max(1e-9, last_done - first_deadline)), 2),
        "lead_cards": lead_cards, "outbox": outbox and [(k, c, int(p or 0)) for k, c, _, _, p in outbox],
        "outbox_backlog_max": backlog[0], "http_429": api.stats.rejected,
        "bench_lag_p99_before_ms": round(_pct([lag for at, lag in lags if at < first_deadline], 0.99), 1),
        "bench_lag_p99_burst_ms": round(_pct([lag for at, lag in lags if at >= first_deadline], 0.99), 1),
        "bench_cpu_share": round(own / wall, 3),
        "cpu_share": round(cpu / wall, 3), "rss_idle_mb": round(rss_idle, 1), "rss_running_mb": round(rss_running, 1),
        "rss_growth_kb_per_attempt": round((rss_running - rss_idle) * 1000 / max(1, running), 1),
        "db_mb": round(size / 1e6, 2), "load_avg_before": load_before, "load_avg_after": os.getloadavg(),
        "mean_latency_ms": round(statistics.fmean([p.bot_side for p in answered]) * 1000, 1) if answered else None,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--candidates", type=int, default=100)
    p.add_argument("--limit", type=int, default=2, help="the paper's time limit in minutes")
    p.add_argument("--idle", type=float, default=0.1, help="share of candidates who answer nothing")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--leads", type=int, help="the invites are split among this many leads (default: one per 20)")
    p.add_argument("--stagger", type=float, default=40.0, help="seconds over which the links are opened")
    p.add_argument("--think", type=float, nargs=2, default=(5.0, 30.0), metavar=("MIN", "MAX"),
                   help="seconds between a candidate's answers (uniform; default 5 30, a person's pace)")
    p.add_argument("--dump", type=Path, metavar="FILE",
                   help="write every measured answer as a CSV row: delivered (s from the first deadline), typed (0/1), latency_ms")
    p.add_argument("--pin", action="store_true",
                   help="the bot on one core, this process (fake Telegram, the people) on the other")
    p.add_argument("--lockstep", action="store_true",
                   help="everyone starts answering at once, after the last link opens (the worst case)")
    args = p.parse_args()
    leads = args.leads or max(1, math.ceil(args.candidates / 20))
    result = asyncio.run(run(args.candidates, args.limit, args.idle, args.seed, leads, args.stagger, tuple(args.think), args.pin,
                             args.dump, args.lockstep))
    for key, value in result.items():
        print(f"{key:>28}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
