"""An exported file imported back: what it changes in the papers it came from.

Each question of the file that carries an identity (`Question.origin`, bank/formats/ref.py) is compared
with the same question as that format would carry it now (the paper exported in the file's format and
read back: the baseline), so what a format leaves out (GIFT's points, a sheet's weights) is never taken
for an edit, and a field counts as edited only where the file differs from the baseline. Pure: the
caller reads the papers and writes the changes (proctor/teams/file_edits.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from bank.errors import BankError, ImportFailed
from bank.kinds import fingerprint
from bank.models import Paper, Question

# the text and key, versioned as /editq versions them (bank/question_versions.py)
VERSIONED = ("stem", "options", "answer", "explanation")
# the rest a file may carry, written in place as a re-import writes them
PLAIN = ("points", "topic", "difficulty", "name", "weights", "feedback", "flags")
NAMES = {"answer": "key"}  # how a field is called where a lead reads it


class Outdated(BankError):
    """A question of the file was edited in the bank since the file was exported."""


@dataclass(frozen=True)
class Change:
    """One question of the bank and what the file changes in it."""

    old: Question
    new: Question  # the old one with the file's edits
    fields: tuple[str, ...]  # in VERSIONED + PLAIN order

    @property
    def versioned(self) -> bool:
        return any(f in VERSIONED for f in self.fields)

    @property
    def key_changed(self) -> bool:
        return "answer" in self.fields

    def describe(self) -> str:
        return ", ".join(NAMES.get(f, f) for f in self.fields)


@dataclass(frozen=True)
class PaperChanges:
    """What a file changes in one paper: edited questions, questions it adds, and counts."""

    paper: Paper  # as the bank holds it now (retired questions included)
    changes: list[Change]
    added: list[Question]  # no identity in this paper: new questions
    unchanged: int
    not_in_file: int  # the paper's questions the file does not hold: left as they are


def origin_fingerprint(q: Question) -> str | None:
    o = q.origin
    return None if o is None else fingerprint(o.paper, o.section, o.number)


def by_fingerprint(papers: list[Paper]) -> dict[str, Question]:
    return {fp: q for p in papers for q in p.questions() if (fp := origin_fingerprint(q)) is not None}


def changes_to(paper: Paper, incoming: list[Question], baseline: dict[str, Question], *, file: str) -> PaperChanges:
    """What `incoming` (the file's questions naming `paper` or new) changes in `paper`. `baseline`: the
    paper's questions as the file's format carries them now, by fingerprint. Raises Outdated, ImportFailed."""
    current = {_identity(paper, pos, q): q for pos, s in enumerate(paper.sections, start=1) for q in s.questions
               if q.source is not None}
    changes: list[Change] = []
    added: list[Question] = []
    unchanged = 0
    seen: set[str] = set()
    for q in incoming:
        fp = origin_fingerprint(q)
        old = current.get(fp) if fp is not None else None
        if fp is None or old is None:
            added.append(q)
            continue
        if fp in seen:
            raise ImportFailed(file, _where(q), f"the question with bank id #{old.id} appears twice in the file")
        seen.add(fp)
        base = baseline.get(fp)
        if base is None:  # the format cannot carry it now (e.g. flagged since): nothing to compare with
            raise ImportFailed(file, _where(q), f"the question with bank id #{old.id} cannot be carried by this format now; "
                                                "export the paper again")
        fields = tuple(f for f in VERSIONED + PLAIN if getattr(q, f) != getattr(base, f))
        if q.kind is not base.kind:
            raise ImportFailed(file, _where(q), f"the question with bank id #{old.id} is a {old.kind.value} question; a question "
                                                "keeps its kind (add a new one instead)")
        if not fields:
            unchanged += 1
            continue
        if q.version != old.version:
            raise Outdated(f"{file}: the question with bank id #{old.id} was edited since the file was exported (version "
                           f"{old.version} now, the file has version {q.version}); export again and redo the edit")
        changes.append(Change(old, old.model_copy(update={f: getattr(q, f) for f in fields}), fields))
    left_out = sum(1 for fp, q in current.items() if fp not in seen and not q.retired)
    return PaperChanges(paper, changes, added, unchanged, left_out)


def _identity(paper: Paper, section: int, q: Question) -> str:
    """The question's identity in a file of `paper`: where it stands at home (its `source`); a composed
    paper's questions come from other papers, and its file names them by their place in it
    (bank/paper_store.py numbers them so)."""
    return fingerprint(paper.slug, section, q.number) if paper.blueprint is not None else q.fingerprint


def _where(q: Question) -> str:
    o = q.origin
    return f"question {o.paper}/s{o.section}/q{o.number}" if o else f"question {q.number}"
