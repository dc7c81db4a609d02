"""What a /live round asks: its arguments read, and its questions drawn.

Drawn from the askable single, multiple and true/false questions of the daily quiz's pool
(proctor/daily/selection.py: never retired, held or flagged unaskable), only those whose question, key
and explanation the group's audience may read (`rounds.may_post`: never a hiring paper's, never one
sealed for a known member of the group), never one the group saw in its last RECENT_ROUNDS rounds,
spread over papers and topics; only questions whose poll fits Telegram's limits (the bot says what fits).
`/live <subject>` names a paper as every command does (bank/paper_list.py `pick_paper`: its code, its
title or a part of one title, in either script), else a topic (bank/topics.py: a question's own, else
its paper's subject; a part of it, in either script)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bank.errors import NotFound
from bank.grading.choice import parse_choice, parse_truefalse
from bank.kinds import Kind
from bank.option_order import LETTERS, OptionOrder
from bank.paper_list import AmbiguousPaper, offered_papers, pick_paper
from bank.paper_settings import policy_of
from bank.store import ids_in
from bank.topics import names_topic, topic_sql
from proctor.daily.candidates import Candidate, candidates
from proctor.daily.selection import pick_balanced
from proctor.errors import ProctorError
from proctor.exams.visibility import Lens, Role
from proctor.live.model import Drawn
from proctor.live.rounds import may_post, recent_questions
from proctor.storage.db import Database

DEFAULT_QUESTIONS, MIN_QUESTIONS, MAX_QUESTIONS = 5, 1, 30
DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS = 20, 10, 120
KINDS = frozenset({Kind.single, Kind.multi, Kind.truefalse})

_COUNT = re.compile(r"^(\d{1,4})([qs])$", re.IGNORECASE)


class BadArgument(ProctorError):
    """One argument of /live is wrong: the message is the argument."""


class NothingToAsk(ProctorError):
    """No question may be drawn (an empty pool, or all seen in the group's last rounds)."""


@dataclass(frozen=True, slots=True)
class Request:
    questions: int = DEFAULT_QUESTIONS
    seconds: int = DEFAULT_SECONDS
    subject: str = ""  # a paper (`pick_paper`'s reference: code, title or part of it) or a topic; "" for any


def parse_args(words: Sequence[str]) -> Request:
    """`/live`'s arguments in any order: `Nq` (1-30), `Ns` (10-120), the rest a paper or a topic.
    Raises BadArgument naming the first wrong one."""
    questions, seconds, subject = DEFAULT_QUESTIONS, DEFAULT_SECONDS, []
    for word in words:
        m = _COUNT.match(word)
        if m is None:
            if word[:1].isdigit() and word[-1:].isalpha() and word.isascii():  # "5x", "12m": a count gone wrong
                raise BadArgument(word)
            subject.append(word)
            continue
        n, unit = int(m.group(1)), m.group(2).lower()
        if unit == "q" and MIN_QUESTIONS <= n <= MAX_QUESTIONS:
            questions = n
        elif unit == "s" and MIN_SECONDS <= n <= MAX_SECONDS:
            seconds = n
        else:
            raise BadArgument(word)
    return Request(questions, seconds, " ".join(subject))


Fits = Callable[[str, list[str]], bool]  # (stem, option texts) -> does the poll fit?


@dataclass(frozen=True, slots=True)
class _Info:
    kind: Kind
    stem: str
    options: list[str]
    answer: object
    shuffle: bool
    policy: str | None
    pinned: list[int]


async def _infos(db: Database, ids: list[int]) -> dict[int, _Info]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = await db.fetchall(
        f"""SELECT q.id, q.kind, q.stem, q.options, q.answer, p.shuffle_options, p.multi_policy, c.pinned
            FROM questions q JOIN papers p ON p.id = q.paper_id LEFT JOIN question_checks c ON c.question_id = q.id
            WHERE q.id IN ({marks})""", ids)
    return {r["id"]: _Info(Kind(r["kind"]), r["stem"], json.loads(r["options"]), json.loads(r["answer"]),
                           bool(r["shuffle_options"]), r["multi_policy"], json.loads(r["pinned"] or "[]"))
            for r in rows}


async def _topics(db: Database, ids: list[int]) -> dict[int, str]:
    """Each question's topic (its own, else its paper's subject: bank/topics.py)."""
    rows = await db.fetchall(
        f"SELECT q.id, {topic_sql('q', 'p')} FROM questions q JOIN papers p ON p.id = q.paper_id "
        f"WHERE q.id IN ({ids_in(db.engine)})", (json.dumps(ids),))
    return {r[0]: r[1] for r in rows}


async def _pool(db: Database, subject: str) -> list[Candidate]:
    """The candidates of the paper `subject` names (`pick_paper` among the papers practice offers), else
    of the topics it names (a part of one, in either script); all of them for ''. Raises BadArgument
    (nothing named) and AmbiguousPaper (a part of several titles and of no topic)."""
    pool = [c for c in await candidates(db) if c.kind in KINDS]
    if not subject:
        return pool
    try:
        paper = pick_paper(await offered_papers(db, practice=True), subject)
    except NotFound as e:
        topics = await _topics(db, [c.id for c in pool])
        named = {topic: names_topic(subject, topic) for topic in set(topics.values())}
        by_topic = [c for c in pool if named.get(topics.get(c.id, ""), False)]
        if by_topic:
            return by_topic
        if isinstance(e, AmbiguousPaper):
            raise
        raise BadArgument(subject) from None
    return [c for c in pool if c.paper_id == paper.id]


def _drawn(qid: int, info: _Info, rng: random.Random, shuffle: bool) -> Drawn | None:
    if info.kind == Kind.truefalse:
        key = parse_truefalse(info.answer)
        return None if key is None else Drawn(qid, "AB", (0,) if key else (1,), False, policy_of(info.policy))
    order = OptionOrder.draw(len(info.options), info.pinned, rng, shuffle and info.shuffle)
    letters = parse_choice(info.answer, multiple=True, n_options=len(info.options)) \
        if isinstance(info.answer, str) else None
    if not letters or (info.kind == Kind.single and len(letters) != 1):
        return None
    correct = tuple(sorted(order.order.index(letter) for letter in letters if letter in order.order))
    return Drawn(qid, order.order, correct, info.kind == Kind.multi, policy_of(info.policy))


async def draw(db: Database, group: Lens, request: Request, fits: Fits, rng: random.Random, *,
               shuffle: bool, true_false: tuple[str, str]) -> list[Drawn]:
    """Up to `request.questions` questions for a round in the group whose audience `group` is the lens
    of (`lens(db, AUDIENCE, chat_id)`): only what it may read. Raises BadArgument (no paper or topic
    matches the subject), AmbiguousPaper (a part of several titles and of no topic) and NothingToAsk."""
    if group.viewer.role != Role.audience or group.scope is None:
        raise ValueError("a live round is drawn for a group's audience")
    chat_id = group.scope
    seen = await recent_questions(db, chat_id)
    pool = [c for c in await _pool(db, request.subject) if c.id not in seen and may_post(group.of(c.paper_id), c.id)]
    infos = await _infos(db, [c.id for c in pool])

    def shown(info: _Info) -> list[str]:
        return list(true_false) if info.kind == Kind.truefalse else info.options

    fitting = [c for c in pool if c.id in infos and fits(infos[c.id].stem, shown(infos[c.id]))]
    out: list[Drawn] = []
    for c in pick_balanced(fitting, len(fitting), rng):  # balanced order; keys unreadable are skipped
        d = _drawn(c.id, infos[c.id], rng, shuffle)
        if d is not None:
            out.append(d)
        if len(out) == request.questions:
            break
    if not out:
        raise NothingToAsk(str(chat_id))
    return out


def shown_options(order: str, options: list[str]) -> list[str]:
    """The option texts in the order the poll shows them (`order[i]` is the stored letter shown at i)."""
    return [options[LETTERS.index(letter)] for letter in order]
