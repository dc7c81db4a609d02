"""Ratings: whether they rank people by ability, against points and %-correct, and what they cost.

    python bench/bench_ratings.py [--seeds 7] [--people 400] [--questions 1000] [--days 120]
    python bench/bench_ratings.py --accuracy      # the simulated population only
    python bench/bench_ratings.py --cost          # the costs only

The population (its own model, not the rule's): people of known ability θ ~ N(0, 1) and questions of
known difficulty b, discrimination a (log-normal) and kind. A person answers right with probability
c + (1 - c) / (1 + exp(-1.7 a (θ - b))), where c is a guessing floor (1/4 on a single choice of four,
1/2 on true/false); a multiple choice and a written answer earn partial credit (a binomial share of 4
parts). Each person has a target of 5 to 250 first answers (log-uniform, weakly tied to ability) and
gets them from whole papers of 40 questions (10%), the group's daily quiz (5 questions a day, the same
for everyone who comes), and practice: for 60% of the people picked near their level (about 70%
right: a bot that picks adaptively), for the rest drawn at random. Half the questions a person sees
come back later, 1 to 3 times (spaced repetition), and a repeat is answered partly from memory
(p -> (1 + p) / 2): points and %-correct count every answer, ratings only first answers. Authors label
questions 易/中/难 from a noisy view of b (a tenth unlabelled); points follow the kind.

Measured for the people with at least 20 first answers, on each seed's population (Spearman's rank
correlation with the true ability, and how many of the true top ten each ranking's top ten holds),
reported as medians over the seeds, with the median of each seed's shortfall against the oracle:
- oracle: each person's estimate given the true question parameters (the posterior mean of θ under
  the true model, from their first answers): the best any ranking can do;
- the bot's rule (proctor/ratings/rule.py, folded by proctor/ratings/replay.py): each person's rating
  read from their answers against the questions as they end; beside it the running means alone
  (Glicko with the guessing floor, never read again), and the rules it was chosen over: Elo with a
  decaying step, Glicko-2 (one answer a rating period), and a Rasch fit with the guessing floor
  recalibrated over every answer at the end (what periodic recalibration gives at best);
- points (the boards today) and %-correct.
Targets (issue 38), on the median shortfall: the rule's Spearman within 0.03 of the oracle's, and at
most one fewer of the true top ten in its top ten.

Costs, in this process (CPU time): the ratings-on minus ratings-off CPU per scored answer, inside the
answer's transaction on a real migrated database holding 100,000 events (a practice answer's step, and
an exam's hand-in per answer; off: the same step with the hook replaced by a no-op); replaying 100,000
answers from a CSV log as `proctor ratings replay` does; folding the record again (what a key fix, an
upheld dispute's regrade or /forgetme costs). Targets: <= 0.2 ms per answer; replay <= 5 s.
numpy is used for the population and the reference fits only; the bot's rule is plain Python.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank.kinds import Kind  # noqa: E402
from proctor.exams import rated as exam_rated  # noqa: E402
from proctor.exams import service as attempts  # noqa: E402
from proctor.exams import steps  # noqa: E402
from proctor.exams.states import AttemptMode, FinishReason  # noqa: E402
from proctor.ratings import events, replay, rule  # noqa: E402
from proctor.ratings.replay import Answer, Start  # noqa: E402
from proctor.storage.bootstrap import ensure_default_bank, open_database  # noqa: E402

DAY = 86400.0
KINDS = [  # kind, guessing floor, partial credit, share of the bank, points
    (Kind.single, 0.25, False, 0.35, 2.0), (Kind.multi, 0.0, True, 0.2, 2.0), (Kind.truefalse, 0.5, False, 0.2, 1.0),
    (Kind.fill, 0.0, False, 0.15, 1.0), (Kind.short, 0.0, True, 0.1, 5.0)]


@dataclass
class World:
    theta: np.ndarray  # people's true abilities
    b: np.ndarray  # questions' true difficulties, discriminations, guessing floors
    a: np.ndarray
    c: np.ndarray
    kind: list[Kind]
    label: list[str]  # the author's label
    points: np.ndarray
    log: list[tuple[float, int, int, float, bool]]  # (at, person, question, correct, first), in time order


def simulate(seed: int, people: int, questions: int, days: int) -> World:
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, people)
    kinds = rng.choice(len(KINDS), questions, p=[k[3] for k in KINDS])
    b = rng.normal(0, 1.1, questions)
    a = np.exp(rng.normal(0, 0.35, questions))
    c = np.array([KINDS[k][1] for k in kinds])
    partial = np.array([KINDS[k][2] for k in kinds])
    seen_b = b + rng.normal(0, 0.7, questions)
    label = ["易" if x < -0.5 else "难" if x > 0.5 else "中" for x in seen_b]
    for i in rng.choice(questions, questions // 10, replace=False):
        label[i] = ""
    points = np.array([KINDS[k][4] for k in kinds])
    papers = [np.arange(i, min(i + 40, questions)) for i in range(0, questions, 40)]
    order = np.argsort(b)

    def answer(u: int, q: int, repeat: bool) -> float:
        p = c[q] + (1 - c[q]) / (1 + math.exp(-1.7 * a[q] * (theta[u] - b[q])))
        if repeat:  # partly from memory
            p = 0.5 + 0.5 * p
        if partial[q]:
            return float(rng.binomial(4, p)) / 4
        return float(rng.random() < p)

    z = 0.3 * theta / theta.std() + rng.normal(0, 1, people)  # activity, weakly tied to ability
    rank = np.argsort(np.argsort(z)) / (people - 1)
    target = np.round(np.exp(np.log(5) + rank * (np.log(250) - np.log(5)))).astype(int)
    adaptive = rng.random(people) < 0.6
    log: list[tuple[float, int, int, float, bool]] = []
    seen: list[set[int]] = [set() for _ in range(people)]

    def add(t: float, u: int, q: int) -> None:
        first = q not in seen[u]
        seen[u].add(q)
        log.append((t, u, q, answer(u, q, not first), first))
        if first and rng.random() < 0.5:  # spaced repetition brings it back, 1 to 3 times
            for k in range(int(rng.integers(1, 4))):
                log.append((t + (k + 1) * 3 * DAY * rng.random(), u, q, answer(u, q, True), False))

    come = np.clip(target / 1000, 0.005, 0.25)  # the group's daily quiz
    for d in range(days):
        today = rng.choice(questions, 5, replace=False)
        for u in range(people):
            if len(seen[u]) < target[u] and rng.random() < come[u]:
                for q in today:
                    add(d * DAY + 9 * 3600 + rng.random() * 3600, u, int(q))
    for u in range(people):
        start = rng.random() * days * 0.5
        while len(seen[u]) < target[u]:
            left = target[u] - len(seen[u])
            t = (start + rng.random() * days * 0.5) * DAY
            if rng.random() < 0.1 and left >= 20:  # a whole paper
                for q in papers[int(rng.integers(len(papers)))]:
                    add(t, u, int(q))
                    t += 30
            elif adaptive[u]:  # practice picked near their level: right about 70% of the time
                want = theta[u] + rng.normal(0, 0.3) - 0.6
                at = int(np.searchsorted(b[order], want))
                near = [int(q) for q in order[max(0, at - 30):at + 30] if int(q) not in seen[u]]
                near = near or [int(q) for q in rng.choice(questions, 10)]
                for q in rng.choice(near, min(10, left, len(near)), replace=False):
                    add(t, u, int(q))
                    t += 40
            else:  # practice drawn at random
                for q in rng.choice(questions, min(10, left), replace=False):
                    add(t, u, int(q))
                    t += 40
    log.sort(key=lambda r: r[0])
    return World(theta, b, a, c, [KINDS[k][0] for k in kinds], label, points, log)


# ---- the rankings ----------------------------------------------------------------------------------

def _usual(w: World) -> Callable[[int], Start]:
    """Each question's start as the bot makes it: its label's prior (or its points'), its kind's floor."""
    means = {k: float(np.mean([p for p, kk in zip(w.points, w.kind, strict=True) if kk == k])) for k in set(w.kind)}
    options = {Kind.single: 4, Kind.multi: 4}
    return lambda q: Start(rule.question_prior(w.label[q], float(w.points[q]), means[w.kind[q]]),
                           rule.guess_floor(w.kind[q], options.get(w.kind[q], 0)))


def ours(w: World) -> tuple[dict[int, float], float]:
    """The bot's rule: people's ratings (their answers read against the questions as they end), and
    the CPU per answer of the fold and the readings."""
    answers = [Answer(u, q, x, t) for t, u, q, x, first in w.log if first]
    began = time.process_time()
    folded = replay.replay(answers, _usual(w))
    shown = {u: folded.ability(u) for u in folded.people}
    return shown, (time.process_time() - began) / len(answers)


def running(w: World) -> dict[int, float]:
    """The bot's rule's running means alone (what each answer moved, never read again): Glicko with the floor."""
    folded = replay.replay([Answer(u, q, x, t) for t, u, q, x, first in w.log if first], _usual(w))
    return {u: r.mean for u, r in folded.people.items()}


def elo(w: World, k0: float = 0.8, half: float = 10.0) -> dict[int, float]:
    """Elo with a decaying step: K = k0 / (1 + n / half) on each side, questions from their label's prior."""
    start = _usual(w)
    people: dict[int, tuple[float, int]] = {}
    items: dict[int, tuple[float, int]] = {}
    for _t, u, q, x, first in w.log:
        if not first:
            continue
        th, n = people.get(u, (0.0, 0))
        be, m = items.get(q, (start(q).prior.mean, 0))
        surprise = x - 1 / (1 + math.exp(be - th))
        people[u] = (th + k0 / (1 + n / half) * surprise, n + 1)
        items[q] = (be - k0 / (1 + m / half) * surprise, m + 1)
    return {u: v[0] for u, v in people.items()}


def _glicko2_game(mu: float, phi: float, sigma: float, mu_j: float, phi_j: float, s: float,
                  tau: float = 0.5) -> tuple[float, float, float]:
    """Glickman's Glicko-2 (2013) for one rating period holding one game."""
    g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (s - e)
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2

    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:
        mid = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_mid = f(mid)
        if f_mid * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2
        hi, f_hi = mid, f_mid
    sigma2 = math.exp(lo / 2)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    return mu + phi2 ** 2 * g * (s - e), phi2, sigma2


def glicko2(w: World) -> tuple[dict[int, float], float]:
    """Glicko-2, one answer a rating period, both sides (as puzzle trainers rate players and puzzles):
    people's means, and the share of answers after which the answering person's deviation grew."""
    start = _usual(w)
    phi0 = 350 / rule.SCALE
    people: dict[int, tuple[float, float, float]] = {}
    items: dict[int, tuple[float, float, float]] = {}
    grew = n = 0
    for _t, u, q, x, first in w.log:
        if not first:
            continue
        p = people.get(u, (0.0, phi0, 0.06))
        i = items.get(q, (start(q).prior.mean, phi0, 0.06))
        people[u] = _glicko2_game(p[0], p[1], p[2], i[0], i[1], x)
        nq = _glicko2_game(-i[0], i[1], i[2], -p[0], p[1], x)  # the question plays the other side
        items[q] = (-nq[0], nq[1], nq[2])
        grew += people[u][1] > p[1]
        n += 1
    return {u: v[0] for u, v in people.items()}, grew / n


def rasch_refit(w: World, sweeps: int = 30) -> dict[int, float]:
    """A Rasch fit with the guessing floor over every first answer at once (alternating Newton steps
    on people and questions, the bot's priors): what a periodic recalibration gives at its best."""
    firsts = [(u, q, x) for _t, u, q, x, first in w.log if first]
    start = _usual(w)
    users = sorted({u for u, _, _ in firsts})
    qs = sorted({q for _, q, _ in firsts})
    ui, qi = {u: i for i, u in enumerate(users)}, {q: i for i, q in enumerate(qs)}
    U = np.array([ui[u] for u, _, _ in firsts])
    Q = np.array([qi[q] for _, q, _ in firsts])
    X = np.array([x for _, _, x in firsts])
    C = np.array([start(q).floor for q in qs])[Q]
    th = np.zeros(len(users))
    prior = np.array([start(q).prior.mean for q in qs])
    be = prior.copy()
    for _ in range(sweeps):
        for side in (0, 1):
            s = 1 / (1 + np.exp(be[Q] - th[U]))
            e = C + (1 - C) * s
            de = (1 - C) * s * (1 - s)
            grad, info = de * (X - e) / (e * (1 - e)), de * de / (e * (1 - e))
            if side == 0:
                th += ((np.bincount(U, grad, len(users)) - th / rule.PERSON_PRIOR ** 2)
                       / (np.bincount(U, info, len(users)) + 1 / rule.PERSON_PRIOR ** 2))
            else:
                be += ((-np.bincount(Q, grad, len(qs)) - (be - prior) / rule.QUESTION_PRIOR ** 2)
                       / (np.bincount(Q, info, len(qs)) + 1 / rule.QUESTION_PRIOR ** 2))
    return {u: float(th[ui[u]]) for u in users}


def oracle(w: World, users: set[int]) -> dict[int, float]:
    """Each person's posterior mean ability given the true question parameters and model."""
    grid = np.linspace(-4, 4, 161)
    ll = {u: -0.5 * grid ** 2 for u in users}
    for _t, u, q, x, first in w.log:
        if first and u in ll:
            p = w.c[q] + (1 - w.c[q]) / (1 + np.exp(-1.7 * w.a[q] * (grid - w.b[q])))
            ll[u] = ll[u] + x * np.log(p) + (1 - x) * np.log(1 - p)
    out = {}
    for u, lik in ll.items():
        post = np.exp(lik - lik.max())
        out[u] = float((post * grid).sum() / post.sum())
    return out


def spearman(est: dict[int, float], truth: dict[int, float]) -> float:
    users = sorted(truth)
    rx = np.argsort(np.argsort([est[u] for u in users])).astype(float)
    ry = np.argsort(np.argsort([truth[u] for u in users])).astype(float)
    return float(np.corrcoef(rx, ry)[0, 1])


def top_ten(est: dict[int, float], truth: dict[int, float]) -> int:
    users = sorted(truth)
    return len(set(sorted(users, key=lambda u: -est[u])[:10]) & set(sorted(users, key=lambda u: -truth[u])[:10]))


def accuracy(seeds: int, people: int, questions: int, days: int) -> bool:
    names = ["oracle", "rating (ours)", "running means", "Elo, decaying step", "Glicko-2", "Rasch, recalibrated",
             "points", "%-correct"]
    rho: dict[str, list[float]] = {n: [] for n in names}
    top: dict[str, list[int]] = {n: [] for n in names}
    grew, fold_us = [], []
    for seed in range(seeds):
        w = simulate(seed, people, questions, days)
        firsts: dict[int, int] = {}
        points: dict[int, float] = {}
        right: dict[int, list[float]] = {}
        for _t, u, q, x, first in w.log:
            firsts[u] = firsts.get(u, 0) + first
            points[u] = points.get(u, 0.0) + x * float(w.points[q])
            right.setdefault(u, []).append(x)
        truth = {u: float(w.theta[u]) for u, n in firsts.items() if n >= 20}
        mine, per_answer = ours(w)
        g2, share = glicko2(w)
        grew.append(share)
        fold_us.append(per_answer * 1e6)
        found = {"oracle": oracle(w, set(truth)), "rating (ours)": mine, "running means": running(w),
                 "Elo, decaying step": elo(w),
                 "Glicko-2": g2, "Rasch, recalibrated": rasch_refit(w), "points": points,
                 "%-correct": {u: sum(v) / len(v) for u, v in right.items()}}
        for n in names:
            rho[n].append(spearman(found[n], truth))
            top[n].append(top_ten(found[n], truth))
        print(f"seed {seed}: {len(truth)} people with >= 20 first answers, "
              f"{sum(1 for r in w.log if r[4])} first answers of {len(w.log)}; "
              f"oracle {rho['oracle'][-1]:.3f}, ours {rho['rating (ours)'][-1]:.3f}")
    print(f"\nmedians over {seeds} seeds ({people} people, {questions} questions, {days} days); "
          "'behind': the median of each seed's difference from the oracle")
    print(f"{'ranking':22s} {'Spearman':>9s} {'behind':>8s} {'top ten':>8s} {'behind':>7s}")
    behind = {n: statistics.median(o - r for o, r in zip(rho["oracle"], rho[n], strict=True)) for n in names}
    fewer = {n: statistics.median(o - t for o, t in zip(top["oracle"], top[n], strict=True)) for n in names}
    for n in names:
        print(f"{n:22s} {statistics.median(rho[n]):9.3f} {behind[n]:8.3f} {statistics.median(top[n]):8.1f} "
              f"{fewer[n]:7.1f}")
    print(f"Glicko-2: the answering person's deviation grew after {100 * statistics.median(grew):.1f}% of answers "
          "(volatility, one answer a period); ours never grows with an answer (tests/proctor/test_ratings_rule.py)")
    print(f"the rule's fold and every person's rating read: {statistics.median(fold_us):.1f} us of CPU per answer")
    ok_rho = behind["rating (ours)"] <= 0.03
    ok_top = fewer["rating (ours)"] <= 1
    print(f"targets: Spearman within 0.03 of the oracle's: {'PASS' if ok_rho else 'FAIL'}; "
          f"at most one fewer of the true top ten: {'PASS' if ok_top else 'FAIL'}")
    return ok_rho and ok_top


# ---- the costs -------------------------------------------------------------------------------------

def replay_cost(n: int = 100_000) -> tuple[float, float, float]:
    """Seconds to replay a CSV log of `n` answers: the CPU of reading it, folding it and writing both
    outputs in this process; and the CPU and the wall time of `proctor ratings replay` as a command
    (its start and imports included)."""
    rnd = random.Random(1)
    lines = ["user,item,correct,at,label"] + [
        f"u{rnd.randrange(2000)},q{rnd.randrange(3000)},{rnd.choice((0, 1, 1, 0.5))},{1.7e9 + i * 7},x"
        for i in range(n)]
    text = "\n".join(lines) + "\n"
    began = time.process_time()
    log = replay.read_log(text)
    folded = replay.replay(log)
    replay.people_csv(folded, log[-1].at)
    replay.items_csv(folded)
    cpu = time.process_time() - began
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.csv"
        path.write_text(text, encoding="utf-8")
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bot.cli", "ratings", "replay", str(path), "--out", str(Path(tmp) / "r.csv"),
                        "--items", str(Path(tmp) / "i.csv")], check=True, capture_output=True,
                       cwd=Path(__file__).resolve().parents[1])
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return cpu, command, wall


async def answer_cost(rounds: int = 9, per_round: int = 300) -> tuple[list[float], list[float], list[float], float]:
    """CPU per scored answer, ratings on minus off: a practice answer's step (ms each), an exam's
    hand-in per answer (ms); the practice step's own CPU with ratings off (ms); and the seconds to fold
    the record of 100,000 events again."""
    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(Path(tmp) / "bench.db")
        try:
            await ensure_default_bank(db, 1.7e9)
            await db.run_write(_history_in)  # 100,000 events, folded
            paper = await db.scalar("SELECT id FROM papers WHERE NOT exam_only ORDER BY id LIMIT 1")
            practice, hand_in, steps_off = [], [], []
            user = 10_000
            for r in range(rounds):
                on = {}
                for hook_on in ((True, False) if r % 2 == 0 else (False, True)):
                    steps.practised_in = _PRACTISED if hook_on else _no_hook  # type: ignore[assignment]
                    exam_rated.handed_in_in = _HANDED_IN if hook_on else _no_hook  # type: ignore[assignment]
                    cpu = answers = 0.0
                    exam_cpu = exam_answers = 0.0
                    while answers < per_round:
                        user += 1
                        c, n = await _practice(db, user, paper)
                        cpu, answers = cpu + c, answers + n
                    for _ in range(max(1, per_round // 40)):
                        user += 1
                        c, n = await _exam(db, user, paper)
                        exam_cpu, exam_answers = exam_cpu + c, exam_answers + n
                    on[hook_on] = (cpu / answers, exam_cpu / exam_answers)
                practice.append((on[True][0] - on[False][0]) * 1e3)
                steps_off.append(on[False][0] * 1e3)
                hand_in.append((on[True][1] - on[False][1]) * 1e3)
            began = time.process_time()
            await db.run_write(events.refold_in)
            refold = time.process_time() - began
        finally:
            steps.practised_in = _PRACTISED  # type: ignore[assignment]
            exam_rated.handed_in_in = _HANDED_IN  # type: ignore[assignment]
            await db.close()
    return practice, hand_in, steps_off, refold


_PRACTISED, _HANDED_IN = exam_rated.practised_in, exam_rated.handed_in_in  # the hooks, ratings on


def _no_hook(*args: object) -> None:
    """Ratings off: the hook's call, doing nothing."""


def _history_in(conn) -> None:
    """100,000 first answers of 2,000 people already counted (the questions of the bundled bank), folded."""
    rnd = random.Random(2)
    qids = [r[0] for r in conn.execute("SELECT id FROM questions")]
    conn.executemany("INSERT INTO users (id, first_name, created_at) VALUES (?, ?, 0)",
                     [(u, f"p{u}") for u in range(1, 2001)])
    pairs = set()
    while len(pairs) < min(100_000, 2000 * len(qids)):
        pairs.add((rnd.randrange(1, 2001), rnd.choice(qids)))
    conn.executemany("INSERT INTO rating_events (user_id, question_id, correct, at, source, ref_id, ref_pos) "
                     "VALUES (?, ?, ?, ?, 'practice', 0, 0)",
                     [(u, q, rnd.choice((0.0, 1.0)), 1.6e9 + i) for i, (u, q) in enumerate(sorted(pairs))])
    events.refold_in(conn)


async def _practice(db, user: int, paper: int) -> tuple[float, int]:
    """A new person's practice, every question answered once: CPU of the answer steps, answers."""
    await db.run_write(lambda conn: conn.execute("INSERT INTO users (id, first_name, created_at) VALUES (?, 'x', 0)",
                                                 (user,)))
    a = await attempts.start_attempt(db, user_id=user, chat_id=user, paper_id=paper, mode=AttemptMode.practice,
                                     now=1.7e9, shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    cpu = 0.0
    n = 0
    for item in sheet.items:
        q = sheet.question(item)
        if q.kind not in (Kind.single, Kind.truefalse):
            continue
        arg = "t" if q.kind == Kind.truefalse else "0"
        if item.pos != 0:
            await attempts.move_to(db, a.id, item.pos, 1.7e9)
        began = time.process_time()
        await steps.take_step(db, a.id, user, steps.Action.answer, item.pos, arg, 1.7e9 + item.pos)
        cpu += time.process_time() - began
        n += 1
    return cpu, n


async def _exam(db, user: int, paper: int) -> tuple[float, int]:
    """A new person's exam, every choice question answered, then handed in: CPU of the hand-in, answers."""
    await db.run_write(lambda conn: conn.execute("INSERT INTO users (id, first_name, created_at) VALUES (?, 'x', 0)",
                                                 (user,)))
    a = await attempts.start_attempt(db, user_id=user, chat_id=user, paper_id=paper, mode=AttemptMode.exam,
                                     now=1.7e9, shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    n = 0
    for item in sheet.items:
        q = sheet.question(item)
        if q.kind in (Kind.single, Kind.truefalse):
            await steps.take_step(db, a.id, user, steps.Action.answer, item.pos,
                                  "t" if q.kind == Kind.truefalse else "0", 1.7e9 + item.pos)
            n += 1
        else:
            await steps.take_step(db, a.id, user, steps.Action.next, item.pos, None, 1.7e9 + item.pos)
    began = time.process_time()
    await attempts.finish_attempt(db, a.id, 1.7e9 + 3600, FinishReason.submitted)
    return time.process_time() - began, max(n, 1)


def costs() -> bool:
    cpu, command, wall = replay_cost()
    print(f"replay of 100,000 answers from CSV (read, fold, both outputs): {cpu:.2f} s of CPU in process; "
          f"`proctor ratings replay` as a command: {command:.2f} s of CPU, {wall:.2f} s wall (target <= 5 s)")
    practice, hand_in, steps_off, refold = asyncio.run(answer_cost())
    print("ratings on minus off, CPU per scored answer, a database of 100,000 events (ABBA rounds):")
    print(f"  a practice answer's step: median {statistics.median(practice):.3f} ms "
          f"(rounds {', '.join(f'{x:.3f}' for x in practice)}; the step itself, ratings off: "
          f"{statistics.median(steps_off):.3f} ms)")
    print(f"  an exam's hand-in, per answer: median {statistics.median(hand_in):.3f} ms "
          f"(rounds {', '.join(f'{x:.3f}' for x in hand_in)})")
    print(f"folding the record again (a key fix's regrade, /forgetme): {refold:.2f} s of CPU for 100,000 events")
    ok = command <= 5 and statistics.median(practice) <= 0.2 and statistics.median(hand_in) <= 0.2
    print(f"targets (<= 0.2 ms an answer, replay <= 5 s): {'PASS' if ok else 'FAIL'}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=7)
    ap.add_argument("--people", type=int, default=400)
    ap.add_argument("--questions", type=int, default=1000)
    ap.add_argument("--days", type=int, default=120)
    ap.add_argument("--accuracy", action="store_true", help="the simulated population only")
    ap.add_argument("--cost", action="store_true", help="the costs only")
    args = ap.parse_args()
    ok = True
    if not args.cost:
        ok = accuracy(args.seeds, args.people, args.questions, args.days) and ok
    if not args.accuracy:
        print()
        ok = costs() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
