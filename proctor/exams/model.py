"""Attempts as plain data, and the pure rules over them (scoring by section, what is left)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from bank.grading.result import Verdict
from bank.models import Question
from bank.option_order import OptionOrder
from bank.question_ref import QuestionRef
from bank.store import Engine, exact_real, json_rows
from proctor.exams.states import AttemptMode, AttemptStatus, FinishReason, accepts_answers

MOCK_TITLE = "Mock paper · 模拟卷"  # stored with a mock attempt; shown in the reader's language (bot/attempt_title.py)
ADAPTIVE_TITLE = "Practice at your level · 自适应练习"  # stored with an adaptive practice (proctor/exams/adaptive.py), likewise


@dataclass(frozen=True, slots=True)
class Attempt:
    id: int
    user_id: int
    chat_id: int
    paper_id: int | None
    mode: AttemptMode
    title: str
    status: AttemptStatus
    started_at: float
    deadline: float | None
    finished_at: float | None
    finish_reason: FinishReason | None
    current_pos: int
    message_id: int | None
    score: float | None
    max_score: float | None

    @property
    def running(self) -> bool:
        return accepts_answers(self.status)

    def seconds_left(self, now: float) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - now)

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> Attempt:
        return cls(r["id"], r["user_id"], r["chat_id"], r["paper_id"], AttemptMode(r["mode"]), r["title"],
                   AttemptStatus(r["status"]), r["started_at"], r["deadline"], r["finished_at"],
                   None if r["finish_reason"] is None else FinishReason(r["finish_reason"]), r["current_pos"], r["message_id"], r["score"], r["max_score"])


@dataclass(frozen=True, slots=True)
class Item:
    pos: int
    question_id: int
    section: str
    points: float
    option_order: str  # shown letter i is original letter option_order[i]; '' for no options
    flagged: bool
    draft: str  # multi: original letters toggled, not yet submitted
    version: int | None = None  # the question's version this sheet shows; None: from before versions
    code: str = ""  # the question's home paper's code and its place there: its reference (P3 · Q43)
    seq: int = 0

    @property
    def ref(self) -> QuestionRef:
        """The question's reference, read with the sheet (no question loaded)."""
        return QuestionRef(self.code, self.seq, self.question_id)

    def order(self, question: Question | None = None) -> OptionOrder:
        """The options as this sheet shows them; with the question, its letter references too."""
        return OptionOrder.of(self.option_order, question.letter_refs if question is not None else None)

    def original_letter(self, shown_index: int) -> str:
        """The stored letter of a shown option; IndexError past the options this item shows."""
        letter = self.order().original_letter(shown_index)
        if letter is None:
            raise IndexError(f"shown option {shown_index} of {len(self.option_order)}")
        return letter

    def shown_letter(self, original: str) -> str:
        return self.order().shown_letter(original)

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> Item:
        """An attempt_items row joined with its question's reference (`code`, `seq`)."""
        return cls(r["pos"], r["question_id"], r["section"], r["points"], r["option_order"],
                   bool(r["flagged"]), r["draft"], r["version"], r["code"], r["seq"])

    @classmethod
    def from_json(cls, v: list[Any]) -> Item:
        """One element of ITEMS_JSON."""
        return cls(v[0], v[1], v[2], float(v[3]), v[4], bool(v[5]), v[6], v[7], v[8], v[9])


@dataclass(frozen=True, slots=True)
class AnswerRec:
    pos: int
    question_id: int
    response: object
    score: float
    max_score: float
    verdict: Verdict
    final: bool
    key_version: int = 1  # the question's version whose key graded it

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> AnswerRec:
        return cls(r["pos"], r["question_id"], json.loads(r["response"]), r["score"], r["max_score"],
                   Verdict(r["verdict"]), bool(r["final"]), r["key_version"])

    @classmethod
    def from_json(cls, v: list[Any]) -> AnswerRec:
        """One element of ANSWERS_JSON."""
        return cls(v[0], v[1], json.loads(v[2]), float(v[3]), float(v[4]), Verdict(v[5]), bool(v[6]), v[7])


# An attempt's items and answers, each as one JSON array in one column of one row (`a`: the attempt's
# alias): a sheet is read in one statement of one row instead of three of forty-odd rows.
# REALs so that they read back exactly (bank.store.exact_real); a response stays its JSON text.
def items_json(engine: Engine) -> str:
    return json_rows(engine, ["i.pos", "i.question_id", "i.section", exact_real(engine, "i.points"), "i.option_order",
                              "i.flagged", "i.draft", "i.version", "p.code", "q.seq"],
                     "FROM attempt_items i JOIN questions q ON q.id = i.question_id JOIN papers p ON p.id = q.paper_id "
                     "WHERE i.attempt_id = a.id")


def answers_json(engine: Engine) -> str:
    return json_rows(engine, ["r.pos", "r.question_id", "r.response", exact_real(engine, "r.score"),
                              exact_real(engine, "r.max_score"), "r.verdict", "r.final", "r.key_version"],
                     "FROM answers r WHERE r.attempt_id = a.id")


@dataclass
class SectionScore:
    title: str
    score: float = 0.0
    max_score: float = 0.0
    answered: int = 0
    total: int = 0
    pending_review: int = 0


@dataclass
class Result:
    score: float
    max_score: float
    sections: list[SectionScore] = field(default_factory=list)
    pending_review: int = 0
    provisional: float = 0.0  # points awarded provisionally to answers awaiting review

    @property
    def percent(self) -> float:
        return 0.0 if not self.max_score else 100.0 * self.score / self.max_score


def compute_result(items: list[Item], answers: dict[int, AnswerRec]) -> Result:
    """Totals and per-section scores; unanswered questions score 0."""
    sections: dict[str, SectionScore] = {}
    result = Result(0.0, 0.0)
    for item in items:
        sec = sections.setdefault(item.section, SectionScore(item.section))
        sec.total += 1
        sec.max_score += item.points
        result.max_score += item.points
        ans = answers.get(item.pos)
        if ans is None:
            continue
        sec.answered += 1
        sec.score += ans.score
        result.score += ans.score
        if not ans.final:
            sec.pending_review += 1
            result.pending_review += 1
            result.provisional += ans.score
    result.sections = list(sections.values())
    return result


def unanswered(items: list[Item], answers: dict[int, AnswerRec]) -> list[int]:
    return [i.pos for i in items if i.pos not in answers]


def flagged(items: list[Item]) -> list[int]:
    return [i.pos for i in items if i.flagged]


def wrong_positions(items: list[Item], answers: dict[int, AnswerRec]) -> list[int]:
    """What the review pages through: wrong, partial or unanswered questions."""
    out = []
    for i in items:
        a = answers.get(i.pos)
        if a is None or a.verdict in (Verdict.wrong, Verdict.partial):
            out.append(i.pos)
    return out


@dataclass(frozen=True, slots=True)
class Sheet:
    """An attempt with everything needed to render it."""

    attempt: Attempt
    items: list[Item]
    answers: dict[int, AnswerRec]
    questions: dict[int, Question]

    @property
    def current(self) -> Item:
        return self.items[self.attempt.current_pos]

    def question(self, item: Item) -> Question:
        return self.questions[item.question_id]
