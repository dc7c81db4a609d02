"""Format import benchmark: 10,000 questions as one GIFT file and as one 10,000-row XLSX, parsed and
written to a fresh SQLite file, against the seed importer on the same number of questions.
Targets: each under 5 s, and at least half the seed importer's questions per second.
Run: python bench/bench_formats.py [--questions N]."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank.formats.build import Item, Parsed, assemble  # noqa: E402
from bank.formats.files import FileFormat, export, parse_any  # noqa: E402
from bank.importer import import_files  # noqa: E402
from bank.kinds import Kind  # noqa: E402
from bank.models import Question
from proctor.storage.db import Database  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_import import paper_text, phrase  # noqa: E402

KINDS = [Kind.single] * 5 + [Kind.multi] * 4 + [Kind.truefalse] * 4 + [Kind.fill] * 5 + [Kind.short] * 2


def synthetic(rng: random.Random, n: int) -> list[Question]:
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        q = Question(number=0, kind=kind, stem=f"{i}.{phrase(rng, 6)}？", answer="",
                     explanation=phrase(rng, 5), topic=phrase(rng, 1))
        if kind in (Kind.single, Kind.multi):
            q.options = [phrase(rng, 2) for _ in range(4)]
            q.answer = rng.choice("ABCD") if kind is Kind.single else "".join(sorted(rng.sample("ABCD", 2)))
        elif kind is Kind.truefalse:
            q.answer = rng.random() < 0.5
        elif kind is Kind.fill:
            q.answer = [[phrase(rng, 2), phrase(rng, 1)]]
        else:
            q.answer = phrase(rng, 30)
        out.append(q)
    return out


async def timed_import(root: Path, paths: list[Path], parse) -> tuple[float, int]:
    db = await Database.open(root / f"bench_{paths[0].suffix.lstrip('.')}.db")
    t0 = time.perf_counter()
    await import_files(db, paths, now=time.time(), parse=parse)
    elapsed = time.perf_counter() - t0
    stored = await db.scalar("SELECT COUNT(*) FROM questions")
    await db.close()
    return elapsed, stored


async def run(total: int) -> int:
    rng = random.Random(7)
    papers = assemble(Parsed([Item(q, "") for q in synthetic(rng, total)]), file="b", stem="bench", title="Bench")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        seeds = []
        for i in range(20):
            path = root / f"synthetic_{i:03d}.txt"
            path.write_text(paper_text(rng, i, total // 20), encoding="utf-8")
            seeds.append(path)
        seed_t, seed_n = await timed_import(root, seeds, parse_any)
        results = {"seed text": (seed_t, seed_n)}
        for fmt in (FileFormat.gift, FileFormat.xlsx):
            data, _ = export(papers, fmt)
            path = root / f"bench.{fmt}"
            path.write_bytes(data if isinstance(data, bytes) else data.encode())
            results[fmt] = await timed_import(root, [path], parse_any)
    seed_rate = seed_n / seed_t
    ok = True
    for name, (t, n) in results.items():
        rate = n / t
        line = f"{name:<10} {n:6d} questions  {t:6.2f} s  {rate:8.0f} questions/s"
        if name != "seed text":
            passed = t < 5 and rate >= seed_rate / 2
            ok &= passed
            line += f"  ({rate / seed_rate:.2f}× the seed importer) {'ok' if passed else 'MISSED'}"
        print(line)
    return 0 if ok else 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--questions", type=int, default=10_000)
    args = ap.parse_args()
    sys.exit(asyncio.run(run(args.questions)))


if __name__ == "__main__":
    main()
