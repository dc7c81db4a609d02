"""The papers as /papers, /exam and /practice list them: one query, no question loaded.

A `PaperSummary` is what the list, the chooser and the rules card show and what their filters
need: the count and the points of the paper's askable questions (bank/paper_counts.py: not retired,
not held by the import checks, no flag that makes a question unaskable), as `load_paper` would count
them. A composed paper (/newpaper) counts its stored draw (composed_items, points as drawn),
like `load_paper` does for frozen and per-candidate papers alike.

Every paper has a code ("P3"), given once when it is first stored (migration 029) and never changed:
/papers, the exam chooser, /invites and `proctor bank list` show it, and `pick_paper` is the one
reading of a paper reference that every command and CLI takes: the code (also "p3" or "3"), the
slug, the title, or a part of the title that only one paper's title holds, in either script.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bank.errors import NotFound
from bank.paper_counts import PLACED_SQL, Standing
from bank.script import folded
from bank.store import Store


@dataclass(frozen=True, slots=True)
class PaperSummary:
    id: int
    code: str  # "P3": what people see and type
    slug: str
    title: str
    time_limit_min: int
    attempts_allowed: int | None  # None: unlimited
    exam_only: bool
    invite_only: bool
    askable: int  # how many questions can be asked
    max_score: float  # their points


# the count and points of each paper's askable questions (bank/paper_counts.py: where each one stands)
_SUMMARIES = f"""
SELECT p.id, p.code, p.slug, p.title, p.time_limit_min, p.attempts_allowed, p.exam_only, p.invite_only,
       x.askable, x.max_score
FROM papers p LEFT JOIN (SELECT paper_id, COUNT(*) AS askable, COALESCE(SUM(points), 0) AS max_score
                         FROM ({PLACED_SQL}) placed
                         WHERE standing = '{Standing.askable}' GROUP BY paper_id) x ON x.paper_id = p.id
WHERE ? = 1 OR p.blueprint IS NULL
ORDER BY p.id"""


async def paper_summaries(db: Store, *, composed: bool = False) -> list[PaperSummary]:
    """Every paper in import order, counted as its `load_paper` would count it (tests hold the two
    to agreeing), in one query; composed papers too if `composed` (as `list_papers`)."""
    return [PaperSummary(id=r["id"], code=r["code"], slug=r["slug"], title=r["title"], time_limit_min=r["time_limit_min"],
                         attempts_allowed=r["attempts_allowed"], exam_only=bool(r["exam_only"]),
                         invite_only=bool(r["invite_only"]), askable=r["askable"] or 0,
                         max_score=float(r["max_score"] or 0.0))
            for r in await db.fetchall(_SUMMARIES, (int(composed),))]


async def paper_summary(db: Store, paper_id: int) -> PaperSummary:
    """One paper's summary (composed ones too). Raises NotFound."""
    found = next((p for p in await paper_summaries(db, composed=True) if p.id == paper_id), None)
    if found is None:
        raise NotFound(str(paper_id))
    return found


async def offered_papers(db: Store, *, practice: bool = False) -> list[PaperSummary]:
    """The papers /papers, /exam and /practice offer: those with something to ask; exam-only (hiring)
    papers are never offered for practice, and invite-only ones never at all (only an invite opens them)."""
    return [p for p in await paper_summaries(db, composed=True)
            if p.askable and not (practice and p.exam_only) and not p.invite_only]


class AmbiguousPaper(NotFound):
    """A part of a title that several papers' titles hold; `matches` are those papers."""

    def __init__(self, key: str, matches: Sequence[PaperSummary]):
        self.key, self.matches = key, list(matches)
        super().__init__(f"“{key}” is in {len(self.matches)} titles: {codes_line(self.matches)}")


def codes_line(papers: Sequence[PaperSummary]) -> str:
    """"P1 Title one · P4 Title two": the one line an ambiguous reference gets."""
    return " · ".join(f"{p.code} {p.title}" for p in papers)


_CODE = re.compile(r"p?(\d+)")


def pick_paper(papers: Sequence[PaperSummary], key: str) -> PaperSummary:
    """The paper `key` names among `papers`: its code ("P3", "p3" or "3"), its slug, its whole title,
    or a part of its title that no other paper's title holds (case, and Simplified or Traditional
    characters, ignored).

    Raises NotFound, and AmbiguousPaper (a NotFound) for a part of several titles."""
    wanted = key.strip().casefold()
    if not wanted:
        raise NotFound("no paper named")
    if (m := _CODE.fullmatch(wanted)) is not None:
        code = f"P{int(m.group(1))}"
        if (hit := next((p for p in papers if p.code == code), None)) is not None:
            return hit
    hits = [p for p in papers if p.slug.casefold() == wanted]
    if len(hits) == 1:
        return hits[0]
    wanted, titles = folded(wanted), [(p, folded(p.title)) for p in papers]
    hits = [p for p, title in titles if title == wanted]
    if len(hits) == 1:
        return hits[0]
    hits = [p for p, title in titles if wanted in title]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousPaper(key.strip(), hits)
    raise NotFound(f"no paper {key.strip()!r}")


class InviteOnlyPaper(NotFound):
    """The reference names a paper that is offered nowhere because only an invite opens it."""

    def __init__(self, key: str):
        self.key = key
        super().__init__(f"{key!r} is taken by invitation only")


async def pick_offered(db: Store, key: str) -> PaperSummary:
    """The paper `key` names among those /exam offers (`offered_papers`, `pick_paper`'s reference).
    Raises NotFound, AmbiguousPaper, and InviteOnlyPaper when it names a paper only an invite opens
    (it exists: "no such paper" would be untrue)."""
    try:
        return pick_paper(await offered_papers(db), key)
    except AmbiguousPaper:
        raise
    except NotFound:
        try:
            named = pick_paper(await paper_summaries(db, composed=True), key)
        except NotFound:
            named = None
        if named is not None and named.invite_only:
            raise InviteOnlyPaper(key.strip()) from None
        raise


async def find_paper(db: Store, key: str) -> PaperSummary:
    """Any paper (composed, exam-only and invite-only ones too) by `pick_paper`'s reference.
    Raises NotFound, AmbiguousPaper."""
    return pick_paper(await paper_summaries(db, composed=True), key)
