"""Papers written as GIFT. What GIFT cannot carry (fill-ins with several blanks, points, a
subjective question's reference answer, sections) is left out; the questions it cannot carry at
all are listed in the notes returned."""

from __future__ import annotations

from bank.formats.build import BLANK, effective_weights
from bank.formats.ref import ref_text
from bank.kinds import CHOICE, Kind
from bank.models import Paper, Question

_SPECIAL = str.maketrans({c: "\\" + c for c in "\\~=#{}:"})


def escape(text: str) -> str:
    return text.translate(_SPECIAL).replace("\n", "\\n")


def _pct(w: float) -> str:
    return f"{w * 100:.5f}".rstrip("0").rstrip(".")


def _answer(text: str, mark: str, weight: float | None, feedback: str, *,
            implied: float | None = None) -> str:
    """One answer: `mark`, an optional `%n%` weight, the text and `#feedback`. GIFT has no escape
    for `%`, and Moodle reads a leading `%n%` after `~` (and after `=` in short and numerical
    answers) as a weight. So a text starting with `%` gets its `implied` weight written out: Moodle's
    answerweightparser takes the first `%...%` pair as the weight and keeps the rest verbatim, and
    so does gift.py. (After `=` in a choice question Moodle reads no weight at all: pass no
    `implied` there.)"""
    if weight is None and implied is not None and text.lstrip().startswith("%"):
        weight = implied
    out = mark + (f"%{_pct(weight)}%" if weight is not None else "") + escape(text)
    return out + (f"#{escape(feedback)}" if feedback else "")


def _feedback(q: Question, i: int) -> str:
    return q.feedback[i] if i < len(q.feedback) else ""


def _block(q: Question) -> str | None:
    rows = q.answer if isinstance(q.answer, list) else []  # fill, numerical, matching
    if q.kind in CHOICE:
        weights = effective_weights(q)
        parts = []
        for i, option in enumerate(q.options):
            w = weights[i] if i < len(weights) else 0.0
            if q.kind is Kind.single and w >= 1.0:
                parts.append(_answer(option, "=", None, _feedback(q, i)))
            else:
                parts.append(_answer(option, "~", w if w else None, _feedback(q, i), implied=0.0))
        return " ".join(parts)
    if q.kind is Kind.truefalse:
        right, wrong = (_feedback(q, 0), _feedback(q, 1)) if q.answer else (_feedback(q, 1), _feedback(q, 0))
        out = "TRUE" if q.answer else "FALSE"
        if right or wrong:
            out += f"#{escape(wrong)}" + (f"#{escape(right)}" if right else "")
        return out
    if q.kind is Kind.fill:
        if not isinstance(q.answer, list) or len(q.answer) != 1:
            return None
        weights = effective_weights(q)
        return " ".join(_answer(form, "=", weights[i] if weights[i] != 1.0 else None, _feedback(q, i),
                                implied=1.0)
                        for i, form in enumerate(rows[0]))
    if q.kind is Kind.numerical:
        weights = effective_weights(q)
        parts, other = [], ""
        for i, (value, tolerance) in enumerate(rows):
            if value == "*":
                other = f" ~{'%' + _pct(weights[i]) + '%' if weights[i] else ''}#{escape(_feedback(q, i))}"
                continue
            weight = weights[i] if weights[i] != 1.0 else None
            parts.append(_answer(f"{value}:{tolerance}", "=", weight, _feedback(q, i)).replace("\\:", ":"))
        return "#" + " ".join(parts) + other
    if q.kind is Kind.matching:
        return " ".join(f"={escape(left)} -> {escape(right)}" for left, right in rows)
    return ""  # short, discussion, case: an essay


def paper_to_gift(paper: Paper, notes: list[str]) -> str:
    """One paper as GIFT text; what cannot be written is appended to `notes`."""
    lines = [f"// {paper.title} ({paper.slug})", ""]
    topic = ""
    for s_pos, section in enumerate(paper.sections, start=1):
        for q in section.questions:
            block = _block(q)
            if block is None:
                notes.append(f"{paper.place(s_pos, q.number)}: a fill-in with several blanks; "
                             "GIFT has no place for it")
                continue
            if q.topic != topic:
                topic = q.topic
                lines += [f"$CATEGORY: $course$/top/{topic}" if topic else "$CATEGORY: $course$/top", ""]
            if q.explanation:
                block += f" ####{escape(q.explanation)}"
            lines.append(f"// ref: {ref_text(paper.slug, s_pos, q)}")  # its identity (bank/formats/ref.py)
            head = f"::{escape(q.name)}::" if q.name else ""
            if q.stem.startswith("[") or (not head and q.stem.lstrip().startswith("//")):
                head += "[moodle]"
            if q.stem.count(BLANK) == 1 and q.kind in (Kind.single, Kind.fill):
                before, after = q.stem.split(BLANK)
                lines += [f"{head}{escape(before)}{{{block}}}{escape(after)}", ""]
            else:
                lines += [f"{head}{escape(q.stem)}{{{block}}}", ""]
    return "\n".join(lines)


def to_gift(papers: list[Paper]) -> tuple[str, list[str]]:
    notes: list[str] = []
    return "\n".join(paper_to_gift(p, notes) for p in papers), notes
