"""Short, discussion and case answers: a provisional score from key-term coverage, for review."""

from __future__ import annotations

import logging
import math
import re
import threading
from functools import lru_cache

from bank.grading.normalize import fold
from bank.grading.result import Grade, Verdict
from bank.models import Question

# Candidates rarely reuse every term of a long reference answer, so covering FULL_COVERAGE of
# them earns the full provisional score; below that the score grows linearly with coverage.
FULL_COVERAGE = 0.7
MIN_TERM_LEN = 2

# Function words and generic verbs that say nothing about whether the candidate knows the topic.
# Domain words (模型, 梯度, 训练, 参数...) stay key terms on purpose.
_STOPWORDS_TEXT = """
可以 通过 进行 使用 以及 如果 因为 所以 但是 这个 那个 一个 我们 你们 他们 它们 需要 能够 其中 同时 主要
首先 其次 然后 最后 例如 比如 等等 或者 并且 而且 由于 对于 关于 一些 不同 之间 方面 一方面 另一方面 这些
那些 如何 什么 以便 从而 以上 包括 采用 利用 就是 还是 已经 没有 不是 而是 只是 这样 那样 因此 然而 此外
另外 其他 其它 以下 如下 一定 可能 比较 非常 更加 通常 一般 一种 这种 那种 各种 每个 所有 怎样 为了 并非
即可 不仅 而且 虽然 尽管 甚至 以此 对其 之后 之前 时候 作用 问题 情况 方法 方式 过程 实际 应用 具体 相应
提高 减少 增加 降低 保证 确保 实现 考虑 选择 设计 说明 简述 分析 答案 参考 要点 优点 缺点 影响 原因 结果
得到 达到 根据 立即 当前 相关 一次 多次 不断 逐渐 完成 产生 导致 存在 包含 具有 成为 称为 叫做 能够 每次
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

_PUNCT_OR_SPACE = re.compile(r"[\s\W_]+")
_lock = threading.Lock()
_jieba = None


def load_segmenter():
    """jieba, imported and initialised once; quiet (its start-up chatter is logged at INFO)."""
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba  # heavy (its dictionary): loaded on first use, not a circle

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


def _flat(text: str) -> str:
    return _PUNCT_OR_SPACE.sub("", fold(text))


def _is_term(token: str) -> bool:
    if len(token) < MIN_TERM_LEN or token in STOPWORDS or token.isdigit():
        return False
    return any(ch.isalpha() for ch in token)


@lru_cache(maxsize=2048)
def key_terms(reference: str) -> tuple[str, ...]:
    """The distinct terms of `reference` (Simplified, lower case) that an answer should cover."""
    text = fold(reference)
    seen: dict[str, None] = {}
    for token in load_segmenter().lcut(text):
        token = _flat(token)
        if _is_term(token):
            seen.setdefault(token, None)
    return tuple(seen)


def provisional_score(coverage: float, points: float) -> float:
    """points × min(1, coverage / FULL_COVERAGE), rounded down to a half point."""
    raw = points * min(1.0, coverage / FULL_COVERAGE)
    return min(points, math.floor(raw * 2 + 1e-9) / 2)


def grade_subjective(question: Question, response: object) -> Grade:
    """Provisional grade; always needs_review, except that an empty answer is simply wrong."""
    reference = question.answer if isinstance(question.answer, str) else ""
    typed = response if isinstance(response, str) else ""
    flat = _flat(typed)
    if not flat:
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.wrong,
                     expected=reference, detail="no answer")
    terms = key_terms(reference) if reference.strip() else ()
    if not terms:
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.needs_review,
                     expected=reference, detail="no reference answer to compare with")
    covered = sum(1 for t in terms if t in flat)
    score = provisional_score(covered / len(terms), question.points)
    return Grade(score=score, max_score=question.points, verdict=Verdict.needs_review,
                 expected=reference, detail=f"provisional: {covered}/{len(terms)} key terms")
