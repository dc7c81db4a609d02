"""The integrity signals' cost at the hand-in: one attempt handed in against a paper with N earlier
written answers to compare with, signals on against signals off (the same hand-in without them).

Run: python bench/bench_signals.py [--earlier 1000] [--hand-ins 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proctor.exams import service as attempts  # noqa: E402
from proctor.exams.states import AttemptMode, FinishReason  # noqa: E402
from proctor.integrity.signals import normalise  # noqa: E402
from proctor.people.users import ensure_user  # noqa: E402
from proctor.storage.db import Database  # noqa: E402
from proctor.teams.curation import write_settings  # noqa: E402
from tests import answering  # noqa: E402
from tests.papers_fixture import save_paper, small_paper  # noqa: E402

T0 = 1_800_000_000.0
WORDS = "梯度累积前向传播计算损失不立即更新模型参数而是将得到的进行累加数据并行设备保存完整同时"


def answer(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) for _ in range(rng.randint(40, 120)))


async def hand_ins(db: Database, pid: int, n: int, rng: random.Random, first_uid: int) -> list[float]:
    """Seconds of each `finish_attempt` (the hand-in's transaction) for `n` fresh attempts."""
    took = []
    for k in range(n):
        uid = first_uid + k
        await ensure_user(db, uid, f"c{uid}", None, 0)
        a = await attempts.start_attempt(db, user_id=uid, chat_id=uid, paper_id=pid, mode=AttemptMode.exam, now=T0,
                                         shuffle=False)
        sheet = await attempts.load_sheet(db, a.id, positions="all")
        for item in sheet.items:
            q = sheet.question(item)
            response = answer(rng) if q.kind.value == "short" else q.answer if q.kind.value != "fill" else "x"
            await answering.answer(db, a.id, item.pos, response, T0 + 10 * (item.pos + 1))
        start = time.perf_counter()
        await attempts.finish_attempt(db, a.id, T0 + 600, FinishReason.submitted)
        took.append(time.perf_counter() - start)
    return took


async def main(earlier: int, n: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "b.db")
        pid = await save_paper(db, small_paper(), T0)
        qid = await db.scalar("SELECT id FROM questions WHERE paper_id=? AND kind='short' AND stem LIKE '简述%'",
                              (pid,))

        def transaction(conn):  # the earlier candidates, as their hand-ins left them (a fake state)
            for k in range(earlier):
                conn.execute("INSERT INTO users (id, created_at) VALUES (?, 0)", (10_000 + k,))
                cur = conn.execute(
                    "INSERT INTO attempts (user_id, chat_id, paper_id, mode, title, status, started_at, finished_at, "
                    "max_score) VALUES (?,?,?, 'exam', 't', 'finished', ?, ?, 15) RETURNING id",
                    (10_000 + k, 10_000 + k, pid, T0, T0 + rng.uniform(300, 3000)))
                aid = (cur.fetchone())[0]
                conn.execute("INSERT INTO written_answers (attempt_id, pos, paper_id, question_id, norm) VALUES (?,?,?,?,?)",
                             (aid, 6, pid, qid, normalise(answer(rng))))

        await db.run_write(transaction)
        await hand_ins(db, pid, 3, rng, 100)  # warm up: OpenCC and rapidfuzz load
        on = await hand_ins(db, pid, n, rng, 200)
        await write_settings(db, pid, actor=0, chat_id=None, now=T0, signals=False)
        off = await hand_ins(db, pid, n, rng, 400)
        await db.close()
    print(f"hand-in against {earlier} earlier written answers, {n} hand-ins each, median (min-max) ms:")
    for label, xs in (("signals on ", on), ("signals off", off)):
        print(f"  {label}: {statistics.median(xs) * 1000:.2f} ({min(xs) * 1000:.2f}-{max(xs) * 1000:.2f})")
    print(f"  cost of the signals: {(statistics.median(on) - statistics.median(off)) * 1000:.2f} ms per hand-in")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--earlier", type=int, default=1000)
    ap.add_argument("--hand-ins", type=int, default=30, dest="hand_ins")
    args = ap.parse_args()
    asyncio.run(main(args.earlier, args.hand_ins))
