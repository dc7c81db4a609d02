"""Cutting a section into questions at its keys: inline "答案：", one key block, and 解析 explanations."""

from __future__ import annotations

import re

from bank.importer.numbering import cut_numbered, find_marker
from bank.importer.raw import Ctx, Raw

ANSWER = re.compile(r"(?:參考|参考)?答案\s*[：:]")
_EXPLANATION = re.compile(r"解析\s*[：:]")


def cut_questions(ctx: Ctx, where: str, body: str) -> list[Raw]:
    """The section's questions with their keys, however the section gives them. Raises ImportFailed."""
    anchors = list(ANSWER.finditer(body))
    block = _key_block(body, anchors)
    if block is not None:
        return _cut_with_key_block(ctx, where, body, block)
    if anchors:
        return _cut_at_answers(ctx, where, body, anchors)
    return [Raw(n, stem) for n, stem in cut_numbered(body)]


def split_explanation(answer: str | None, explanation: str) -> tuple[str | None, str]:
    """A "解析：" inside a key ends the key and starts the explanation, unless one is already known."""
    if answer is not None and not explanation:
        e = _EXPLANATION.search(answer)
        if e:
            return answer[: e.start()], answer[e.end():]
    return answer, explanation


def _key_block(body: str, anchors: list[re.Match[str]]) -> re.Match[str] | None:
    """The one "答案：1.D2.A…" after all the questions of a section, if the section has one."""
    if len(anchors) != 1:
        return None
    a = anchors[0]
    if not re.match(r"\s*1\s*[.．、]", body[a.end():]):
        return None
    return a if find_marker(body, 2, end=a.start()) else None


def _cut_with_key_block(ctx: Ctx, where: str, body: str, anchor: re.Match[str]) -> list[Raw]:
    raws = [Raw(n, stem) for n, stem in cut_numbered(body[: anchor.start()])]
    rest = body[anchor.end():]
    exp = _EXPLANATION.search(rest)
    keys = dict(cut_numbered(rest[: exp.start()] if exp else rest))
    explanations = dict(cut_numbered(rest[exp.end():])) if exp else {}
    for r in raws:
        r.answer = keys.get(r.number)
        r.explanation = explanations.get(r.number)
    extra = sorted(set(keys) - {r.number for r in raws})
    if extra:
        raise ctx.fail(f"{where}, key block", f"keys for questions {extra} that the section does not have")
    return raws


def _cut_at_answers(ctx: Ctx, where: str, body: str, anchors: list[re.Match[str]]) -> list[Raw]:
    """Inline keys: "1.stem 答案：key 2.stem 答案：key". Between two "答案：" stand the first
    question's key (maybe with numbered lines of its own) and the next stem, which starts at
    the last "n." of the stretch."""
    first = find_marker(body, 1, end=anchors[0].start())
    if first is None:
        raise ctx.fail(f"{where}, question 1", "no question numbered 1 before the first 答案")
    raws = [Raw(1, body[first.end(): anchors[0].start()])]
    for i, a in enumerate(anchors):
        end = anchors[i + 1].start() if i + 1 < len(anchors) else len(body)
        stretch = body[a.end(): end]
        n = raws[-1].number + 1
        if i + 1 < len(anchors):
            m = find_marker(stretch, n, last=True)
            if m is None:
                raise ctx.fail(f"{where}, question {n}",
                               f"no question numbered {n} between two answers (after question {n - 1})")
        else:
            m = find_marker(stretch, n, last=True)
            # numbered lines inside the last key ("1.…2.…") are part of it, not questions
            if m is not None and find_marker(stretch, 1, end=m.start()) is not None:
                m = None
        raws[-1].answer = stretch[: m.start()] if m else stretch
        if m is not None:
            raws.append(Raw(n, stretch[m.end():]))
    return raws
