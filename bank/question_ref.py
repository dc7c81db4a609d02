"""A question's reference, `P3 · Q43`: its home paper's code and its place in that paper's full order
(held, unaskable and retired questions included; `questions.seq`, migration 035). It is given when the
question is first written and never changes, so every screen, file and command names the question the
same way. The bank id (`questions.id`) is a secondary handle, named only where a command takes one.

`parse_question` reads what a person types (`P3 Q43`, `P3·Q43`, `p3/43`, `P3 · 第43题`, `#83`, `83`);
bot/i18n.py renders both types, the only place either becomes text."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from bank.errors import NotFound
from bank.store import Store


class QuestionRef(NamedTuple):
    """`P3 · Q43`. `code` is "" for a paper not stored yet (an upload's preview): "new paper · Q12"."""

    code: str
    n: int
    question_id: int | None = None


class BankId(NamedTuple):
    """A question's bank id (`questions.id`), shown labelled ("bank id #83") where a command takes one."""

    question_id: int


_REF = re.compile(
    r"""\s*(?P<code>[Pp][1-9][0-9]{0,8})\s*(?:[·•./:\-]\s*)?
        (?:[Qq]\s*(?P<n>[0-9]{1,9})|第\s*(?P<cn>[0-9]{1,9})\s*[题題]|(?P<bare>[0-9]{1,9}))(?![0-9])""",
    re.VERBOSE)
_ID = re.compile(r"\s*(?:(?:bank\s+id|题库编号|題庫編號)\s*)?#?\s*(?P<id>[0-9]{1,18})(?![0-9])", re.IGNORECASE)


def split_question(text: str) -> tuple[QuestionRef | BankId, str] | None:
    """The question a command's text starts with, and the rest of the text (a dispute's reason, a
    key); None when it starts with neither a reference nor a bank id."""
    m = _REF.match(text)
    if m is not None:
        n = m.group("n") or m.group("cn") or m.group("bare")
        return QuestionRef(m.group("code").upper(), int(n)), text[m.end():].strip()
    m = _ID.match(text)
    if m is not None:
        return BankId(int(m.group("id"))), text[m.end():].strip()
    return None


def parse_question(text: str) -> QuestionRef | BankId | None:
    """The whole of `text` as a reference or a bank id; None for anything else."""
    found = split_question(text)
    return found[0] if found is not None and not found[1] else None


async def question_id(db: Store, handle: QuestionRef | BankId) -> int:
    """The bank id of the question `handle` names. Raises NotFound."""
    if isinstance(handle, BankId):
        found = await db.scalar("SELECT id FROM questions WHERE id=?", (handle.question_id,))
    else:
        found = await db.scalar(
            "SELECT q.id FROM questions q JOIN papers p ON p.id = q.paper_id WHERE p.code=? AND q.seq=?",
            (handle.code, handle.n))
    if found is None:
        raise NotFound(f"no question {handle}")
    return int(found)


async def find_question(db: Store, text: str) -> int:
    """The bank id of the question `text` names (a reference or a bank id, as `parse_question` reads
    them). Raises NotFound, saying how to name one."""
    handle = parse_question(text)
    if handle is None:
        raise NotFound(f"{text.strip()!r} names no question: give its reference, such as P3 Q43, or its bank id")
    try:
        return await question_id(db, handle)
    except NotFound:
        raise NotFound(f"no question {text.strip()}") from None


async def question_refs(db: Store, questions: Iterable[int]) -> dict[int, QuestionRef]:
    """The references of the questions with these bank ids (those that exist), in one read."""
    wanted = sorted(set(questions))
    if not wanted:
        return {}
    rows = await db.fetchall(
        f"SELECT q.id, p.code, q.seq FROM questions q JOIN papers p ON p.id = q.paper_id "
        f"WHERE q.id IN ({','.join('?' * len(wanted))})", wanted)
    return {r[0]: QuestionRef(r[1], r[2], r[0]) for r in rows}


async def question_ref(db: Store, question: int) -> QuestionRef:
    """The reference of the question with bank id `question`. Raises NotFound."""
    found = (await question_refs(db, [question])).get(question)
    if found is None:
        raise NotFound(f"no question {question}")
    return found
