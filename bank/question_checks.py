"""What the import finds out about each question, stored in `question_checks`.

Per question: the options pinned in place and the letters that name options (bank/option_order.py),
whether its key is in doubt (the explanation speaks for an option the key leaves out, see
bank/lint.py), and whether an earlier question of the same paper has the same stem.

A question is *held* (kept out of exams, practice and the daily quiz) while its key is in doubt and
no lead has confirmed that key, and for good when it repeats an earlier question of its paper (the
paper asks it once). Every import refreshes the rows of its papers in the import's transaction;
`fill_missing` does the same at start-up for questions a migration left without a row.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from bank.errors import NotFound
from bank.kinds import CHOICE
from bank.lint import explanation_speaks_for, key_doubt, normalise_stem
from bank.lint_messages import english
from bank.models import Question
from bank.option_order import analyse_options
from bank.question_ref import QuestionRef
from bank.question_rows import QUESTION_SELECT, question_from_row
from bank.store import Store

VERSION = 2  # bump when the analysis changes: rows of an older version are redone at start-up
# 2: key_doubt holds the lint's parameters as JSON ({"answer": "ABCD", "spoken": "E"}), not English

HELD_KEY = "key"
HELD_DUPLICATE = "duplicate"


@dataclass(frozen=True, slots=True)
class Check:
    pinned: list[int]
    refs: dict[str, list[int]]
    key_doubt: str
    duplicate_of: int | None


def analyse(questions: list[Question]) -> dict[int, Check]:
    """The checks of one paper's questions (with ids), given in paper order."""
    out: dict[int, Check] = {}
    first_of: dict[str, int] = {}
    for q in questions:
        assert q.id is not None, "analyse() reads stored questions, which have ids"
        pinned, refs = analyse_options(q.stem, q.options, q.explanation) if q.kind in CHOICE else ([], {})
        spoken = explanation_speaks_for(q)
        doubt = json.dumps(key_doubt(q, spoken), ensure_ascii=False) if spoken else ""
        duplicate_of = None
        stem = normalise_stem(q.stem)
        if stem and not q.retired:
            duplicate_of = first_of.setdefault(stem, q.id)
            if duplicate_of == q.id:
                duplicate_of = None
        out[q.id] = Check(pinned, refs, doubt, duplicate_of)
    return out


def held_reason(check: Check, answer_json: str, confirmed_answer: str | None) -> str:
    if check.duplicate_of is not None:
        return HELD_DUPLICATE
    if check.key_doubt and confirmed_answer != answer_json:
        return HELD_KEY
    return ""


def refresh_paper(conn: sqlite3.Connection, paper_id: int) -> None:
    """Analyse every question of a paper again; call inside the transaction that wrote it."""
    cur = conn.execute(f"{QUESTION_SELECT} WHERE q.paper_id=? ORDER BY s.position, q.number", (paper_id,))
    rows = list(cur.fetchall())
    checks = analyse([question_from_row(r) for r in rows])
    conn.executemany(
        """INSERT INTO question_checks (question_id, version, pinned, letter_refs, key_doubt, duplicate_of, held)
           VALUES (?,?,?,?,?,?,?)
           ON CONFLICT(question_id) DO UPDATE SET version=excluded.version, pinned=excluded.pinned,
               letter_refs=excluded.letter_refs, key_doubt=excluded.key_doubt,
               duplicate_of=excluded.duplicate_of, held=excluded.held""",
        [(r["id"], VERSION, json.dumps(c.pinned), json.dumps(c.refs), c.key_doubt, c.duplicate_of,
          held_reason(c, r["answer"], r["confirmed_answer"]))
         for r in rows for c in [checks[r["id"]]]])


async def fill_missing(db: Store) -> int:
    """Analyse the papers that have a question without a current check; returns how many papers."""
    rows = await db.fetchall(
        """SELECT DISTINCT q.paper_id FROM questions q LEFT JOIN question_checks c ON c.question_id = q.id
           WHERE c.question_id IS NULL OR c.version < ?""", (VERSION,))
    if not rows:
        return 0

    def transaction(conn: sqlite3.Connection) -> int:
        for r in rows:
            refresh_paper(conn, r[0])
        return len(rows)

    return await db.run_write(transaction)


@dataclass(frozen=True, slots=True)
class Held:
    question_id: int
    paper: str  # the paper's title
    section: str  # the section's title
    number: int
    held: str  # 'key' | 'duplicate'
    doubt: dict[str, str]  # a key in doubt: the lint's `explanation_vs_key` parameters (answer, spoken)
    duplicate_of: int | None
    ref: QuestionRef = QuestionRef("", 0)  # its reference (P3 · Q43)
    duplicate_ref: QuestionRef | None = None  # the earlier question it repeats

    @property
    def key_doubt(self) -> str:
        """The doubt in English (bank/lint_messages.py); a chat says it in its language from `doubt`."""
        return english("explanation_vs_key", self.doubt) if self.doubt else ""

    @property
    def reason(self) -> str:
        if self.held == HELD_DUPLICATE:
            dup = self.duplicate_ref
            return f"same stem as {dup.code} · Q{dup.n} of this paper: asked once" if dup else \
                "same stem as an earlier question of this paper: asked once"
        return f"key in doubt: {self.key_doubt}; held out until a lead confirms it"


def doubt_of(stored: str) -> dict[str, str]:
    """A stored key doubt's parameters; a row not yet redone (VERSION 1 wrote English) keeps its text."""
    if not stored:
        return {}
    try:
        found = json.loads(stored)
    except ValueError:
        found = None
    return found if isinstance(found, dict) else {"answer": "?", "spoken": stored}


async def held_questions(db: Store) -> list[Held]:
    """Every question held out of exams, practice and the daily quiz, in bank order."""
    rows = await db.fetchall(
        """SELECT c.question_id, p.title, s.title, q.number, c.held, c.key_doubt, c.duplicate_of, p.code, q.seq,
                  d.seq AS duplicate_seq
           FROM question_checks c JOIN questions q ON q.id = c.question_id
           JOIN papers p ON p.id = q.paper_id JOIN sections s ON s.id = q.section_id
           LEFT JOIN questions d ON d.id = c.duplicate_of
           WHERE c.held != '' AND q.retired = 0 ORDER BY p.id, s.position, q.number""")
    return [Held(r[0], r[1], r[2], r[3], r[4], doubt_of(r[5]), r[6], QuestionRef(r["code"], r["seq"], r[0]),
                 None if r["duplicate_seq"] is None else QuestionRef(r["code"], r["duplicate_seq"], r[6]))
            for r in rows]


def confirm_key_in(conn: sqlite3.Connection, question_id: int, *, actor: int, now: float) -> object:
    """A lead confirms a doubted key, inside the caller's write transaction (a lead's:
    proctor.teams.curation.confirm_key, audited): the question is asked again. Returns the key
    confirmed, or None if the question was not held for its key. Raises NotFound."""
    cur = conn.execute(
        "SELECT q.answer, c.held FROM questions q LEFT JOIN question_checks c ON c.question_id = q.id "
        "WHERE q.id=?", (question_id,))
    row = cur.fetchone()
    if row is None:
        raise NotFound(f"no question {question_id}")
    if row[1] != HELD_KEY:
        return None
    conn.execute(
        "UPDATE question_checks SET confirmed_answer=?, confirmed_by=?, confirmed_at=?, held='' "
        "WHERE question_id=?", (row[0], actor, now, question_id))
    return json.loads(row[0])
