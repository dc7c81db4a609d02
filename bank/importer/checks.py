"""Checks over parsed sections: unusable keys, missing explanations, and a file cut off mid-question."""

from __future__ import annotations

from bank.import_notes import note
from bank.importer.raw import Ctx
from bank.kinds import CHOICE, SUBJECTIVE, Flag, Kind
from bank.models import Question, Section

_TERMINAL = tuple("。！？.!?）)」』”\"…$；;")


def flag_missing_explanations(questions: list[Question]) -> None:
    """Where a section explains some questions, the ones it leaves unexplained are flagged."""
    if any(q.explanation for q in questions):
        for q in questions:
            if not q.explanation:
                q.flags.append(Flag.no_explanation.value)


def check_keys(ctx: Ctx, where: str, section: Section, last_section: bool) -> None:
    """An objective question without a usable key cannot be imported, unless the file ends in
    its section (the cut-off question is flagged later). Raises ImportFailed."""
    for q in section.questions:
        place = f"{where}, question {q.number}"
        problem = _key_problem(q)
        if problem and not last_section:
            raise ctx.fail(place, problem)


def _key_problem(q: Question) -> str | None:
    if q.kind in CHOICE:
        if len(q.options) < 2:
            return "no options A., B., … found"
        if not q.answer or not isinstance(q.answer, str):
            return "no key (答案) for this question"
        if any(ord(c) - ord("A") >= len(q.options) for c in q.answer):
            return f"the key {q.answer} names an option the question does not have"
        if q.kind is Kind.single and len(q.answer) != 1:
            return f"a single-choice question with the key {q.answer}"
    elif q.kind is Kind.truefalse:
        if Flag.no_answer in q.flags or not isinstance(q.answer, bool):
            return "no true/false key (答案：√/×, 正確/錯誤) for this question"
    elif q.kind is Kind.fill and Flag.no_answer in q.flags:
        return "no key (答案) for this blank"
    return None


def mark_truncation(ctx: Ctx, where: str, section: Section) -> None:
    """The file ends mid-question when its last question is incomplete: flag it, never ask it.
    In the last section a key block cut off with the file leaves questions flagged no_answer.
    Raises ImportFailed for any other question of the section without a usable key."""
    last = section.questions[-1]
    if _looks_cut(last):
        last.flags.append(Flag.truncated.value)
        ctx.notes.append(note("cut_at_end", f"{where}, question {last.number}"))
    for q in section.questions:
        if Flag.truncated in q.flags or Flag.no_answer in q.flags:
            continue
        problem = _key_problem(q)
        if problem:
            raise ctx.fail(f"{where}, question {q.number}", problem)


def _looks_cut(q: Question) -> bool:
    if Flag.no_answer in q.flags or _key_problem(q):
        return True
    if q.kind in SUBJECTIVE:
        return not str(q.answer).rstrip().endswith(_TERMINAL)
    return bool(q.explanation) and not q.explanation.rstrip().endswith(_TERMINAL)
