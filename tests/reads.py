"""What tests read back, through the domain's own queries (no SQL in tests that are not about the schema).

Listings and facts only tests need (every attempt, every daily quiz, a user's uploads, the bank's
questions, every graded answer to a question, a key's fixes, who reviewed an answer, where a dispute
stands, the audit log's size, the update claims, the counted answers and the ratings as stored) have their SQL here, once: production has no use
for them, so the domain does not hold them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import NamedTuple

from bank.authoring.upload import Pending, get_pending
from bank.models import Paper
from bank.paper_store import list_papers, load_paper
from proctor import outbox
from proctor.audit import AuditAction
from proctor.daily import answers, delivery
from proctor.daily.answers import Answer as DailyAnswer
from proctor.daily.delivery import Delivery
from proctor.daily.delivery import Item as DailyItem
from proctor.exams import service as attempts
from proctor.exams.model import AnswerRec, Attempt
from proctor.exams.visibility import Lens, Role, Viewer, lens
from proctor.invites.listing import listing as invite_listing
from proctor.invites.store import Invite
from proctor.ratings.events import Source
from proctor.ratings.rule import Rating
from proctor.storage.db import Database
from proctor.storage.updates import UpdateState
from proctor.teams.disputes import DisputeStatus


async def attempts_of(db: Database, user_id: int | None = None) -> list[Attempt]:
    """Every attempt (of one user when given), oldest first."""
    where, params = ("WHERE user_id=?", (user_id,)) if user_id is not None else ("", ())
    return [Attempt.from_row(r) for r in await db.fetchall(f"SELECT * FROM attempts {where} ORDER BY id", params)]


async def the_attempt(db: Database, user_id: int | None = None) -> Attempt:
    """The one attempt (of the user): fails the test if there are none or several."""
    found = await attempts_of(db, user_id)
    assert len(found) == 1, f"expected one attempt, found {len(found)}"
    return found[0]


async def answers_of(db: Database, user_id: int | None = None) -> dict[int, AnswerRec]:
    """The answers of the one attempt (of the user) by position; none if nobody started one."""
    found = await attempts_of(db, user_id)
    assert len(found) <= 1, f"expected at most one attempt, found {len(found)}"
    return (await attempts.load_sheet(db, found[0].id)).answers if found else {}


async def paper_id(db: Database, slug: str) -> int:
    """The stored id of the paper with this slug."""
    paper = await load_paper(db, slug)
    assert paper.id is not None
    return paper.id


async def question_ids(db: Database, slug: str, kind: str | None = None) -> list[int]:
    """The ids of the paper's questions (of one kind), in the paper's order; retired ones too."""
    paper = await load_paper(db, slug, include_retired=True)
    return [q.id for q in paper.questions() if q.id is not None and (kind is None or q.kind == kind)]


async def answers_in(db: Database, attempt_id: int) -> dict[int, AnswerRec]:
    """The answers of one attempt by position."""
    return (await attempts.load_sheet(db, attempt_id)).answers


async def invites_stored(db: Database) -> list[Invite]:
    """Every invite of every team, oldest first, with its status as stored."""
    return [row.invite for row in reversed(await invite_listing(db, None, 0.0, limit=None))]


async def the_invite(db: Database) -> Invite:
    """The one invite: fails the test if there are none or several."""
    found = await invites_stored(db)
    assert len(found) == 1, f"expected one invite, found {len(found)}"
    return found[0]


async def deliveries(db: Database, chat_id: int | None = None) -> list[Delivery]:
    """Every daily quiz (to one chat when given), oldest day first, each as the domain reads it."""
    where, params = ("WHERE chat_id=?", (chat_id,)) if chat_id is not None else ("", ())
    ids = [r["id"] for r in await db.fetchall(f"SELECT id FROM daily_deliveries {where} ORDER BY day, id", params)]
    return [await delivery.get_delivery(db, i) for i in ids]


async def the_delivery(db: Database, chat_id: int | None = None) -> Delivery:
    """The one daily quiz delivered (to the chat): fails the test if there are none or several."""
    found = await deliveries(db, chat_id)
    assert len(found) == 1, f"expected one delivery, found {len(found)}"
    return found[0]


async def daily_answers(db: Database, user_id: int | None = None) -> list[DailyAnswer]:
    """Every daily-quiz answer (of one member), quiz by quiz, then member by member."""
    out = []
    for d in await deliveries(db):
        members = [user_id] if user_id is not None else sorted(s.user_id for s in await answers.standings(db, d.id))
        out += [a for member in members for a in await answers.user_answers(db, d.id, member)]
    return out


async def paper_of_question(db: Database) -> dict[int, Paper]:
    """Each stored question's paper, by question id (retired questions too)."""
    papers = [await load_paper(db, p.id, include_retired=True) for p in await list_papers(db) if p.id is not None]
    return {q.id: p for p in papers for q in p.questions() if q.id is not None}


async def items_to(db: Database, chat_id: int) -> list[DailyItem]:
    """The questions of every daily quiz delivered to the chat, quiz by quiz."""
    return [i for d in await deliveries(db, chat_id) for i in await delivery.items(db, d.id)]


async def question_count(db: Database) -> int:
    """How many questions the bank holds, retired ones too."""
    count: int = await db.scalar("SELECT COUNT(*) FROM questions")
    return count


async def uploads_of(db: Database, user_id: int) -> list[Pending]:
    """The user's uploads, oldest first, whatever their status, each as the domain reads it."""
    ids = [r["id"] for r in await db.fetchall("SELECT id FROM pending_uploads WHERE user_id=? ORDER BY id", (user_id,))]
    return [await get_pending(db, i, user_id) for i in ids]


class Graded(NamedTuple):
    """An answer to a question and the key version it was last graded against."""

    attempt_id: int | None  # None: a daily-quiz answer
    user_id: int
    score: float
    key_version: int


async def graded_answers(db: Database, question_id: int) -> list[Graded]:
    """Every answer to the question: exam answers by attempt, then daily answers by member."""
    exams = await db.fetchall(
        "SELECT x.attempt_id, t.user_id, x.score, x.key_version FROM answers x JOIN attempts t ON t.id = x.attempt_id "
        "WHERE x.question_id=? ORDER BY x.attempt_id, x.pos", (question_id,))
    daily = await db.fetchall(
        "SELECT a.user_id, a.score, COALESCE(k.key_version, 1) AS key_version FROM daily_answers a "
        "LEFT JOIN daily_answer_keys k ON k.delivery_id = a.delivery_id AND k.pos = a.pos AND k.user_id = a.user_id "
        "WHERE a.question_id=? ORDER BY a.user_id, a.delivery_id", (question_id,))
    return ([Graded(r["attempt_id"], r["user_id"], r["score"], r["key_version"]) for r in exams]
            + [Graded(None, r["user_id"], r["score"], r["key_version"]) for r in daily])


async def reviewer_of(db: Database, attempt_id: int, pos: int) -> int | None:
    """Who made the answer's score final by hand; None if nobody did (graded, or still pending)."""
    reviewer = await db.scalar("SELECT reviewed_by FROM answers WHERE attempt_id=? AND pos=?", (attempt_id, pos))
    return None if reviewer is None else int(reviewer)


async def dispute_status(db: Database, dispute_id: int) -> DisputeStatus:
    """Where a dispute stands; fails the test if there is no such dispute."""
    status = await db.scalar("SELECT status FROM disputes WHERE id=?", (dispute_id,))
    assert status is not None, f"no dispute {dispute_id}"
    return DisputeStatus(status)


async def unfinished_updates(db: Database, bot_id: int) -> list[int]:
    """The bot's updates claimed and not done: being handled now, or cut off with their run."""
    rows = await db.fetchall("SELECT update_id FROM processed_updates WHERE bot_id=? AND state=? ORDER BY update_id",
                             (bot_id, UpdateState.claimed))
    return [int(r[0]) for r in rows]


class KeyVersion(NamedTuple):
    """One change of a question's key (or text): what it became, what it was, why, by whom, how many
    scores changed."""

    version: int
    field: str  # 'key', or the edited part of the text
    answer: object
    previous: object
    dispute_id: int | None
    actor: int
    changed: int


async def key_history(db: Database, question_id: int) -> list[KeyVersion]:
    """Every fix of the question's key, oldest first."""
    rows = await db.fetchall(
        "SELECT version, field, answer, previous, dispute_id, actor, regraded FROM key_versions "
        "WHERE question_id=? ORDER BY version", (question_id,))
    return [KeyVersion(r["version"], r["field"], json.loads(r["answer"]), json.loads(r["previous"]), r["dispute_id"],
                       r["actor"], r["regraded"]) for r in rows]


async def audit_count(db: Database, *, action: AuditAction | None = None) -> int:
    """How many entries the audit log holds (of one action when given)."""
    where, params = ("WHERE action=?", (action,)) if action is not None else ("", ())
    return int(await db.scalar(f"SELECT COUNT(*) FROM audit_log {where}", params))


@dataclass(frozen=True)
class OutboxRecord:
    """Where one outbox message stands."""

    state: outbox.Delivery
    tries: int
    last_error: str | None


async def outbox_record(db: Database, kind: outbox.Kind, ref: str) -> OutboxRecord | None:
    """The message of `kind` for `ref` (at most one each), or None if none was enqueued."""
    row = await db.fetchone("SELECT state, tries, last_error FROM outbox WHERE kind=? AND ref=?", (kind, ref))
    return None if row is None else OutboxRecord(outbox.Delivery(row["state"]), row["tries"], row["last_error"])


async def outbox_due(db: Database, now: float) -> list[outbox.Outgoing]:
    """Every pending message whose next try has come (none held for a hand-in), oldest first."""
    rows = await db.fetchall(
        "SELECT id, kind, ref, chat_id, user_id, payload, tries FROM outbox "
        "WHERE state='pending' AND held_by IS NULL AND next_try<=? ORDER BY next_try, id", (now,))
    return [outbox.Outgoing(r["id"], outbox.Kind(r["kind"]), r["ref"], r["chat_id"], r["user_id"],
                            json.loads(r["payload"]), r["tries"]) for r in rows]


async def group_members(db: Database, chat_id: int) -> set[int]:
    """Who the bot knows as seen in the group (`chat_members`: who wrote or played there)."""
    return {r[0] for r in await db.fetchall("SELECT user_id FROM chat_members WHERE chat_id=?", (chat_id,))}


async def lead_lens(db: Database, scope: int | None, user_id: int = 0) -> Lens:
    """What a lead of team `scope` reads by the read rule (None: a configured admin, every team)."""
    return await lens(db, Viewer(Role.admin if scope is None else Role.lead, user_id), scope)


class RatingEvent(NamedTuple):
    seq: int
    user_id: int
    question_id: int
    correct: float
    at: float
    source: Source


async def rating_events(db: Database, user_id: int | None = None) -> list[RatingEvent]:
    """The counted answers, by sequence number (everyone's, or one person's)."""
    rows = await db.fetchall(
        "SELECT seq, user_id, question_id, correct, at, source FROM rating_events "
        "WHERE CAST(? AS INTEGER) IS NULL OR user_id = ? ORDER BY seq", (user_id, user_id))
    return [RatingEvent(r[0], r[1], r[2], r[3], r[4], Source(r[5])) for r in rows]


async def held_ratings(db: Database) -> tuple[dict[int, Rating], dict[int, Rating]]:
    """The ratings the bot holds: every person's running belief, every question's measured difficulty."""
    people = await db.fetchall("SELECT user_id, mean, deviation, answers, at FROM person_ratings")
    questions = await db.fetchall("SELECT question_id, measured, deviation, answers, at FROM question_ratings")
    return ({r[0]: Rating(r[1], r[2], r[3], r[4]) for r in people},
            {r[0]: Rating(r[1], r[2], r[3], r[4]) for r in questions})
