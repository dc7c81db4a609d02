"""A question as the /editq card shows it, in the admin's language (the terminal's own rendering is
bot/bank_cli.py's `render_question`)."""

from __future__ import annotations

from bank.kinds import CHOICE, Kind
from bank.models import Question
from bot.exam.render import short_section
from bot.i18n import joined, kind_name, t, tn


def question_text(q: Question, lang: str) -> str:
    """Where it sits, its kind and points, the stem, the options and the key, one language throughout."""
    src = q.source
    head = []  # the card's own head names the question's id
    if src is not None:
        head += [src.paper_title or src.paper, short_section(src.section_title) if src.section_title else str(src.section),
                 t("eq_q_place", lang, n=src.number)]
    head += [kind_name(q.kind, lang), tn("n_point", q.points, lang)] + ([t("eq_q_retired", lang)] if q.retired else [])
    lines = [" · ".join(head), "", q.stem]
    lines += [f"{chr(65 + i)}. {o}" for i, o in enumerate(q.options)]
    lines.append("")
    if q.kind in CHOICE or q.kind is Kind.truefalse:
        shown = t("eq_q_true" if q.answer else "eq_q_false", lang) if isinstance(q.answer, bool) else q.answer
        lines.append(t("eq_q_answer", lang, a=shown))
    elif q.kind is Kind.fill:
        blanks = [" / ".join(alts) for alts in q.answer] if isinstance(q.answer, list) else [str(q.answer)]
        lines += [t("eq_q_blank", lang, i=i, a=b) for i, b in enumerate(blanks, start=1)]
    elif q.kind is Kind.numerical and isinstance(q.answer, list):
        lines += [t("eq_q_answer", lang, a=v + (f" ± {tol}" if tol not in ("0", "") else "")) for v, tol in q.answer]
    elif q.kind is Kind.matching and isinstance(q.answer, list):
        lines += [t("eq_q_pair", lang, left=left or t("eq_q_distractor", lang), right=right) for left, right in q.answer]
    else:
        lines += [t("eq_q_reference", lang), str(q.answer)]
    if q.explanation:
        lines += ["", t("eq_q_explanation", lang), q.explanation]
    if q.weights:
        lines.append(t("eq_q_weights", lang, w=joined([f"{w:g}" for w in q.weights], lang)))
    if q.flags:
        lines += ["", t("eq_q_flags", lang, f=joined(q.flags, lang))]
    return "\n".join(lines)
