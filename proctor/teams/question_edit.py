"""Editing a question (/editq, `proctor bank edit`; /keyfix is the key edit of an upheld dispute).

Every edit is a new version of the question (`questions.key_version`, logged in `key_versions`,
its text kept in `question_versions`), so an answer stays graded against the version its sheet
showed. A key edit may regrade every past answer to the new key; the candidates whose score changes
are told through the outbox, and leaderboards and reports follow, since they read the stored scores.
One transaction: the new version, the regraded answers and totals, the audit entry and the notices.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass

import aiosqlite

from bank.errors import BankError, NotFound
from bank.grading import grade
from bank.models import CHOICE, SUBJECTIVE, Kind, MultiPolicy, Question
from bank.option_order import LETTERS
from bank.paper_store import get_question
from bank.question_checks import refresh_paper
from bank.question_rows import question_from_row
from bank.question_versions import keep_version_in
from proctor import outbox
from proctor.daily.answers import daily_score
from proctor.exams.scoring import ATTEMPT_TOTAL, item_score
from proctor.exams.seal import sealed_anywhere
from proctor.exams.states import AttemptStatus
from proctor.storage.db import Database
from proctor.teams import audit

NOTICE = outbox.KEY_FIX_NOTICE  # outbox kind: "a question you answered was regraded" (the bot renders it)
FIELDS = ("key", "stem", "option", "explanation")
MAX_TEXT = 3000  # a stem, an option or an explanation: room left in a 4096-unit message


class BadKey(BankError):
    """The new key doesn't fit the question (a letter it hasn't, a blank too many, ...)."""


class BadEdit(BankError):
    """The edit doesn't fit the question (an empty text, an option it hasn't, a text too long)."""


class Sealed(BankError):
    """The question is on a running exam: it can't change under a candidate's eyes."""


class Changed(BankError):
    """The question was edited by someone else since the preview."""


@dataclass(frozen=True)
class Edit:
    """What to change: `field` key | stem | option | explanation; `option` 0-based for an option."""

    field: str
    value: str
    option: int = 0

    @property
    def name(self) -> str:
        return f"option:{self.option}" if self.field == "option" else self.field


@dataclass(frozen=True)
class Change:
    user_id: int
    old: float
    new: float
    max_score: float


@dataclass(frozen=True)
class Edited:
    question_id: int
    version: int
    field: str
    changes: list[Change] = dataclasses.field(default_factory=list)  # answers whose score changed
    answers: int = 0  # answers regraded (changed or not)


def new_key(q: Question, key: str | None, alternative: str | None = None) -> object:
    """The question's key after the fix, in its stored shape. Raises BadKey.

    A key is written as /newquestion and a spreadsheet's 答案 cell write it (bank.formats.sheet.parse_key):
    letters, true/false, blanks separated by |, accepted forms of one blank by ;, numbers; an alternative
    answer names one more accepted form per blank, blanks separated by |, empty to keep a blank."""
    if alternative is not None:
        if q.kind != Kind.fill or not isinstance(q.answer, list):
            raise BadKey("only fill-in blanks take alternative answers")
        parts = [p.strip() for p in alternative.split("|")] if len(q.answer) > 1 else [alternative.strip()]
        if len(parts) != len(q.answer) or not any(parts):
            raise BadKey(f"give one alternative per blank ({len(q.answer)}), empty to keep a blank")
        return [list(alts) + ([p] if p and p not in alts else []) for alts, p in zip(q.answer, parts, strict=True)]
    text = (key or "").strip()
    if not text:
        raise BadKey("no key given")
    if q.kind == Kind.matching:
        raise BadKey(f"a {q.kind.value} question's key is edited in its file, then imported again")
    if q.kind in SUBJECTIVE:
        return text  # written questions: the reference answer (their scores are a reviewer's)
    from bank.formats.sheet import parse_key  # the spreadsheet reader loads with the first typed key

    try:
        answer = parse_key(q, text)
    except ValueError as e:
        raise BadKey(str(e)) from None
    if q.kind in CHOICE and not set(str(answer)) <= set(LETTERS[:len(q.options)]):
        raise BadKey(f"a key of letters among {LETTERS[:len(q.options)]}")
    if q.kind == Kind.fill and isinstance(q.answer, list) and isinstance(answer, list) and len(answer) != len(q.answer):
        raise BadKey(f"one answer per blank ({len(q.answer)})")
    return answer


def edited(q: Question, edit: Edit) -> Question:
    """`q` with the edit applied (the version it would become). Raises BadKey, BadEdit."""
    if edit.field == "key":
        return q.model_copy(update={"answer": new_key(q, edit.value)})
    text = edit.value.strip()
    if len(text) > MAX_TEXT:
        raise BadEdit(f"at most {MAX_TEXT} characters")
    if edit.field == "explanation":
        return q.model_copy(update={"explanation": text})
    if not text:
        raise BadEdit("the text is empty")
    if edit.field == "stem":
        return q.model_copy(update={"stem": text})
    if edit.field == "option":
        if not 0 <= edit.option < len(q.options):
            raise BadEdit(f"the question has options {LETTERS[0]}–{LETTERS[max(len(q.options) - 1, 0)]}")
        options = list(q.options)
        options[edit.option] = text
        return q.model_copy(update={"options": options})
    raise BadEdit(f"one of {', '.join(FIELDS)}")


async def preview(db: Database, question_id: int, edit: Edit) -> tuple[Question, Question]:
    """The question now and as the edit would make it; nothing is written.
    Raises NotFound, Sealed, BadKey, BadEdit."""
    q = await editable(db, question_id)
    return q, edited(q, edit)


async def editable(db: Database, question_id: int) -> Question:
    """The question, if a lead may edit it now. Raises NotFound, Sealed."""
    q = await get_question(db, question_id)
    if (await sealed_anywhere(db)).covers(question_id):
        raise Sealed(f"question {question_id} is on a running exam")
    return q


async def edit_question(db: Database, question_id: int, edit: Edit, *, actor: int, now: float,
                        chat_id: int | None, regrade: bool = False, expected_version: int | None = None) -> Edited:
    """Apply `edit` as a new version; with `regrade` (a key edit) rescore every past answer to the new
    key and tell whose score changed. `expected_version`: the version the lead's preview showed.
    Raises NotFound, Sealed, Changed, BadKey, BadEdit."""
    await editable(db, question_id)  # a race with a starting exam is harmless: its sheet keeps its version
    async with db.write() as conn:
        return await edit_in(conn, question_id, lambda old: edited(old, edit), edit.name, actor=actor, now=now,
                             chat_id=chat_id, regrade=regrade and edit.field == "key",
                             expected_version=expected_version)


async def edit_in(conn: aiosqlite.Connection, question_id: int, edit: Callable[[Question], Question], name: str, *,
                  actor: int, now: float, chat_id: int | None, regrade: bool,
                  expected_version: int | None = None) -> Edited:
    """The question as `edit` makes it of the current one, as its next version, with its audit entry and
    the notices of a regrade; inside a write transaction (/editq, and `proctor import` of an exported
    file: proctor/teams/file_edits.py). Raises NotFound, Changed, and what `edit` raises."""
    old, policy, paper_id = await _load_in(conn, question_id)
    if expected_version is not None and old.version != expected_version:
        raise Changed(f"question {question_id} is at version {old.version} now")
    result = await commit_in(conn, old, edit(old), policy, name, actor=actor, now=now, regrade=regrade)
    await refresh_paper(conn, paper_id)  # pinned options, letter references, key doubts: found again
    await audit.record(conn, at=now, actor=actor, chat_id=chat_id, action="question_edit",
                       target=f"question:{question_id}", question=question_id, version=result.version,
                       field=name, regraded=result.answers, changed=len(result.changes))
    for c in first_changes(result.changes):
        await outbox.enqueue_in(conn, kind=NOTICE, ref=f"q{question_id}v{result.version}:{c.user_id}",
                                chat_id=c.user_id, user_id=c.user_id, now=now,
                                payload={"question": question_id, "old": c.old, "new": c.new,
                                         "max": c.max_score})
    return result


def first_changes(changes: list[Change]) -> list[Change]:
    """One notice per candidate: their first changed answer (a candidate answers a question once per
    attempt; the notice names the question)."""
    seen: dict[int, Change] = {}
    for c in changes:
        seen.setdefault(c.user_id, c)
    return list(seen.values())


async def _load_in(conn: aiosqlite.Connection, question_id: int) -> tuple[Question, MultiPolicy, int]:
    cur = await conn.execute("SELECT q.*, p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id "
                             "WHERE q.id=?", (question_id,))
    row = await cur.fetchone()
    if row is None:
        raise NotFound(f"no question {question_id}")
    return question_from_row(row), MultiPolicy(row["multi_policy"]), row["paper_id"]


async def commit_in(conn: aiosqlite.Connection, old: Question, new: Question, policy: MultiPolicy, name: str, *,
                    actor: int, now: float, regrade: bool, dispute_id: int | None = None) -> Edited:
    """Write `new` as the next version of `old` (logged, its text kept) and, with `regrade`, rescore
    the answers to it; call inside a write transaction. /keyfix and /editq both end here."""
    qid = old.id or 0
    version = old.version + 1
    new = new.model_copy(update={"version": version})
    await keep_version_in(conn, old)
    await keep_version_in(conn, new)
    await conn.execute(
        "UPDATE questions SET stem=?, options=?, answer=?, explanation=?, key_version=?, key_terms=? WHERE id=?",
        (new.stem, json.dumps(new.options, ensure_ascii=False), json.dumps(new.answer, ensure_ascii=False),
         new.explanation, version,
         None if new.answer != old.answer and new.kind in SUBJECTIVE else _terms(old), qid))
    changes: list[Change] = []
    answers = 0
    if regrade and new.kind not in SUBJECTIVE:
        answers, changes = await _regrade(conn, new, policy, version)
    await conn.execute(
        "INSERT INTO key_versions (question_id, version, answer, previous, dispute_id, actor, regraded, "
        "created_at, field) VALUES (?,?,?,?,?,?,?,?,?)",
        (qid, version, json.dumps(new.answer, ensure_ascii=False), json.dumps(old.answer, ensure_ascii=False),
         dispute_id, actor, len(changes), now, name))
    return Edited(qid, version, name, changes, answers)


def _terms(q: Question) -> str | None:
    return None if q.key_terms is None else json.dumps(q.key_terms, ensure_ascii=False)


async def _regrade(conn: aiosqlite.Connection, q: Question, policy: MultiPolicy,
                   version: int) -> tuple[int, list[Change]]:
    """Rescore the exam answers (final, not a reviewer's) and the daily answers to `q`; unanswered
    questions on running sheets move to the new version too (they are then graded by its key)."""
    changes: list[Change] = []
    n = 0
    cur = await conn.execute(
        "SELECT x.attempt_id, x.pos, x.response, x.score, x.max_score, t.user_id FROM answers x "
        "JOIN attempts t ON t.id = x.attempt_id WHERE x.question_id=? AND x.final=1 AND x.reviewed_by IS NULL",
        (q.id,))
    for attempt_id, pos, response, old, max_score, user_id in await cur.fetchall():
        g = grade(q, json.loads(response), multi_policy=policy)
        new = item_score(g, max_score)  # as answering scored it: the same key gives the same score
        n += 1
        await conn.execute("UPDATE answers SET score=?, verdict=?, key_version=? WHERE attempt_id=? AND pos=?",
                           (new, g.verdict.value, version, attempt_id, pos))
        if new != old:
            await conn.execute(
                f"UPDATE attempts SET score={ATTEMPT_TOTAL} WHERE id=? AND score IS NOT NULL",
                (attempt_id, attempt_id))
            changes.append(Change(user_id, old, new, max_score))
    await conn.execute(
        "UPDATE attempt_items SET version=? WHERE question_id=? AND attempt_id IN "
        f"(SELECT id FROM attempts WHERE status='{AttemptStatus.running}') AND NOT EXISTS (SELECT 1 FROM answers a "
        "WHERE a.attempt_id = attempt_items.attempt_id AND a.pos = attempt_items.pos)", (version, q.id))
    cur = await conn.execute(
        "SELECT delivery_id, pos, user_id, response, score, max_score FROM daily_answers WHERE question_id=?",
        (q.id,))
    for delivery_id, pos, user_id, response, old, max_score in await cur.fetchall():
        g = grade(q, json.loads(response), multi_policy=policy)
        new = daily_score(g, max_score)  # as answering stored it: the same key gives the same score
        n += 1
        await conn.execute("UPDATE daily_answers SET score=?, verdict=? WHERE delivery_id=? AND pos=? AND user_id=?",
                           (new, g.verdict.value, delivery_id, pos, user_id))
        await conn.execute("INSERT INTO daily_answer_keys VALUES (?,?,?,?) ON CONFLICT DO UPDATE SET "
                           "key_version=excluded.key_version", (delivery_id, pos, user_id, version))
        if new != old:
            changes.append(Change(user_id, old, new, max_score))
    return n, changes


async def answer_count(db: Database, question_id: int) -> int:
    """Machine-graded answers a regrade would rescore (exams and daily quizzes)."""
    n: int = await db.scalar(
        "SELECT (SELECT COUNT(*) FROM answers WHERE question_id=? AND final=1 AND reviewed_by IS NULL) "
        "+ (SELECT COUNT(*) FROM daily_answers WHERE question_id=?)", (question_id, question_id))
    return n


def key_text(answer: object) -> str:
    """A key as a lead reads it: letters, true/false, blanks separated by 、, alternatives by /."""
    if isinstance(answer, bool):
        return "true" if answer else "false"
    if isinstance(answer, list):
        return "、".join(" / ".join(str(a) for a in alts) if isinstance(alts, list) else str(alts) for alts in answer)
    return str(answer)
