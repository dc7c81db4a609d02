"""Import benchmark: 10,000 synthetic questions in the seed format, parsed and written to a fresh
SQLite file. Run: python bench/bench_import.py [--questions N] [--papers P]."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank.importer import import_files, parse_files  # noqa: E402
from proctor.storage.db import Database

# (header, share of the questions); the mixture of the real seeds, roughly
MIX = [("填空题", 0.25), ("单项选择题", 0.25), ("多项选择题", 0.2), ("判断题", 0.2),
       ("简答题", 0.07), ("案例分析题", 0.03)]
NUMERALS = "一二三四五六七八九十"
WORDS = ["梯度", "累积", "模型", "並行", "數據", "量化", "剪枝", "蒸餾", "推理", "優化器", "學習率", "內存",
         "通信", "精度", "批次", "訓練", "張量", "流水線", "注意力", "緩存"]


def phrase(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(WORDS) for _ in range(n))


def question(rng: random.Random, kind: str, n: int, glued: bool) -> str:
    sep = "" if glued else "\n"
    if kind == "填空题":
        return f"{n}.{phrase(rng, 3)}中，______用于{phrase(rng, 2)}。{sep}答案：{phrase(rng, 2)}{sep}"
    if kind in ("单项选择题", "多项选择题"):
        k = 5 if kind == "多项选择题" else 4
        opts = "".join(f"{'ABCDE'[i]}.{phrase(rng, 2)}{sep if i % 2 else ''}" for i in range(k))
        key = rng.choice("ABCD") if k == 4 else "".join(sorted(rng.sample("ABCDE", rng.randint(2, 4))))
        exp = f"解析：{phrase(rng, 3)}（{key[0]}）可以{phrase(rng, 2)}。{sep}" if not glued else ""
        return f"{n}.以下關於{phrase(rng, 2)}的說法正確的是（）{sep}{opts}{sep}答案：{key}{sep}{exp}"
    if kind == "判断题":
        return f"{n}.{phrase(rng, 4)}可以{phrase(rng, 2)}。（{rng.choice('√×')}）{sep}"
    if kind == "简答题":
        return f"{n}.簡述{phrase(rng, 2)}的原理。{sep}答案：{phrase(rng, 30)}。{sep}"
    return (f"案例{n}.某公司{phrase(rng, 10)}。{sep}問題：{sep}1.如何{phrase(rng, 3)}？{sep}2.如何"
            f"{phrase(rng, 3)}？{sep}參考答案：{sep}1.{phrase(rng, 12)}。{sep}2.{phrase(rng, 12)}。{sep}")


def paper_text(rng: random.Random, index: int, questions: int) -> str:
    glued = index % 4 == 1  # like 001: no line breaks at all
    sep = "" if glued else "\n"
    parts = [f"合成試卷第{index}號（含答案）{sep}"]
    for s, (kind, share) in enumerate(MIX):
        count = max(1, round(questions * share))
        parts.append(f"{NUMERALS[s]}、{kind}（共{count}題）{sep}")
        parts.extend(question(rng, kind, n, glued) for n in range(1, count + 1))
    return "".join(parts)


async def run(total: int, papers: int) -> None:
    rng = random.Random(42)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = []
        for i in range(papers):
            path = root / f"synthetic_{i:03d}.txt"
            path.write_text(paper_text(rng, i, total // papers), encoding="utf-8")
            paths.append(path)
        size = sum(p.stat().st_size for p in paths)

        t0 = time.perf_counter()
        parsed = parse_files(paths)
        t1 = time.perf_counter()
        db = await Database.open(root / "bench.db")
        t2 = time.perf_counter()
        written = await import_files(db, paths, now=time.time())
        t3 = time.perf_counter()
        stored = await db.scalar("SELECT COUNT(*) FROM questions")
        t4 = time.perf_counter()
        await import_files(db, paths, now=time.time())  # re-import: every row an update
        t5 = time.perf_counter()
        await db.close()

    n = sum(len(p.questions()) for p in parsed)
    assert len(written) == papers and stored == n, (stored, n)
    print(f"{papers} papers, {n} questions, {size / 1e6:.1f} MB of seed text")
    print(f"parse only:            {t1 - t0:6.2f} s  {n / (t1 - t0):8.0f} questions/s")
    print(f"import (parse+write):  {t3 - t2:6.2f} s  {n / (t3 - t2):8.0f} questions/s")
    print(f"re-import (updates):   {t5 - t4:6.2f} s  {n / (t5 - t4):8.0f} questions/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--questions", type=int, default=10_000)
    ap.add_argument("--papers", type=int, default=20)
    args = ap.parse_args()
    asyncio.run(run(args.questions, args.papers))


if __name__ == "__main__":
    main()
