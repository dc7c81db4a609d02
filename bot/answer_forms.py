"""Keys, numerical and matching questions on screen, for exams, practice and daily quizzes alike.

`shown_key` is the one rendering of a key for people: the exam's result and review, practice
feedback, a daily quiz's answer and a group quiz's close, and the /newquestion preview. `seen_text`
is the one rendering of options as a person saw them, letter and text, where a lead acts on an
answer or a key (the key-fix prompt, /review).

A matching question shows its left items numbered (1, 2, ...) and its choices lettered in the
order the attempt or quiz drew (A, B, ...); one button row per left item cycles its letter
(bank/matching_answer.py holds the rules). A numerical key shows every accepted value with its
tolerance, and the share of the marks of those worth less than full marks.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import InlineKeyboardButton as Button

from bank import matching_answer
from bank.grading.fill import fill_key_text
from bank.grading.numerical import accepted_values
from bank.kinds import CHOICE, Kind
from bank.models import Question
from bank.option_order import LETTERS, OptionOrder, SeenOption
from bank.script import to_script
from bot.i18n import joined, t
from bot.text_limits import clip

BUTTON_LEFT = 24  # characters of a left item on its button


def matching_body(q: Question, order: OptionOrder, script: str) -> list[str]:
    """The numbered left items, a blank line, then the lettered choices in the order shown."""
    found = matching_answer.choices(q)
    lines = [f"{i}. {to_script(left, script)}" for i, left in enumerate(matching_answer.left_items(q), 1)]
    lines.append("")
    for shown, stored in enumerate(order.order):
        at = LETTERS.find(stored)
        if 0 <= at < len(found):
            lines.append(f"{LETTERS[shown]}. {to_script(found[at], script)}")
    return lines


def pairs_text(pairs: list[tuple[int, str | None]], lang: str) -> str:
    """"1→B, 2→?, 3→A" ("1→B、2→?、3→A" in Chinese)."""
    return joined((f"{n}→{letter or '?'}" for n, letter in pairs), lang)


def matching_rows(q: Question, order: OptionOrder, draft: str, script: str,
                  data: Callable[[int], str]) -> list[list[Button]]:
    """One row per left item: its number, its text cut short, and the letter chosen so far;
    `data(i)` is the callback data of left item i's button."""
    cells = matching_answer.draft_pairs(draft, order) if draft else []
    rows = []
    for i, left in enumerate(matching_answer.left_items(q)):
        letter = cells[i][1] if i < len(cells) else None
        label = clip(to_script(left, script).replace("\n", " "), BUTTON_LEFT)
        rows.append([Button(f"{i + 1}. {label} → {letter or '?'}", callback_data=data(i))])
    return rows


def response_pairs(q: Question, order: OptionOrder, response: object, lang: str) -> str:
    return pairs_text(matching_answer.shown_pairs(q, order, response), lang)


def key_pairs(q: Question, order: OptionOrder, lang: str) -> str:
    return pairs_text([(n, letter) for n, letter in matching_answer.shown_key_pairs(q, order)], lang)


def numerical_key(q: Question) -> str:
    """"3.14 ± 0.01 / 3.1 (50%)": every value worth marks, the best first."""
    shown = []
    for value, tolerance, fraction in sorted(accepted_values(q), key=lambda v: -v[2]):
        if value is None or fraction <= 0:
            continue
        text = f"{value}" + (f" ± {tolerance}" if tolerance else "")
        if fraction < 1.0:
            text += f" ({round(fraction * 100):g}%)"
        shown.append(text)
    return " / ".join(shown) or str(q.answer)


def seen_text(seen: list[SeenOption], lang: str, script: str = "orig") -> str:
    """Options as the person saw them, with their texts: "C · 数据并行、D · 模型并行" (the desk's pages
    write the same `seen_option` for each)."""
    return joined((t("seen_option", lang, letter=o.letter, text=to_script(o.text, script)) for o in seen), lang)


def shown_key(q: Question, order: OptionOrder, lang: str, script: str = "orig", expected: str = "") -> str:
    """The key as the person read the question: the letters they saw, True/False, a maths key in plain
    text ("f(x)=1/(1+e^(-x))", never LaTeX), every accepted number, the pairs, or the reference text
    (`expected`: the grader's, when there is one) in their script."""
    if q.kind in CHOICE and isinstance(q.answer, str):
        letters = [c for c in q.answer.upper() if c.isalpha()]
        return joined(sorted(order.shown_letter(c) for c in letters if not order.order or c in order.order), lang)
    if q.kind == Kind.truefalse and isinstance(q.answer, bool):
        return t("tf_true" if q.answer else "tf_false", lang)
    if q.kind == Kind.fill:
        return to_script(fill_key_text(q.answer), script)
    if q.kind == Kind.numerical:
        return numerical_key(q)
    if q.kind == Kind.matching:
        return key_pairs(q, order, lang)
    return to_script(expected or str(q.answer), script)
