"""The schema's triggers do the same on both engines: the summaries of the answers (daily_scores,
daily_topics, exam_topics: migrations 024 and 025) stay what the answers sum to through inserts, rescores,
moves and deletes, cascades included; a new question takes the next n of its paper (035) and a new paper
the first free code from P<id> on (029, 037). Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.engines import Engine, postgres_migrated, sqlite_migrated

DAY = "2026-12-01"


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    db = Engine(sqlite_migrated() if request.param == "sqlite"
                else postgres_migrated(request.getfixturevalue("pg_url")))
    yield db
    db.close()


def slot(answered_at: float) -> int:
    """The quarter hour an answer counts in: whole seconds (truncated, as SQLite's CAST) over 900."""
    return int(answered_at) // 900


def summed(rows: list[tuple[Any, ...]], width: int) -> dict[tuple[Any, ...], list[Any]]:
    groups: dict[tuple[Any, ...], list[Any]] = defaultdict(list)
    for row in rows:
        groups[row[:width]].append(row[width:])
    return groups


def expected(db: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """The three summaries as the answers held now sum to them, worked out here."""
    topic = {q: (p, s, t) for q, p, s, t in db.rows("SELECT id, paper_id, section_id, topic FROM questions")}
    daily = db.rows("SELECT chat_id, user_id, day, question_id, score, max_score, verdict, answered_at "
                    "FROM daily_answers")
    scores = summed([(c, slot(at), u, d, s, m, v, at) for c, u, d, _, s, m, v, at in daily], 4)
    topics = summed([(c, slot(at), u, *topic[q], s, m) for c, u, _, q, s, m, _, at in daily], 6)
    exams = summed([(a, *topic[q], s, m) for a, q, s, m in db.rows(
        "SELECT attempt_id, question_id, score, max_score FROM answers WHERE final = 1")], 4)
    return {
        "daily_scores": sorted((*k, sum(r[0] for r in v), sum(r[1] for r in v), len(v),
                                sum(r[2] == "correct" for r in v), max(r[3] for r in v)) for k, v in scores.items()),
        "daily_topics": sorted((*k, sum(r[0] for r in v), sum(r[1] for r in v), len(v)) for k, v in topics.items()),
        "exam_topics": sorted((*k, sum(r[0] for r in v), sum(r[1] for r in v), len(v)) for k, v in exams.items()),
    }


def held(db: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """The three summaries as the triggers keep them."""
    return {
        "daily_scores": sorted(db.rows("SELECT chat_id, slot, user_id, day, score, max_score, answers, correct, "
                                       "last_at FROM daily_scores")),
        "daily_topics": sorted(db.rows("SELECT chat_id, slot, user_id, paper_id, section_id, topic, score, "
                                       "max_score, answers FROM daily_topics")),
        "exam_topics": sorted(db.rows("SELECT attempt_id, paper_id, section_id, topic, score, max_score, answers "
                                      "FROM exam_topics")),
    }


def a_paper(db: Engine, slug: str, code: str | None = None) -> int:
    return int(db.one("INSERT INTO papers (slug, title, imported_at, code) VALUES (?, ?, 0, ?) RETURNING id",
                      (slug, slug.upper(), code)))


def a_section(db: Engine, paper: int, position: int) -> int:
    return int(db.one("INSERT INTO sections (paper_id, position, kind, title) VALUES (?, ?, 'single', ?) "
                      "RETURNING id", (paper, position, f"S{position}")))


def a_question(db: Engine, paper: int, section: int, number: int, topic: str = "", seq: int | None = None) -> int:
    return int(db.one(
        "INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem, answer, points, topic, seq) "
        "VALUES (?, ?, ?, ?, 'single', 'stem', '\"A\"', 1, ?, ?) RETURNING id",
        (f"{paper}-{section}-{number}", paper, section, number, topic, seq)))


class Record:
    """A bank of one paper (two sections, four questions over three topics), three members in two
    chats, a daily quiz in each chat and two exam attempts, written step by step."""

    def __init__(self, db: Engine):
        self.db = db
        self.paper = a_paper(db, "a")
        self.s1, self.s2 = a_section(db, self.paper, 1), a_section(db, self.paper, 2)
        self.q = [a_question(db, self.paper, self.s1, 1, "loss"), a_question(db, self.paper, self.s1, 2, "loss"),
                  a_question(db, self.paper, self.s1, 3, "grad"), a_question(db, self.paper, self.s2, 1)]
        db.rows("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0), (3, 0)")
        db.rows("INSERT INTO chats (id, type, updated_at) VALUES (10, 'group', 0), (20, 'group', 0)")
        self.d1, self.d2 = (int(db.one("INSERT INTO daily_deliveries (chat_id, day, created_at, closes_at) "
                                       "VALUES (?, ?, 0, 0) RETURNING id", (chat, DAY))) for chat in (10, 20))
        for delivery, questions in ((self.d1, self.q), (self.d2, self.q[:3:2])):
            for pos, question in enumerate(questions):
                db.rows("INSERT INTO daily_items (delivery_id, pos, question_id) VALUES (?, ?, ?)",
                        (delivery, pos, question))
        self.a1, self.a3 = (int(db.one("INSERT INTO attempts (user_id, chat_id, paper_id, mode, title, started_at) "
                                       "VALUES (?, ?, ?, 'exam', 'A', 0) RETURNING id", (user, user, self.paper)))
                            for user in (1, 3))
        for attempt, questions in ((self.a1, self.q), (self.a3, self.q[:1])):
            for pos, question in enumerate(questions):
                db.rows("INSERT INTO attempt_items (attempt_id, pos, question_id, section, points) "
                        "VALUES (?, ?, ?, 'S', 1)", (attempt, pos, question))

    def answers(self) -> None:
        """Answers in one statement each: daily ones over three quarter hours (1799.9 is still the
        first: a slot truncates), exam ones with one awaiting review."""
        q, d1, d2 = self.q, self.d1, self.d2
        self.db.rows(
            "INSERT INTO daily_answers (delivery_id, pos, user_id, chat_id, day, question_id, response, score, "
            "max_score, verdict, answered_at) VALUES "
            "(?, 0, 1, 10, ?, ?, '0', 1, 1, 'correct', 1000.5), (?, 1, 1, 10, ?, ?, '0', 0.5, 1, 'partial', 1799.9), "
            "(?, 2, 1, 10, ?, ?, '0', 0, 1, 'wrong', 1800), (?, 3, 1, 10, ?, ?, '0', 2, 2, 'correct', 1805.25), "
            "(?, 0, 2, 10, ?, ?, '0', 1, 1, 'correct', 1001), (?, 1, 1, 20, ?, ?, '0', 1, 1, 'correct', 1002)",
            (d1, DAY, q[0], d1, DAY, q[1], d1, DAY, q[2], d1, DAY, q[3], d1, DAY, q[0], d2, DAY, q[2]))
        self.db.rows(
            "INSERT INTO answers (attempt_id, pos, question_id, response, score, max_score, verdict, final, "
            "answered_at) VALUES (?, 0, ?, '0', 1, 1, 'correct', 1, 0), (?, 1, ?, '0', 0.5, 1, 'partial', 1, 0), "
            "(?, 2, ?, '0', 0, 1, 'needs_review', 0, 0), (?, 3, ?, '0', 2, 2, 'correct', 1, 0), "
            "(?, 0, ?, '0', 1, 1, 'correct', 1, 0)",
            (self.a1, q[0], self.a1, q[1], self.a1, q[2], self.a1, q[3], self.a3, q[0]))

    def rescored(self) -> None:
        self.db.rows("UPDATE daily_answers SET score = 1, verdict = 'correct' WHERE delivery_id = ? AND pos = 1",
                     (self.d1,))
        self.db.rows("UPDATE answers SET final = 1, score = 0.75, verdict = 'partial' "
                     "WHERE attempt_id = ? AND pos = 2", (self.a1,))
        self.db.rows("UPDATE answers SET score = 0.25 WHERE question_id = ?", (self.q[0],))  # two attempts

    def moved(self) -> None:
        """An answer to another quarter hour and another day; questions to another topic and section."""
        self.db.rows("UPDATE daily_answers SET answered_at = 2700.75 "
                     "WHERE delivery_id = ? AND pos = 0 AND user_id = 1", (self.d1,))
        self.db.rows("UPDATE daily_answers SET day = '2026-12-02' WHERE delivery_id = ? AND pos = 3", (self.d1,))
        self.db.rows("UPDATE questions SET topic = 'grad' WHERE id = ?", (self.q[0],))
        self.db.rows("UPDATE questions SET section_id = ? WHERE id = ?", (self.s2, self.q[1]))

    def deleted(self) -> None:
        self.db.rows("DELETE FROM daily_answers WHERE delivery_id = ? AND pos = 2", (self.d1,))
        self.db.rows("DELETE FROM answers WHERE attempt_id = ? AND pos = 3", (self.a1,))

    def cascades(self) -> None:
        """A member forgotten, a delivery and an attempt deleted: their answers go by cascade."""
        self.db.rows("DELETE FROM users WHERE id = 2")
        self.db.rows("DELETE FROM daily_deliveries WHERE id = ?", (self.d2,))
        self.db.rows("DELETE FROM attempts WHERE id = ?", (self.a3,))

    def steps(self) -> list[Callable[[], None]]:
        return [self.answers, self.rescored, self.moved, self.deleted, self.cascades]


def test_the_summaries_are_what_the_answers_sum_to(engine):
    record = Record(engine)
    for step in record.steps():
        step()
        assert held(engine) == expected(engine), step.__name__
        assert all(held(engine).values()), step.__name__  # nothing vacuous: every summary has rows
    record.db.rows("DELETE FROM users WHERE id = 1")
    assert held(engine) == expected(engine) == {"daily_scores": [], "daily_topics": [], "exam_topics": []}


def test_a_slot_truncates_the_time(engine):
    record = Record(engine)
    engine.rows("INSERT INTO daily_answers (delivery_id, pos, user_id, chat_id, day, question_id, response, score, "
                "max_score, verdict, answered_at) VALUES (?, 0, 1, 10, ?, ?, '0', 1, 1, 'correct', 1799.9)",
                (record.d1, DAY, record.q[0]))
    summaries = held(engine)
    assert summaries["daily_scores"] == [(10, 1, 1, DAY, 1, 1, 1, 1, 1799.9)]
    assert summaries["daily_topics"] == [(10, 1, 1, record.paper, record.s1, "loss", 1, 1, 1)]


def test_both_engines_keep_the_same_rows(pg_url):
    seen = []
    for db in (Engine(sqlite_migrated()), Engine(postgres_migrated(pg_url))):
        record = Record(db)
        steps = []
        for step in record.steps():
            step()
            steps.append(held(db))
        seen.append(steps)
        db.close()
    assert seen[0] == seen[1]


def test_a_new_question_takes_the_next_n_of_its_paper(engine):
    db = engine
    paper, other = a_paper(db, "a"), a_paper(db, "b")
    section, elsewhere = a_section(db, paper, 1), a_section(db, other, 1)
    first = [a_question(db, paper, section, n) for n in (1, 2, 3)]
    given = a_question(db, paper, section, 4, seq=10)
    after = a_question(db, paper, section, 5)
    db.rows("INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem, answer, points) "
            "VALUES ('x6', ?, ?, 6, 'single', 's', '0', 1), ('x7', ?, ?, 7, 'single', 's', '0', 1)",
            (paper, section, paper, section))
    two = [db.one("SELECT id FROM questions WHERE fingerprint = ?", (f,)) for f in ("x6", "x7")]
    own = a_question(db, other, elsewhere, 1)
    # a re-import's upsert is no insert: the question keeps its n
    db.rows("INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem, answer, points) "
            "VALUES (?, ?, ?, 1, 'single', 'new stem', '0', 1) "
            "ON CONFLICT (fingerprint) DO UPDATE SET stem = excluded.stem", (f"{paper}-{section}-1", paper, section))
    seqs = dict(db.rows("SELECT id, seq FROM questions"))
    assert [seqs[q] for q in (*first, given, after, *two, own)] == [1, 2, 3, 10, 11, 12, 13, 1]
    assert db.one("SELECT stem FROM questions WHERE id = ?", (first[0],)) == "new stem"


def test_a_new_paper_takes_the_first_free_code_from_its_id_on(engine):
    db = engine
    papers = [a_paper(db, "a"), a_paper(db, "b", "P3"), a_paper(db, "c"), a_paper(db, "d"),
              a_paper(db, "e", "P7"), a_paper(db, "f", "P8"), a_paper(db, "g")]
    db.rows("INSERT INTO papers (slug, title, imported_at) VALUES ('h', 'H', 0), ('i', 'I', 0)")
    # a re-import's upsert is no insert: the paper keeps its code
    db.rows("INSERT INTO papers (slug, title, imported_at) VALUES ('a', 'A again', 0) "
            "ON CONFLICT (slug) DO UPDATE SET title = excluded.title")
    assert papers == list(range(1, 8))
    assert db.rows("SELECT id, code, title FROM papers ORDER BY id") == [
        (1, "P1", "A again"), (2, "P3", "B"), (3, "P4", "C"), (4, "P5", "D"), (5, "P7", "E"), (6, "P8", "F"),
        (7, "P9", "G"), (8, "P10", "H"), (9, "P11", "I")]
