"""Crafted data for the leads tests: people, groups and papers through the domain's writers; rosters,
quizzes and exams with chosen scores and times as rows (the writers would grade and time them)."""

from __future__ import annotations

import itertools
import json

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from proctor.chats import chat_title, ensure_chat, note_member, set_timezone
from proctor.people.users import ensure_user, find_prefs
from proctor.storage.db import Database
from tests.old_rows import old_paper
from tests.papers_fixture import save_paper

_ids = itertools.count(1000)


class Crafted:
    """Builds users, groups, a paper, daily quizzes and exam attempts with chosen values."""

    def __init__(self, db: Database):
        self.db = db

    async def user(self, uid: int, name: str = "") -> int:
        """The user, named `name` (u<id> by default) if they are new; a known user keeps their name."""
        if await find_prefs(self.db, uid) is None:
            await ensure_user(self.db, uid, name or f"u{uid}", None, 0)
        return uid

    async def group(self, chat_id: int, title: str = "team", tz: str | None = None,
                    members: tuple[int, ...] = ()) -> int:
        if not await chat_title(self.db, chat_id):  # a known chat keeps its title and zone
            await ensure_chat(self.db, chat_id, "supergroup", title, 0)
            if tz is not None:

                def transaction(conn):
                    set_timezone(conn, chat_id, tz, 0)

                await self.db.run_write(transaction)
        for uid in members:
            await self.member(chat_id, uid)
        return chat_id

    async def member(self, chat_id: int, uid: int) -> None:
        await self.user(uid)
        await note_member(self.db, chat_id, uid, 0)

    async def roster(self, chat_id: int, *uids: int, status: str = "member", joined_at: float | None = -1) -> None:
        """Put users on the group's team roster: by default joined (both agreed, in the group) at time
        -1, before anything crafted; status 'pending' is a request, joined_at None an invitation not
        yet accepted. What /join and its acceptance write, without their audit entries."""
        for uid in uids:
            await self.user(uid)
            def place(c, uid=uid):
                c.execute("DELETE FROM team_roster WHERE chat_id = ? AND user_id = ?", (chat_id, uid))
                c.execute("INSERT INTO team_roster (chat_id, user_id, status, requested_at, joined_at) "
                          "VALUES (?,?,?,0,?)", (chat_id, uid, status, joined_at if status == "member" else None))
            await self.db.run_write(place)

    async def paper(self, slug: str = "ops", sections=(("single", 4), ("short", 2)),
                    points=(1.0, 5.0), options: tuple[str, ...] = (), subject: str = "") -> tuple[int, list[list[int]]]:
        """A paper with sections of `n` questions each (single-choice ones with `options`) and its
        `subject`; returns (paper id, question ids by section)."""
        paper = Paper(slug=slug, title=f"Paper {slug}", subject=subject, sections=[
            Section(kind=Kind(kind), title=f"{kind} part", questions=[
                Question(number=num, kind=Kind(kind), stem=f"Question {num} of {kind}", points=pts,
                         options=list(options) if kind == "single" else [],
                         answer="A" if kind == "single" else f"reference answer {num}")
                for num in range(1, n + 1)])
            for (kind, n), pts in zip(sections, points, strict=True)])
        pid = await self.save(paper)
        # read with SQL, not load_paper: test_roster_upgrade crafts papers on an older schema
        by_section: dict[int, list[int]] = {}
        for qid, section in await self.db.fetchall(
                "SELECT q.id, q.section_id FROM questions q JOIN sections s ON s.id = q.section_id "
                "WHERE q.paper_id=? ORDER BY s.position, q.number", (pid,)):
            by_section.setdefault(section, []).append(qid)
        return pid, list(by_section.values())

    async def save(self, paper: Paper) -> int:
        """`paper` stored as today's import stores it; its id."""
        return await save_paper(self.db, paper, 0)

    async def daily(self, chat_id: int, day: str, qids: list[int],
                    answers: list[tuple[int, int, float, float]], response: object = "A",
                    responses: dict[int, object] | None = None, held: bool = False) -> int:
        """One delivered quiz, closed and its keys posted (`held`: keys not posted yet); answers are
        (user, pos, score, answered_at), max 1 point each, each answer the user's `responses` entry,
        `response` if they have none."""

        def transaction(c):
            cur = c.execute(
                "INSERT INTO daily_deliveries (chat_id, day, status, created_at, closes_at, closed_at) "
                "VALUES (?,?, 'closed', 0, 0, ?) RETURNING id", (chat_id, day, None if held else 0))
            did = (cur.fetchone())[0]
            for pos, qid in enumerate(qids):
                c.execute("INSERT INTO daily_items (delivery_id, pos, question_id, message_id) "
                          "VALUES (?,?,?,?)", (did, pos, qid, next(_ids)))
            for uid, pos, score, at in answers:
                c.execute(
                    "INSERT INTO daily_answers (delivery_id, pos, user_id, chat_id, day, question_id, response, "
                    "score, max_score, verdict, answered_at) VALUES (?,?,?,?,?,?,?,?,1,?,?)",
                    (did, pos, uid, chat_id, day, qids[pos], json.dumps((responses or {}).get(uid, response)), score,
                     "correct" if score >= 1 else ("wrong" if score <= 0 else "partial"), at))
            return did

        return await self.db.run_write(transaction)

    async def exam(self, uid: int, paper_id: int, items: list[tuple[int, float, float, int]],
                   started: float, finished: float, status: str = "finished",
                   responses: list[object] | None = None, title: str = "Paper", section: str = "s") -> int:
        """A finished exam titled `title`; items are (question id, score, max, final), all in `section`;
        each answer is its `responses` entry ("my answer <pos>" by default; None: left unanswered)."""

        def transaction(c):
            cur = c.execute(
                "INSERT INTO attempts (user_id, chat_id, paper_id, mode, title, status, started_at, "
                "finished_at, score, max_score) VALUES (?,?,?, 'exam', ?, ?,?,?,?,?) RETURNING id",
                (uid, uid, paper_id, title, status, started, finished, sum(i[1] for i in items),
                 sum(i[2] for i in items)))
            aid = (cur.fetchone())[0]
            for pos, (qid, score, mx, final) in enumerate(items):
                c.execute("INSERT INTO attempt_items (attempt_id, pos, question_id, section, points) "
                          "VALUES (?,?,?,?,?)", (aid, pos, qid, section, mx))
                verdict = "needs_review" if not final else ("correct" if score >= mx else "wrong")
                if responses and responses[pos] is None:
                    continue  # left unanswered
                c.execute(
                    "INSERT INTO answers (attempt_id, pos, question_id, response, score, max_score, verdict, "
                    "final, answered_at) VALUES (?,?,?,?,?,?,?,?,?)",
                    (aid, pos, qid, json.dumps(responses[pos] if responses else f"my answer {pos}"), score, mx,
                     verdict, final, finished))
            return aid

        return await self.db.run_write(transaction)


class OldCrafted(Crafted):
    """Crafted's rows on a database at an older version: its users and papers are written by the
    statements of the releases before (today's `ensure_user` and `write_papers` write later columns)."""

    async def save(self, paper: Paper) -> int:
        return await old_paper(self.db, paper, 0)

    async def user(self, uid: int, name: str = "") -> int:

        def transaction(conn):
            conn.execute("INSERT OR IGNORE INTO users (id, first_name, username, created_at) VALUES (?,?,?,?)",
                         (uid, name or f"u{uid}", None, 0))

        await self.db.run_write(transaction)
        return uid


async def test_crafted_rows_satisfy_the_schema(db):
    c = Crafted(db)
    await c.group(-1, members=(1, 2))
    pid, qs = await c.paper()
    await c.daily(-1, "2025-03-03", qs[0][:2], [(1, 0, 1, 10.0), (2, 1, 0, 11.0)])
    await c.exam(1, pid, [(qs[0][0], 1, 1, 1), (qs[1][0], 2, 5, 0)], 0, 600)
    assert await db.scalar("PRAGMA foreign_key_check") is None
    assert await db.scalar("SELECT COUNT(*) FROM daily_answers") == 2
