"""Grading throughput: objective and subjective grades per second.

Run: python bench/bench_grading.py [n_questions]
"""

from __future__ import annotations

import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank.grading import grade, normalize_for_match, terms_for, warm_up  # noqa: E402
from bank.grading.terms import SegmentIn  # noqa: E402
from bank.kinds import Kind, MultiPolicy  # noqa: E402
from bank.models import Question
from bank.script import to_script  # noqa: E402

TERMS = [
    "批次大小", "梯度", "累加", "学习率", "backward()", "内存限制", "梯度缓存", "内存占用", "累积梯度",
    "圖形處理器", "數據", "MPI（消息傳遞接口）", "learningrate", "計算梯度", "通信同步", "模型",
    "$f(x)=max(0,x)$", "$f(x)=\\frac{1}{1+e^{-x}}$", "Strassen算法（或普通矩陣乘法算法）", "水平劃分",
    "INT8量化", "模型壓縮", "對抗訓練", "張量並行", "知識蒸餾", "通道剪枝", "低秩近似", "量化低秩近似",
    "FP32", "INT8", "m×p", "每秒浮点运算次数（FLOPS）", "深度可分離", "损失函数", "存储空间",
]
SENTENCES = [
    "梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将计算得到的梯度进行累加。",
    "當累積的梯度達到一定次數（即梯度累積步數）後，再根據累積的梯度更新模型參數。",
    "數據並行是將數據分割到不同設備上，每個設備保存完整模型，同時計算不同數據的梯度。",
    "梯度消失指在神經網絡反向傳播過程中，梯度逐漸變小，導致前面層的參數更新緩慢。",
    "同步更新參數優點是所有設備的模型參數保持一致，訓練結果穩定，可復現。",
    "採用NCCL等高效通信庫，並使用梯度壓縮減少通信量，計算與通信重疊。",
    "模型量化原理是將模型參數從FP32轉換為INT8，減少模型大小和計算量。",
    "激活函數引入非線性，使神經網絡能夠擬合複雜函數。",
]
LETTERS = "ABCD"


def typed_variant(rng: random.Random, text: str) -> str:
    """How a candidate might type `text`: other script, full width, spaces, a typo, or wrong."""
    roll = rng.random()
    if roll < 0.3:
        return text
    if roll < 0.45:
        return to_script(text, rng.choice(["hans", "hant"]))
    if roll < 0.55:
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
    if roll < 0.65:
        return " ".join(text)
    if roll < 0.75 and len(text) > 6:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    return rng.choice(TERMS)


def make_objective(rng: random.Random, number: int) -> tuple[Question, object]:
    kind = rng.choice([Kind.single, Kind.multi, Kind.truefalse, Kind.fill])
    if kind == Kind.single:
        key = rng.choice(LETTERS)
        reply = rng.choice([key, key.lower(), f"选{key}", f"({rng.choice(LETTERS)})", "不知道"])
        options = [f"选项{i}" for i in range(4)]
    elif kind == Kind.multi:
        key = "".join(sorted(rng.sample(LETTERS, rng.randint(1, 4))))
        picked = rng.sample(LETTERS, rng.randint(1, 4))
        reply = rng.choice(["".join(picked), ", ".join(picked).lower(), list(picked), f"选{key}"])
        options = [f"选项{i}" for i in range(4)]
    elif kind == Kind.truefalse:
        key = rng.random() < 0.5
        reply = rng.choice(["对", "錯誤", "√", "×", "T", "false", "不正確", True, False, "嗯"])
        options = []
    else:
        n_blanks = 1 if rng.random() < 0.8 else 2
        # a number in each key makes most keys distinct, so key normalisation is measured too
        key = [[f"{rng.choice(TERMS)}{rng.randrange(1000)}"] for _ in range(n_blanks)]
        reply = "、".join(typed_variant(rng, b[0]) for b in key)
        options = []
    q = Question(number=number, kind=kind, stem="…", options=options, answer=key, points=rng.choice([1, 2]))
    return q, reply


def make_subjective(rng: random.Random, number: int) -> tuple[Question, object]:
    reference = "".join(rng.sample(SENTENCES, rng.randint(2, 4)))
    reply = "".join(typed_variant(rng, s) for s in rng.sample(SENTENCES, rng.randint(0, 4)))
    kind = rng.choice([Kind.short, Kind.discussion, Kind.case])
    return Question(number=number, kind=kind, stem="…", answer=reference, points=5), reply


def timed(pairs, policy: MultiPolicy) -> float:
    # replies are never cached between runs; only the keys' prepared forms are (as in real use)
    normalize_for_match.cache_clear()
    start = time.perf_counter()
    for q, reply in pairs:
        grade(q, reply, multi_policy=policy)
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rng = random.Random(20250101)

    start = time.perf_counter()
    warm_up()
    print(f"warm_up (OpenCC t2s): {time.perf_counter() - start:.2f} s")

    objective = [make_objective(rng, i) for i in range(n)]
    subjective = [make_subjective(rng, i) for i in range(n // 10)]
    by_kind: dict[Kind, list] = defaultdict(list)
    for pair in objective:
        by_kind[pair[0].kind].append(pair)

    print(f"\n{n} objective questions, {len(subjective)} subjective; grades per second")
    print(f"{'kind':<12}{'count':>8}{'first pass':>14}{'second pass':>14}")
    for kind in (Kind.single, Kind.multi, Kind.truefalse, Kind.fill):
        pairs = by_kind[kind]
        first, second = timed(pairs, MultiPolicy.partial), timed(pairs, MultiPolicy.partial)
        print(f"{kind:<12}{len(pairs):>8}{len(pairs) / first:>14,.0f}{len(pairs) / second:>14,.0f}")
    for policy in MultiPolicy:
        pairs = by_kind[Kind.multi]
        print(f"{'multi ' + policy:<26}{len(pairs) / timed(pairs, policy):>14,.0f}")
    rng.shuffle(objective)
    elapsed = timed(objective, MultiPolicy.partial)
    print(f"{'objective':<12}{n:>8}{n / elapsed:>28,.0f}   (mixed, after the first pass)")

    # as in the bank: key terms are found once at import (jieba) and stored with the question
    start = time.perf_counter()
    found = terms_for([q.answer for q, _ in subjective], segment_in=SegmentIn.THIS_PROCESS)
    imported = time.perf_counter() - start
    subjective = [(q.model_copy(update={"key_terms": t}), r) for (q, r), t in zip(subjective, found, strict=True)]
    first, second = timed(subjective, MultiPolicy.partial), timed(subjective, MultiPolicy.partial)
    m = len(subjective)
    print(f"{'subjective':<12}{m:>8}{m / first:>14,.0f}{m / second:>14,.0f}   (stored key terms)")
    print(f"{'  key terms':<12}{m:>8}{m / imported:>14,.0f}   found at import (jieba loaded: once per import run)")
    print("\nfirst pass: keys normalised for the first time; second pass: key caches warm")
    print("target: >= 10,000 objective grades/s")


if __name__ == "__main__":
    main()
