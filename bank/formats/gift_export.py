"""Papers written as GIFT. What GIFT's own syntax has no place for (a paper, its section, subject and
settings, a question's ref, points, topic, a subjective question's kind and reference answer) is
written where Moodle looks for none: in the category path and in comment lines. A fill-in with several
blanks cannot be written; the summary returned counts it."""

from __future__ import annotations

from bank.formats.build import effective_weights
from bank.formats.paper_facts import category_path, one_line, settings_text
from bank.formats.ref import ref_text
from bank.formats.summary import ExportSummary, Reason
from bank.kinds import CHOICE, SUBJECTIVE, Kind
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


def _unwritable(q: Question) -> Reason | None:
    """Why GIFT cannot hold `q`: a fill-in of several blanks; a `->` in an accepted answer (the block
    would read as a matching one) or in a matching question's left side (GIFT has no escape for it)."""
    rows = q.answer if isinstance(q.answer, list) else []
    if q.kind is Kind.fill and len(rows) != 1:
        return Reason.several_blanks
    if (q.kind is Kind.fill and any("->" in form for form in rows[0])) or (
            q.kind is Kind.matching and any("->" in left for left, _ in rows)):
        return Reason.separators
    return None


def paper_to_gift(paper: Paper, summary: ExportSummary) -> str:
    """One paper as GIFT text: a category per section (`$course$/top/P3 title/section`), the paper's
    subject and settings as comments after its first category, and each question's ref, points, topic,
    kind (discussion, case) and reference answer as comments above it. What cannot be written is
    counted in `summary`."""
    summary.started(paper)
    lines = [f"// {one_line(paper.title)} ({paper.slug})", ""]
    head = [f"// subject: {one_line(paper.subject)}", f"// settings: {settings_text(paper.settings)}", ""]
    for s_pos, section in enumerate(paper.sections, start=1):
        blocks = []
        for q in section.questions:
            block = _block(q)
            if (why := _unwritable(q)) is not None or block is None:
                summary.leave_out(paper, s_pos, q.number, why or Reason.several_blanks)
                continue
            summary.wrote(paper)
            if q.explanation:
                block += f" ####{escape(q.explanation)}"
            blocks.append(f"// ref: {ref_text(paper.slug, s_pos, q)}")  # its identity (bank/formats/ref.py)
            blocks.append(f"// points: {q.points:g}")
            if q.topic:
                blocks.append(f"// topic: {one_line(q.topic)}")
            if q.kind in (Kind.discussion, Kind.case):
                blocks.append(f"// kind: {q.kind.value}")
            if q.kind in SUBJECTIVE and isinstance(q.answer, str) and q.answer:
                blocks.append(f"// reference: {one_line(q.answer)}")
            name = f"::{escape(q.name)}::" if q.name else ""
            if q.stem.startswith("[") or (not name and q.stem.lstrip().startswith(("//", "$"))):
                name += "[moodle]"
            # the answer block after the whole stem: a blank in the stem stays as it is written
            blocks += [f"{name}{escape(q.stem)}{{{block}}}", ""]
        if blocks:
            lines += [f"$CATEGORY: {category_path(paper.code, paper.title, section.title)}", "", *head, *blocks]
            head = []
    return "\n".join(lines)


def to_gift(papers: list[Paper], summary: ExportSummary) -> str:
    """The papers as one GIFT file; `summary` counts what was written and what was left out."""
    return "\n".join(paper_to_gift(p, summary) for p in papers)
