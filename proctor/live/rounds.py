"""A live round's rows: started, moved through its states, its polls posted and closed. Each change
is one transaction that checks the move against proctor/live/states.py.

A quiz poll shows the whole group its question, its key (to each player once they answered, to everyone
when it closes) and its explanation: a question is posted only while the read rule lets the group's
audience read all three (`may_post`, proctor/exams/visibility.py), asked when the round is drawn and
again just before each poll, since a member may have begun an exam on it since."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

from bank.models import Question
from bank.question_rows import QUESTION_SELECT, question_from_row
from bank.store import one_row
from proctor.errors import ProctorError
from proctor.exams.visibility import AUDIENCE, Fact, Visibility, visibility_in
from proctor.live import states
from proctor.live.model import ITEM_COLUMNS, ROUND_COLUMNS, Drawn, Item, Round, item_of, round_of
from proctor.live.plan import COUNTDOWN
from proctor.live.states import RUNNING, ItemStatus, RoundStatus, in_sql
from proctor.storage.db import Database

RECENT_ROUNDS = 5  # a group never sees a question again within its last this many rounds
POLL_FACTS = (Fact.question, Fact.key, Fact.explanation)  # what a quiz poll shows the group


def may_post(vis: Visibility, question_id: int) -> bool:
    """Whether a quiz poll of this question may be posted to the audience `vis` is of: never a hiring
    paper's, never one sealed for a known member of the group (they are sitting an exam on it)."""
    return all(vis.shows(fact, question_id) for fact in POLL_FACTS)


class AlreadyRunning(ProctorError):
    """The group has a round running: one at a time."""


class NoRound(ProctorError):
    """No such round (or the group has none running)."""


def _round(conn: sqlite3.Connection, round_id: int) -> Round:
    row = conn.execute(f"SELECT {ROUND_COLUMNS} FROM live_rounds WHERE id=?", (round_id,)).fetchone()
    if row is None:
        raise NoRound(str(round_id))
    return round_of(row)


def _items(conn: sqlite3.Connection, round_id: int) -> list[Item]:
    rows = conn.execute(f"SELECT {ITEM_COLUMNS} FROM live_items WHERE round_id=? ORDER BY pos", (round_id,))
    return [item_of(r) for r in rows.fetchall()]


def _item(conn: sqlite3.Connection, round_id: int, pos: int) -> Item:
    row = conn.execute(f"SELECT {ITEM_COLUMNS} FROM live_items WHERE round_id=? AND pos=?",
                       (round_id, pos)).fetchone()
    if row is None:
        raise NoRound(f"{round_id}/{pos}")
    return item_of(row)


async def start(db: Database, chat_id: int, lead_id: int, drawn: Sequence[Drawn], seconds: int,
                lang: str, script: str, now: float) -> Round:
    """A new round in the group, its questions stored. Raises AlreadyRunning."""
    def write(conn: sqlite3.Connection) -> Round:
        try:
            cur = conn.execute(
                """INSERT INTO live_rounds (chat_id, lead_id, status, questions, seconds, lang, script,
                       created_at, starts_at) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id""",
                (chat_id, lead_id, RoundStatus.countdown.value, len(drawn), seconds, lang, script, now,
                 now + COUNTDOWN))
        except sqlite3.IntegrityError:  # live_rounds_running: the group's round is still going
            raise AlreadyRunning(str(chat_id)) from None
        round_id = one_row(cur.fetchone())[0]
        conn.executemany(
            """INSERT INTO live_items (round_id, pos, question_id, option_order, correct, multiple, policy)
               VALUES (?,?,?,?,?,?,?)""",
            [(round_id, pos, d.question_id, d.option_order, json.dumps(sorted(d.correct)), int(d.multiple),
              d.policy.value) for pos, d in enumerate(drawn)])
        return _round(conn, round_id)
    return await db.run_write(write)


async def load(db: Database, round_id: int) -> tuple[Round, list[Item]]:
    """The round and its questions, in one trip. Raises NoRound."""
    return await db.run(lambda conn: (_round(conn, round_id), _items(conn, round_id)))


async def running(db: Database, chat_id: int) -> Round | None:
    """The group's running round, if any."""
    row = await db.fetchone(f"SELECT {ROUND_COLUMNS} FROM live_rounds WHERE chat_id=? AND status IN "
                            f"({in_sql(RUNNING)})", (chat_id,))
    return None if row is None else round_of(row)


async def latest(db: Database, chat_id: int) -> Round | None:
    """The group's newest round (running or not)."""
    row = await db.fetchone(f"SELECT {ROUND_COLUMNS} FROM live_rounds WHERE chat_id=? ORDER BY id DESC LIMIT 1",
                            (chat_id,))
    return None if row is None else round_of(row)


async def unfinished(db: Database) -> list[int]:
    """The rounds a start-up goes on with: running, or ended with their podium not posted yet."""
    rows = await db.fetchall(
        f"SELECT id FROM live_rounds WHERE status IN ({in_sql(RUNNING)}) "
        f"OR (podium_posted = 0 AND status IN ({in_sql((RoundStatus.finished, RoundStatus.stopped))}))")
    return [r[0] for r in rows]


async def recent_questions(db: Database, chat_id: int, rounds: int = RECENT_ROUNDS) -> set[int]:
    """The questions of the group's last `rounds` rounds."""
    rows = await db.fetchall(
        """SELECT i.question_id FROM live_items i WHERE i.round_id IN
           (SELECT id FROM live_rounds WHERE chat_id=? ORDER BY id DESC LIMIT ?)""", (chat_id, rounds))
    return {r[0] for r in rows}


async def _move_round(db: Database, round_id: int, move: Callable[[RoundStatus], RoundStatus],
                      now: float | None = None) -> tuple[Round, list[Item]]:
    """Move the round (one transaction); an ended round's unclosed questions close with it. Returns
    the round and the questions whose polls were open until now."""
    def write(conn: sqlite3.Connection) -> tuple[Round, list[Item]]:
        r = _round(conn, round_id)
        to = move(r.status)
        conn.execute("UPDATE live_rounds SET status=?, ended_at=COALESCE(?, ended_at) WHERE id=?",
                     (to.value, now if to in states.ENDED else None, round_id))
        was_open = [i for i in _items(conn, round_id) if i.status == ItemStatus.open]
        if to in states.ENDED:  # no question of an ended round is open any more
            conn.execute(f"UPDATE live_items SET status=?, closed_at=COALESCE(closed_at, ?) WHERE round_id=? "
                         f"AND status != '{ItemStatus.closed}'", (ItemStatus.closed.value, now, round_id))
        return _round(conn, round_id), was_open
    return await db.run_write(write)


async def announce(db: Database, round_id: int) -> None:
    """The countdown message is being sent: a restart does not send it again."""
    await db.run_write(lambda conn: conn.execute(
        f"UPDATE live_rounds SET announced=1 WHERE id=? AND status='{RoundStatus.countdown}'", (round_id,)))


async def begin(db: Database, round_id: int) -> Round:
    """The countdown is over. Raises IllegalTransition."""
    return (await _move_round(db, round_id, states.begin))[0]


async def finish(db: Database, round_id: int, now: float) -> Round:
    """Every question was asked. Raises IllegalTransition."""
    return (await _move_round(db, round_id, states.finish, now))[0]


async def stop(db: Database, round_id: int, now: float) -> tuple[Round, list[Item]]:
    """A lead ended the round early: its open poll (returned, for the bot to stop) closes now.
    Raises IllegalTransition."""
    return await _move_round(db, round_id, states.stop, now)


async def lose(db: Database, round_id: int, now: float) -> Round:
    """The bot may not post in the group any more: the round ends without a podium."""
    return (await _move_round(db, round_id, states.lose, now))[0]


async def podium_posted(db: Database, round_id: int) -> None:
    await db.run_write(lambda conn: conn.execute("UPDATE live_rounds SET podium_posted=1 WHERE id=?", (round_id,)))


async def set_standings(db: Database, round_id: int, message_id: int) -> None:
    await db.run_write(lambda conn: conn.execute(
        "UPDATE live_rounds SET standings_id=? WHERE id=?", (message_id, round_id)))


async def sending(db: Database, round_id: int, pos: int, now: float) -> Question | None:
    """Item `pos`'s poll is about to be posted (counted before the call): its question, read with the
    check. If the group may no longer read its key (`may_post`: a known member began an exam on it
    since the draw), the item is closed unasked instead and None returned. Raises IllegalTransition."""
    def write(conn: sqlite3.Connection) -> Question | None:
        item = _item(conn, round_id, pos)
        row = conn.execute(f"{QUESTION_SELECT} WHERE q.id=?", (item.question_id,)).fetchone()
        chat_id = _round(conn, round_id).chat_id
        if row is None or not may_post(visibility_in(conn, AUDIENCE, chat_id, row["paper_id"]), item.question_id):
            conn.execute("UPDATE live_items SET status=?, closed_at=? WHERE round_id=? AND pos=?",
                         (states.close(item.status).value, now, round_id, pos))
            return None
        conn.execute("UPDATE live_items SET status=? WHERE round_id=? AND pos=?",
                     (states.send(item.status).value, round_id, pos))
        return question_from_row(row)
    return await db.run_write(write)


async def opened(db: Database, round_id: int, pos: int, poll_id: str, message_id: int, posted_at: float,
                 seconds: int) -> Item:
    """Item `pos`'s poll is posted: its poll id maps poll_answer updates to it. Raises IllegalTransition."""
    def write(conn: sqlite3.Connection) -> Item:
        item = _item(conn, round_id, pos)
        to = states.open_(item.status)
        conn.execute("""UPDATE live_items SET status=?, poll_id=?, message_id=?, posted_at=?, closes_at=?
                        WHERE round_id=? AND pos=?""",
                     (to.value, poll_id, message_id, posted_at, posted_at + seconds, round_id, pos))
        return _item(conn, round_id, pos)
    return await db.run_write(write)


async def close_item(db: Database, round_id: int, pos: int, now: float) -> Item:
    """Item `pos`'s time is over (or its poll could not be posted). Raises IllegalTransition."""
    def write(conn: sqlite3.Connection) -> Item:
        item = _item(conn, round_id, pos)
        to = states.close(item.status)
        conn.execute("UPDATE live_items SET status=?, closed_at=? WHERE round_id=? AND pos=?",
                     (to.value, now, round_id, pos))
        return _item(conn, round_id, pos)
    return await db.run_write(write)
