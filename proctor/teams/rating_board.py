"""A team's rating board (docs/ratings.md, "Who sees which rating" and "Boards"): each member's rating
read only from the answers the team may read, against the questions' difficulties as they stand.

What the team may read is the rule every other team reader asks: the roster's consent (joined, still
in the group, and only what was done after joining: proctor/teams/consent.py) and the read rule's
`Fact.others_answers` for the team's leads (proctor/exams/visibility.py: a hiring paper's answers only
for a team verified for it). A topic narrows it to the questions whose topic (bank/topics.py: their
own, else their paper's subject; never a section heading) the words name, in either script. Members whose rating is still provisional are listed apart, unranked; the settled ones are
ranked by rating. Who is named where is the caller's: the group's board names only the members who
chose it (proctor/ratings/listing.py), the leads' desk names everyone."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from bank.store import Engine, engine_of, ids_in, texts_in
from bank.topics import names_topic, topic_sql
from proctor.exams.visibility import Fact, Role, Viewer, lens_in
from proctor.ratings.events import BEGAN
from proctor.ratings.listing import LISTED
from proctor.ratings.shown import Shown, shown_in
from proctor.storage.db import Database
from proctor.teams.consent import member_ids_sql, seen_sql

LEADS = Viewer(Role.lead)  # what a team may read: its leads' view (no seal applies to others' answers)

# the questions on one of the topics in :topics (a JSON list), by bank/topics.py's rule
_ON_TOPICS = {engine: (f"q.id IN (SELECT q.id FROM questions q JOIN papers p ON p.id = q.paper_id "
                       f"WHERE {topic_sql('q', 'p')} IN ({texts_in(engine, ':topics')}))")
              for engine in Engine}


@dataclass(frozen=True, slots=True)
class Rated:
    """One member on a team's board: their place among the settled ratings (None: provisional)."""

    rank: int | None
    user_id: int
    name: str
    shown: Shown
    listed: bool  # chose to be named on the group's board (/rating public)


@dataclass(frozen=True, slots=True)
class RatingBoard:
    ranked: list[Rated]  # the settled ratings, best first
    provisional: list[Rated]  # listed apart, best first

    def place(self, user_id: int) -> Rated | None:
        """The member's row, if the team rates them."""
        return next((r for r in (*self.ranked, *self.provisional) if r.user_id == user_id), None)

    def named(self) -> RatingBoard:
        """The board a group reads: only the members who chose to be listed, ranked among themselves."""
        ranked = [r for r in self.ranked if r.listed]
        return RatingBoard([Rated(n, r.user_id, r.name, r.shown, True) for n, r in enumerate(ranked, 1)],
                           [r for r in self.provisional if r.listed])


def team_board_in(conn: sqlite3.Connection, chat_id: int, now: float, topic: str = "") -> RatingBoard:
    """The board of team `chat_id` (a group's chat id), on the database thread."""
    lens = lens_in(conn, LEADS, chat_id)
    where = (f"e.user_id IN ({member_ids_sql(':chat')}) AND {seen_sql('e.user_id', f'({BEGAN})', ':chat')} "
             f"AND q.paper_id IN ({ids_in(engine_of(conn), ':papers')})")
    params: dict[str, object] = {"chat": chat_id, "papers": lens.papers_showing(Fact.others_answers)}
    if topic.strip():
        where += f" AND {_ON_TOPICS[engine_of(conn)]}"
        params["topics"] = json.dumps(_topics_named(conn, topic))
    ratings = shown_in(conn, where, params)
    if not ratings:
        return RatingBoard([], [])
    people = {r[0]: (r[1], bool(r[2])) for r in conn.execute(
        f"SELECT u.id, COALESCE(NULLIF(u.first_name, ''), u.username, ''), u.id IN ({LISTED}) FROM users u "
        f"WHERE u.id IN ({ids_in(engine_of(conn))})", (json.dumps(list(ratings)),))}
    shown = sorted(((uid, Shown.of(r, now)) for uid, r in ratings.items()), key=lambda x: (-x[1].mean, x[0]))
    settled = [(uid, s) for uid, s in shown if not s.provisional]
    return RatingBoard(
        [Rated(n, uid, people[uid][0], s, people[uid][1]) for n, (uid, s) in enumerate(settled, 1)],
        [Rated(None, uid, people[uid][0], s, people[uid][1]) for uid, s in shown if s.provisional])


def _topics_named(conn: sqlite3.Connection, words: str) -> list[str]:
    """The bank's topics that `words` name (`names_topic`: a part of one, case and script ignored)."""
    topics = conn.execute(f"SELECT DISTINCT {topic_sql('q', 'p')} FROM questions q "
                          "JOIN papers p ON p.id = q.paper_id").fetchall()
    return [t for (t,) in topics if t and names_topic(words, t)]


async def team_board(db: Database, chat_id: int, now: float, topic: str = "") -> RatingBoard:
    """`team_board_in` in one read."""
    return await db.run(lambda conn: team_board_in(conn, chat_id, now, topic))
