"""What /bankstats reads, through the read rule (proctor/exams/visibility.py): the open disputes, the
questions whose statistics need a look, those their measured difficulty flags, the questions held for a
doubted key, and one
paper's statistics. Each is filtered by paper id, as the lens of the lead (or admin) decides for their team,
and leaves out the questions sealed for them; a read of a hiring paper's doubts (a doubt names the key)
is audited."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bank.item_stats import ItemStats, needs_attention
from bank.question_checks import Held
from bank.store import ids_in
from proctor.errors import ProctorError
from proctor.exams.visibility import Fact, Lens, Visibility, record_key_read_in
from proctor.storage.db import Database
from proctor.teams.disputes import Dispute, open_disputes
from proctor.teams.doubts import held as held_doubts
from proctor.teams.item_stats import item_stats
from proctor.teams.measured import Measured, measured

FLAGGED = 10  # questions their measure flags, at most, on the overview


class Withheld(ProctorError):
    """The read rule shows the viewer no statistics of this paper (a hiring paper their team is not
    verified for)."""


class Sealed(ProctorError):
    """A question of the paper is sealed for the viewer: their own exam on it runs."""


@dataclass(frozen=True, slots=True)
class Overview:
    disputes: list[Dispute]
    attention: list[ItemStats]  # questions whose statistics need a look
    held: list[Held]  # questions held out of use (a doubted key, a duplicate)
    flagged: list[tuple[ItemStats, Measured]]  # questions their measure flags (proctor/teams/measured.py)


async def _shown(db: Database, lens: Lens, fact: Fact) -> dict[int, int]:
    """question id -> paper id of the questions whose `fact` the lens shows, none sealed for its viewer."""
    rows = await db.fetchall(f"SELECT id, paper_id FROM questions WHERE paper_id IN ({ids_in(db.engine)}) "
                             f"AND id NOT IN ({ids_in(db.engine)})",
                             (lens.papers_showing(fact), lens.sealed_json()))
    return {r[0]: r[1] for r in rows}


async def overview(db: Database, lens: Lens, *, now: float) -> Overview:
    """The disputes, the questions to look at and the held ones the lens's viewer may read."""
    stats = await _shown(db, lens, Fact.item_stats)
    doubts = await _shown(db, lens, Fact.doubt)
    held = await held_doubts(db, lens)
    read: dict[int, list[int]] = {}  # paper -> the held questions whose doubt (a key) the viewer reads
    for h in held:
        if h.doubt and h.question_id in doubts:
            read.setdefault(doubts[h.question_id], []).append(h.question_id)

    def audit(conn: sqlite3.Connection) -> None:
        for paper_id, questions in read.items():
            record_key_read_in(conn, lens.viewer, lens.scope, lens.of(paper_id), questions, now=now)

    if any(lens.of(p).audited for p in read):
        await db.run_write(audit)
    every = await item_stats(db)
    measures = await measured(db, lens)
    flagged = [(s, measures[s.question_id]) for s in every
               if s.question_id in stats and not s.retired and s.question_id in measures
               and measures[s.question_id].flags]
    return Overview(await open_disputes(db, lens), [s for s in needs_attention(every) if s.question_id in stats],
                    held, flagged[:FLAGGED])


async def paper_stats(db: Database, vis: Visibility) -> list[ItemStats]:
    """Every question's statistics of the paper `vis` is about. Raises Sealed, Withheld."""
    if vis.paper_sealed:
        raise Sealed(str(vis.paper_id))
    if vis.paper_id is None or not vis.shows(Fact.item_stats):
        raise Withheld(str(vis.paper_id))
    return await item_stats(db, vis.paper_id)
