"""Key terms of reference answers: computed once, when a question is imported, and stored with it.

Segmenting Chinese needs jieba, whose dictionary costs ~70 MiB and ~1 s to load. Reference answers
never change after import, so their terms are found at import time and kept in `questions.key_terms`;
grading reads them from there. Where jieba runs is the caller's choice (`SegmentIn`), made where the
kind of process is known:

- in a fresh child process (bank.child_process) for the long-running bot, which must never hold
  the dictionary: its start-up, a chat upload's Import, /newq and /editq;
- in this process for the short-lived ones: `proctor` commands, tests, scripts;
- not at all for the bundled papers: their terms ship in bank/seeds/key_terms.json (checked
  against jieba by the tests), so a first start imports the bundled bank without segmenting.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Sequence
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from bank import child_process
from bank.errors import TermsUnavailable
from bank.grading.normalize import fold

MIN_TERM_LEN = 2
SEGMENT_SECONDS = 300.0  # every reference of an import at once: 5,000 of them segment in about 2 s
SEED_TERMS = Path(__file__).resolve().parents[1] / "seeds" / "key_terms.json"

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
_jieba: Any = None  # the jieba module once loaded; jieba ships no types


class SegmentIn(Enum):
    """Where jieba runs for the references whose terms are not bundled."""

    THIS_PROCESS = "this process"  # loads the dictionary here, once: a command, a test, a script
    CHILD = "child"  # a fresh child process each time: the long-running bot never holds the dictionary


def flat(text: str) -> str:
    """Folded (width, case, script) with every space and punctuation mark removed."""
    return _PUNCT_OR_SPACE.sub("", fold(text))


def _is_term(token: str) -> bool:
    if len(token) < MIN_TERM_LEN or token in STOPWORDS or token.isdigit():
        return False
    return any(ch.isalpha() for ch in token)


def load_segmenter() -> Any:
    """jieba, imported and initialised once; quiet (its start-up chatter is logged at INFO)."""
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba  # heavy-imports (pyproject.toml): a ~70 MiB dictionary, loaded where terms are found

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


@lru_cache(maxsize=2048)
def key_terms(reference: str) -> tuple[str, ...]:
    """The distinct terms of `reference` (Simplified, lower case) that an answer should cover.

    Segments with jieba in this process (loading it on first use).
    """
    if not reference.strip():
        return ()
    seen: dict[str, None] = {}
    for token in load_segmenter().lcut(fold(reference)):
        token = flat(token)
        if _is_term(token):
            seen.setdefault(token, None)
    return tuple(seen)


@cache
def seed_terms() -> dict[str, list[str]]:
    """The bundled papers' key terms by reference text (bank/seeds/key_terms.json)."""
    try:
        terms: dict[str, list[str]] = json.loads(SEED_TERMS.read_text(encoding="utf-8"))
        return terms
    except FileNotFoundError:
        return {}


def terms_for(references: Sequence[str], *, segment_in: SegmentIn) -> list[list[str]]:
    """Key terms of each reference, in order: from the bundled list, else from jieba.

    Raises TermsUnavailable if the child process that runs jieba fails (`SegmentIn.CHILD`).
    """
    known = seed_terms()
    missing = sorted({r for r in references if r.strip() and r not in known})
    found: dict[str, list[str]] = {}
    if missing:
        match segment_in:
            case SegmentIn.THIS_PROCESS:
                found = dict(zip(missing, segment(missing), strict=True))
            case SegmentIn.CHILD:
                found = dict(zip(missing, _segment_in_child(missing), strict=True))
    return [known[r] if r in known else found.get(r, []) for r in references]


def segment(references: list[str]) -> list[list[str]]:
    """The key terms of each reference, found with jieba in this process (the child's job too)."""
    return [list(key_terms(r)) for r in references]


def _segment_in_child(references: list[str]) -> list[list[str]]:
    try:
        return child_process.run(segment, references, limit=SEGMENT_SECONDS, what="finding key terms")
    except child_process.TimedOut:
        raise TermsUnavailable(f"finding key terms took over {SEGMENT_SECONDS:g} s") from None
    except child_process.ChildDied:
        raise TermsUnavailable("finding key terms failed in its child process (see the log)") from None
