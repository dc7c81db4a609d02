"""The day's set: auto-gradable, askable questions from practice papers, varied and balanced.

Groups get one set for everyone, chosen to avoid what the chat saw recently and to spread over
papers and topics. Private chats put the user's due review cards (FSRS) first, then new questions.
Matching questions are asked in private chats only: a group's answers are one tap or one reply
each, and pairs take several presses per member.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bank.matching_answer import shown_count
from bank.models import CHOICE, OBJECTIVE, UNASKABLE, Kind
from bank.option_order import MAX_OPTIONS
from bank.paper_list import ASKABLE_SQL
from bank.store import one_row
from proctor.daily.fsrs_cards import due_cards, known_questions
from proctor.exams.seal import sealed_for
from proctor.storage.db import Database

RECENT_DAYS = 30


@dataclass(frozen=True)
class Candidate:
    id: int
    paper_id: int
    topic: str  # the question's topic, else its section: what "balance across topics" spreads over
    kind: Kind = Kind.single

    @property
    def group_askable(self) -> bool:
        """May a group's quiz ask it? Not a matching question (private chats only)."""
        return self.kind != Kind.matching


def eligible(kind: Kind, flags: Iterable[str], retired: bool, exam_only: bool, n_options: int) -> bool:
    """May this question appear in daily practice?"""
    if exam_only or retired or kind not in OBJECTIVE or set(flags) & UNASKABLE:
        return False
    return (kind not in CHOICE and kind != Kind.matching) or 2 <= n_options <= MAX_OPTIONS


# What changes the candidates: papers (re)imported or toggled exam-only, questions added, retired,
# held (bank/question_checks.py) or released.
_VERSION = """SELECT (SELECT group_concat(id || ':' || exam_only || ':' || imported_at) FROM papers),
                     (SELECT COUNT(*) FROM questions), (SELECT total(id * retired) FROM questions),
                     (SELECT COUNT(*) || ':' || total(question_id) FROM question_checks WHERE held != '')"""
_cache: dict[int, tuple[tuple[Any, ...], list[Candidate]]] = {}


async def candidates(db: Database) -> list[Candidate]:
    """Every question daily practice may ask, from papers not marked exam-only.

    Cached per database until a paper or question changes: at 09:00 every chat asks at once.
    """
    version = tuple(one_row(await db.fetchone(_VERSION)))  # sub-selects only: always one row
    hit = _cache.get(id(db))
    if hit is not None and hit[0] == version:
        return hit[1]
    found = await _load_candidates(db)
    _cache[id(db)] = (version, found)
    return found


async def _load_candidates(db: Database) -> list[Candidate]:
    kinds = ",".join(f"'{k.value}'" for k in OBJECTIVE)
    rows = await db.fetchall(
        f"""SELECT q.id, q.paper_id, q.section_id, q.kind, q.topic, q.flags, q.options, q.answer, q.retired,
                   p.exam_only
            FROM questions q JOIN papers p ON p.id = q.paper_id
            LEFT JOIN question_checks c ON c.question_id = q.id
            WHERE p.exam_only = 0 AND {ASKABLE_SQL} AND q.kind IN ({kinds})""")
    return [
        Candidate(r["id"], r["paper_id"], r["topic"] or f"section {r['section_id']}", kind)
        for r in rows
        if eligible(kind := Kind(r["kind"]), json.loads(r["flags"]), bool(r["retired"]), bool(r["exam_only"]),
                    shown_count(kind, json.loads(r["options"]), json.loads(r["answer"])))
    ]


async def recently_sent(db: Database, chat_id: int, now: float, days: int = RECENT_DAYS) -> dict[int, float]:
    """Questions sent to this chat in the last `days` days -> when they were last sent."""
    rows = await db.fetchall(
        """SELECT i.question_id, MAX(d.created_at) FROM daily_items i
           JOIN daily_deliveries d ON d.id = i.delivery_id
           WHERE d.chat_id=? AND d.created_at>=? GROUP BY i.question_id""",
        (chat_id, now - days * 86400))
    return {r[0]: r[1] for r in rows}


def pick_balanced(pool: Sequence[Candidate], n: int, rng: random.Random,
                  taken: Sequence[Candidate] = ()) -> list[Candidate]:
    """Up to `n` questions from `pool`, each time from the least used paper, then its least used topic."""
    by_paper: dict[int, dict[str, list[Candidate]]] = {}
    for c in pool:
        by_paper.setdefault(c.paper_id, {}).setdefault(c.topic, []).append(c)
    paper_uses = Counter(c.paper_id for c in taken)
    topic_uses = Counter((c.paper_id, c.topic) for c in taken)
    chosen: list[Candidate] = []
    while len(chosen) < n and by_paper:
        papers = list(by_paper)
        rng.shuffle(papers)
        paper = min(papers, key=lambda p: paper_uses[p])
        topics = list(by_paper[paper])
        rng.shuffle(topics)
        topic = min(topics, key=lambda tp: topic_uses[(paper, tp)])
        bucket = by_paper[paper][topic]
        pick = bucket.pop(rng.randrange(len(bucket)))
        chosen.append(pick)
        paper_uses[paper] += 1
        topic_uses[(paper, topic)] += 1
        if not bucket:
            del by_paper[paper][topic]
            if not by_paper[paper]:
                del by_paper[paper]
    return chosen


def pick_group_set(cands: Sequence[Candidate], recent: dict[int, float], n: int,
                   rng: random.Random) -> list[int]:
    """One set for everyone: unseen questions first; if the bank runs short, the longest-unseen."""
    fresh = [c for c in cands if c.id not in recent]
    chosen = pick_balanced(fresh, n, rng)
    if len(chosen) < n:
        stale = sorted((c for c in cands if c.id in recent), key=lambda c: recent[c.id])
        chosen += stale[: n - len(chosen)]
    return [c.id for c in chosen]


def pick_private_set(cands: Sequence[Candidate], recent: dict[int, float], due: Sequence[int],
                     known: set[int], n: int, rng: random.Random) -> list[int]:
    """Due review cards first (most overdue first), then new questions, then the longest-unseen."""
    by_id = {c.id: c for c in cands}
    chosen = [by_id[q] for q in due if q in by_id][:n]
    ids = {c.id for c in chosen}
    new = [c for c in cands if c.id not in known and c.id not in recent and c.id not in ids]
    chosen += pick_balanced(new, n - len(chosen), rng, taken=chosen)
    if len(chosen) < n:
        ids = {c.id for c in chosen}
        rest = [c for c in cands if c.id not in ids]
        rest.sort(key=lambda c: recent.get(c.id, 0.0))
        chosen += rest[: n - len(chosen)]
    return [c.id for c in chosen]


async def choose_set(db: Database, chat_id: int, private_user: int | None, n: int, now: float,
                     rng: random.Random) -> list[int]:
    """The question ids for a chat's quiz of the day (possibly fewer than `n` if the bank is small).

    A private quiz leaves out the questions sealed by the user's running exam; if nothing else may
    be asked it draws from them all, and their sending waits until the exam is handed in.
    """
    cands = await candidates(db)
    recent = await recently_sent(db, chat_id, now)
    if private_user is None:
        return pick_group_set([c for c in cands if c.group_askable], recent, n, rng)
    seal = await sealed_for(db, private_user)
    cands = [c for c in cands if not seal.covers(c.id)] or cands
    due = await due_cards(db, private_user, now)
    known = await known_questions(db, private_user)
    return pick_private_set(cands, recent, due, known, n, rng)

