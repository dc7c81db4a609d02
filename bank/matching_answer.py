"""A matching question as the bot asks it: left items, the right items to pick from, and drafts.

The left items are the key's pairs with a non-blank left, in the paper's order; the choices are
the key's distinct right items (distractors too), in order of first appearance, at most 26 (A–Z).
An attempt or a daily quiz shows the choices in an `OptionOrder` of its own (shown letter i is
stored choice letter order[i]).

A half-made answer is a draft string, one character per left item: the stored letter of the
choice picked for it in lower case (a multiple-choice draft is upper case: a draft says which it
is), or "-" for none yet ("" when nothing is picked). It is what a restart
keeps; `draft_response` turns it into what the grader takes: the chosen right items in the order
of the left items (None for a left item left open).
"""

from __future__ import annotations

from bank.kinds import Kind
from bank.models import Question
from bank.option_order import LETTERS, MAX_OPTIONS, OptionOrder

OPEN = "-"  # a left item with no choice yet


def _pairs(answer: object) -> list[tuple[str, str]]:
    if not isinstance(answer, list):
        return []
    return [(str(p[0]), str(p[1])) for p in answer if isinstance(p, list) and len(p) == 2]


def left_items(question: Question) -> list[str]:
    return [left for left, _ in _pairs(question.answer) if left.strip()][:MAX_OPTIONS]


def choices_of(answer: object) -> list[str]:
    """The distinct right items, distractors too, in order of first appearance (at most 26)."""
    seen: list[str] = []
    for _, right in _pairs(answer):
        if right.strip() and right not in seen:
            seen.append(right)
    return seen[:MAX_OPTIONS]


def choices(question: Question) -> list[str]:
    return choices_of(question.answer)


def shown_count(kind: Kind, options: list[str], answer: object) -> int:
    """How many letters an option order needs: the options of a choice question, the choices of a
    matching question."""
    return len(choices_of(answer)) if kind == Kind.matching else len(options)


def cycle(question: Question, order: OptionOrder, draft: str, left: int) -> str | None:
    """The draft after the button of left item `left` is pressed: its choice moves to the next one
    shown (from none to the first, from the last back to the first). None: no such left item."""
    n_left = len(left_items(question))
    if not 0 <= left < n_left or not len(order):
        return None
    cells = list(draft) if len(draft) == n_left else [OPEN] * n_left
    at = order.order.find(cells[left].upper()) if cells[left] != OPEN else -1
    cells[left] = order.order[(at + 1) % len(order)].lower()
    return "".join(cells)


def draft_response(question: Question, draft: str) -> list[str | None]:
    """What the grader takes for a draft: the chosen right item per left item (None: open)."""
    found = choices(question)
    out: list[str | None] = []
    for i in range(len(left_items(question))):
        c = draft[i] if i < len(draft) else OPEN
        at = LETTERS.find(c.upper()) if c != OPEN else -1
        out.append(found[at] if 0 <= at < len(found) else None)
    return out


def response_draft(question: Question, response: object) -> str:
    """The draft that shows a stored answer again (the buttons of an answered question)."""
    if not isinstance(response, list):
        return ""
    found = choices(question)
    cells = [LETTERS[found.index(r)].lower() if isinstance(r, str) and r in found else OPEN
             for r in response[:len(left_items(question))]]
    draft = "".join(cells).ljust(len(left_items(question)), OPEN)
    return "" if set(draft) <= {OPEN} else draft


def is_matching_draft(draft: str) -> bool:
    return any(c == OPEN or c.islower() for c in draft)


def draft_pairs(draft: str, order: OptionOrder) -> list[tuple[int, str | None]]:
    """(left number from 1, the shown letter of the choice, None: open) per left item of a draft."""
    return [(i + 1, None if c == OPEN else order.shown_letter(c.upper())) for i, c in enumerate(draft)]


def shown_pairs(question: Question, order: OptionOrder, response: object) -> list[tuple[int, str | None]]:
    """(left number from 1, the shown letter of the choice) per left item of a stored answer."""
    return draft_pairs(response_draft(question, response) or OPEN * len(left_items(question)), order)


def shown_key_pairs(question: Question, order: OptionOrder) -> list[tuple[int, str]]:
    """(left number from 1, the shown letter of its right item) per left item of the key."""
    found = choices(question)
    out = []
    for i, (_, right) in enumerate(p for p in _pairs(question.answer) if p[0].strip()):
        if i >= MAX_OPTIONS:
            break
        out.append((i + 1, order.shown_letter(LETTERS[found.index(right)]) if right in found else "?"))
    return out
