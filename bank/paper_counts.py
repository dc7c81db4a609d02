"""What a paper holds, counted one way: every question stands in exactly one of four places.

- *askable*: asked in exams, practice and daily quizzes;
- *held* by the import checks until a lead confirms its key, or for good when it repeats an earlier
  question of its paper (bank/question_checks.py);
- *unaskable* for its text: cut off at the end of its file, garbled beyond repair, or without a key
  (bank.kinds.UNASKABLE);
- *retired* by a lead.

Retired comes before unaskable, and unaskable before held: a question is counted once, where the
first of these puts it. Apart from the standings: questions whose garbled text was *repaired* and
those *without an explanation* (both may be asked), and the askable ones *not yet asked* (on nobody's
sheet, in no daily quiz, in no live round: the proctoring domain knows, proctor/teams/paper_counts.py).

`tally` counts questions in Python; `TALLY_SQL` is its twin over the stored bank (a test holds the two
equal on the bundled bank), and `ASKABLE_SQL` the one condition the paper list and the daily pool use.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum

from bank.kinds import Flag
from bank.models import Paper, Question
from bank.question_checks import HELD_DUPLICATE, analyse, held_reason
from bank.store import Store, ids_in


class Standing(StrEnum):
    askable = "askable"
    held = "held"
    unaskable = "unaskable"
    retired = "retired"


# why a question is unaskable, in the order that names one reason when it has several
UNASKABLE_ORDER = (Flag.truncated, Flag.corrupted, Flag.no_answer)


def unaskable_reason(flags: Iterable[str]) -> Flag | None:
    """The first flag that keeps a question from being asked (truncated, corrupted, no key), or None."""
    have = set(flags)
    return next((f for f in UNASKABLE_ORDER if f in have), None)


def standing_of(*, retired: bool, flags: Iterable[str], held: str) -> Standing:
    """Where a question stands: retired, else unaskable (its flags), else held (`held`: its checks'
    'key' or 'duplicate'), else askable."""
    if retired:
        return Standing.retired
    if unaskable_reason(flags) is not None:
        return Standing.unaskable
    return Standing.held if held else Standing.askable


def standing(q: Question, held: str | None = None) -> Standing:
    """Where `q` stands; `held`: its held state when `q` does not carry it (None: `q.held`)."""
    return standing_of(retired=q.retired, flags=q.flags, held=q.held if held is None else held)


@dataclass(frozen=True, slots=True)
class Tally:
    """How many questions stand where (the four standings, held and unaskable by their reasons), how many
    were repaired or have no explanation, and how many askable ones were never asked (None: not known,
    as for a file not yet imported)."""

    askable: int = 0
    held_key: int = 0
    held_duplicate: int = 0
    truncated: int = 0
    garbled: int = 0  # Flag.corrupted
    no_key: int = 0  # Flag.no_answer
    retired: int = 0
    repaired: int = 0
    no_explanation: int = 0
    not_yet_asked: int | None = None
    points: float = 0.0  # the askable questions' points: the paper's maximum score

    @property
    def held(self) -> int:
        return self.held_key + self.held_duplicate

    @property
    def unaskable(self) -> int:
        return self.truncated + self.garbled + self.no_key

    @property
    def total(self) -> int:
        return self.askable + self.held + self.unaskable + self.retired

    def of(self, s: Standing) -> int:
        """How many questions stand at `s`."""
        return {Standing.askable: self.askable, Standing.held: self.held, Standing.unaskable: self.unaskable,
                Standing.retired: self.retired}[s]

    def __add__(self, other: Tally) -> Tally:
        summed = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)
                  if f.name != "not_yet_asked"}
        asked = (None if self.not_yet_asked is None or other.not_yet_asked is None
                 else self.not_yet_asked + other.not_yet_asked)
        return Tally(**summed, not_yet_asked=asked)


def tally(questions: Iterable[Question], held: Mapping[int, str] | None = None,
          asked: Collection[int] | None = None) -> Tally:
    """Count `questions`. `held`: question id -> its held state ('key', 'duplicate', ''), when the
    questions do not carry it (None: each question's `held`); `asked`: the ids of the questions ever
    asked (None: not known, `not_yet_asked` is None then)."""
    counts = dict.fromkeys((f.name for f in fields(Tally) if f.name not in ("not_yet_asked", "points")), 0)
    points = 0.0
    not_asked = 0
    for q in questions:
        state = q.held if held is None else held.get(q.id or 0, "")
        match standing(q, state):
            case Standing.retired:
                counts["retired"] += 1
            case Standing.unaskable:
                counts[_REASON_FIELD[unaskable_reason(q.flags) or Flag.no_answer]] += 1
            case Standing.held:
                counts["held_duplicate" if state == HELD_DUPLICATE else "held_key"] += 1
            case Standing.askable:
                counts["askable"] += 1
                points += q.points
                not_asked += asked is not None and (q.id is None or q.id not in asked)
        counts["repaired"] += Flag.repaired in q.flags
        counts["no_explanation"] += not q.explanation
    return Tally(**counts, points=points, not_yet_asked=None if asked is None else not_asked)


_REASON_FIELD = {Flag.truncated: "truncated", Flag.corrupted: "garbled", Flag.no_answer: "no_key"}


def tally_parsed(paper: Paper) -> Tally:
    """A paper not yet written (a dry run, an upload's preview), counted as it will stand once stored:
    held as the import checks will hold its questions, none of their keys confirmed yet."""
    placed = [q.model_copy(update={"id": i}) for i, q in enumerate(paper.questions())]
    checks = analyse(placed)
    return tally(placed, {i: held_reason(checks[i], "", None) for i in checks})


# ---- the SQL twin -------------------------------------------------------------------------------

def _has(flag: Flag, flags: str) -> str:
    # flags: a JSON array of flag names (words), so the quoted name is in it or not; the form both engines take
    return f"""{flags} LIKE '%"{flag.value}"%'"""


def _reason(flags: str) -> str:
    return "CASE " + " ".join(f"WHEN {_has(f, flags)} THEN '{f.value}'" for f in UNASKABLE_ORDER) + " END"


def _standing(retired: str, flags: str, held: str) -> str:
    """`standing_of` in SQL, over the given columns (a question the checks have not seen holds nothing)."""
    unaskable = " OR ".join(_has(f, flags) for f in UNASKABLE_ORDER)
    return (f"CASE WHEN {retired} != 0 THEN '{Standing.retired}' "
            f"WHEN {flags} != '[]' AND ({unaskable}) THEN '{Standing.unaskable}' "
            f"WHEN COALESCE({held}, '') != '' THEN '{Standing.held}' ELSE '{Standing.askable}' END")


# a question q is askable, with its checks c: the daily pool's condition (proctor/daily/candidates.py)
ASKABLE_SQL = f"({_standing('q.retired', 'q.flags', 'c.held')}) = '{Standing.askable}'"

# every paper's questions, each with where it stands: an imported paper's own (under its sections), a
# composed paper's drawn ones (each still in its own paper and section, points as drawn), as
# bank.paper_store.load_paper reads them. Columns: paper_id, id, points, held, flags, unexplained, standing.
PLACED_SQL = f"""
SELECT x.paper_id, x.id, x.points, x.held, x.flags, x.unexplained,
       {_standing('x.retired', 'x.flags', 'x.held')} AS standing
FROM (SELECT q.paper_id AS paper_id, q.id, q.retired, q.flags, q.points, c.held, q.explanation = '' AS unexplained
      FROM questions q JOIN sections s ON s.id = q.section_id AND s.paper_id = q.paper_id
      LEFT JOIN question_checks c ON c.question_id = q.id
      UNION ALL
      SELECT i.paper_id, q.id, q.retired, q.flags, i.points, c.held, q.explanation = ''
      FROM composed_items i JOIN questions q ON q.id = i.question_id
      JOIN sections s ON s.id = q.section_id LEFT JOIN question_checks c ON c.question_id = q.id) x"""


def _count(where: str) -> str:
    return f"COUNT(x.id) FILTER (WHERE {where})"


_UNASKABLE_FOR = f"x.standing = '{Standing.unaskable}' AND ({_reason('x.flags')}) = "
_HELD = f"x.standing = '{Standing.held}' AND x.held "
_ASKABLE = f"x.standing = '{Standing.askable}'"

# one row per paper (of the JSON array :papers; NULL: every paper) with its tally; {asked}: a SELECT of
# the ids of the questions ever asked; {papers}: a SELECT of the ids in :papers (bank.store.ids_in)
_TALLY_SQL = f"""
SELECT p.id AS paper_id, t.* FROM papers p LEFT JOIN (
  SELECT x.paper_id AS of_paper, {_count(_ASKABLE)} AS askable,
         {_count(_HELD + f"!= '{HELD_DUPLICATE}'")} AS held_key,
         {_count(_HELD + f"= '{HELD_DUPLICATE}'")} AS held_duplicate,
         {_count(_UNASKABLE_FOR + f"'{Flag.truncated}'")} AS truncated,
         {_count(_UNASKABLE_FOR + f"'{Flag.corrupted}'")} AS garbled,
         {_count(_UNASKABLE_FOR + f"'{Flag.no_answer}'")} AS no_key,
         {_count(f"x.standing = '{Standing.retired}'")} AS retired,
         {_count(_has(Flag.repaired, 'x.flags'))} AS repaired,
         {_count('x.unexplained')} AS no_explanation,
         {_count(_ASKABLE + " AND x.id NOT IN ({asked})")} AS not_yet_asked,
         COALESCE(SUM(x.points) FILTER (WHERE {_ASKABLE}), 0) AS points
  FROM ({PLACED_SQL}) x GROUP BY x.paper_id) t ON t.of_paper = p.id
WHERE CAST(:papers AS TEXT) IS NULL OR p.id IN ({{papers}})
ORDER BY p.id"""

_NOTHING_ASKED = "SELECT CAST(NULL AS INTEGER) WHERE 1 = 0"


async def tallies(db: Store, paper_ids: Collection[int] | None = None, *,
                  asked_sql: str | None = None) -> dict[int, Tally]:
    """Every paper's tally (of `paper_ids` only, if given) by paper id, in one query; `asked_sql`: a
    SELECT of the ids of the questions ever asked (the proctoring domain's: proctor/teams/paper_counts.py;
    None: `not_yet_asked` is None)."""
    sql = _TALLY_SQL.replace("{asked}", asked_sql or _NOTHING_ASKED).replace("{papers}", ids_in(db.engine, ":papers"))
    rows = await db.fetchall(sql,
                             {"papers": None if paper_ids is None else json.dumps(sorted(paper_ids))})
    return {r["paper_id"]: Tally(**{name: r[name] or 0 for name in _COUNTED},
                                 not_yet_asked=(r["not_yet_asked"] or 0) if asked_sql else None,
                                 points=float(r["points"] or 0.0))
            for r in rows}


_COUNTED = ("askable", "held_key", "held_duplicate", "truncated", "garbled", "no_key", "retired", "repaired",
            "no_explanation")
