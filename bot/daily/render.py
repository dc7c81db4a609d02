"""Pure rendering of the daily quiz: question messages, keyboards, toasts, summaries and keys."""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.grading.result import Verdict
from bank.kinds import CHOICE, Kind
from bank.matching_answer import draft_pairs
from bank.models import Question
from bank.option_order import LETTERS, OptionOrder
from bank.question_ref import QuestionRef
from bank.script import to_script
from bot import answer_forms
from bot.catalogue.marks import TICKED
from bot.daily import callbacks as cb
from bot.i18n import joined, t
from bot.letter_rows import letter_rows
from bot.text_limits import MAX_ECHO, MAX_TOAST, clip, utf16_len
from proctor.daily.answers import Answer, Standing
from proctor.daily.steps import Action

MAX_KEY_EXPLANATION = 300


@dataclass(frozen=True, slots=True)
class View:
    """One question of a day's quiz as the chat sees it."""

    question: Question
    delivery_id: int
    pos: int
    total: int
    option_order: str  # shown letter i is original letter option_order[i]

    @property
    def order(self) -> OptionOrder:
        return OptionOrder.of(self.option_order, self.question.letter_refs)

    def shown_letter(self, original: str) -> str:
        return self.order.shown_letter(original)

    def original_letter(self, shown_index: int) -> str | None:
        return self.order.original_letter(shown_index)

    def explanation(self, script: str) -> str:
        """The explanation with its option letters as this chat saw them."""
        return to_script(self.order.rewrite(self.question.explanation, "explanation"), script)


def fmt_points(x: float) -> str:
    return f"{round(x, 2):g}"


def shown_key(view: View, lang: str, expected: str = "", script: str = "orig") -> str:
    """The right answer as this chat saw the question (`answer_forms.shown_key`)."""
    return answer_forms.shown_key(view.question, view.order, lang, script, expected)


def shown_response(view: View, response: object, lang: str) -> str:
    q = view.question
    if q.kind in CHOICE and isinstance(response, str):
        return joined(sorted(view.shown_letter(c) for c in response), lang) or "—"
    if q.kind == Kind.truefalse and isinstance(response, bool):
        return t("tf_true" if response else "tf_false", lang)
    if q.kind == Kind.matching:
        return answer_forms.response_pairs(q, view.order, response, lang)
    return clip(str(response), MAX_ECHO)


def draft_text(view: View, draft: str, lang: str) -> str:
    """A private draft as the toast says it: ticked letters, or the pairs made so far."""
    if view.question.kind == Kind.matching:
        return answer_forms.pairs_text(draft_pairs(draft, view.order), lang)
    return joined(sorted(view.shown_letter(c) for c in draft), lang)


def question_body(view: View, script: str) -> str:
    q = view.question
    lines = [to_script(view.order.rewrite(q.stem, "stem"), script)]
    if q.kind == Kind.matching:
        return "\n".join([*lines, "", *answer_forms.matching_body(q, view.order, script)])
    for letter, text in view.order.rows(q.options):
        lines.append(f"{letter}. {to_script(text, script)}")
    return "\n".join(lines)


def header(pos: int, total: int, ref: QuestionRef, lang: str) -> str:
    """A question message's first line: its place in the quiz and the question's reference."""
    return t("daily_q_header", lang, n=pos + 1, total=total, question=ref)


def question_text(view: View, lang: str, script: str, *, private: bool, count: int | None = None,
                  hints: bool = True) -> str:
    """The question message; in a group it ends with how many have answered."""
    parts = [header(view.pos, view.total, view.question.ref, lang), "", question_body(view, script)]
    kind = view.question.kind
    if hints and kind == Kind.fill:
        parts += ["", t("daily_fill_private" if private else "daily_fill_group", lang)]
    elif hints and kind == Kind.multi:
        parts += ["", t("daily_multi_hint", lang)]
    elif hints and kind == Kind.numerical:
        parts += ["", t("daily_number_hint_private" if private else "daily_number_hint_group", lang)]
    elif hints and kind == Kind.matching:
        parts += ["", t("match_hint", lang)]
    if not private:
        parts += ["", t("daily_count", lang, n=count or 0)]
    return clip("\n".join(parts))


def question_keyboard(view: View, lang: str, *, draft: str = "") -> Keyboard | None:
    """Answer buttons; `draft` (original letters) marks a private multiple-choice selection."""
    did, pos, kind = view.delivery_id, view.pos, view.question.kind
    if kind == Kind.single:
        return Keyboard(letter_rows([Button(LETTERS[i], callback_data=cb.encode(Action.pick, did, pos, i))
                                     for i in range(len(view.option_order))]))
    if kind == Kind.multi:
        row = [Button((f"{TICKED} " if orig in draft else "") + LETTERS[i], callback_data=cb.encode(Action.toggle, did, pos, i))
               for i, orig in enumerate(view.option_order)]
        return Keyboard([*letter_rows(row), [Button(t("daily_btn_submit", lang), callback_data=cb.encode(Action.submit, did, pos))]])
    if kind == Kind.matching:
        rows = answer_forms.matching_rows(view.question, view.order, draft, "orig",
                                          lambda i: cb.encode(Action.toggle, did, pos, i))
        return Keyboard([*rows, [Button(t("daily_btn_submit", lang), callback_data=cb.encode(Action.submit, did, pos))]])
    if kind == Kind.truefalse:
        return Keyboard([[Button(t("tf_true", lang), callback_data=cb.encode(Action.pick, did, pos, "t")),
                          Button(t("tf_false", lang), callback_data=cb.encode(Action.pick, did, pos, "f"))]])
    return None


def unreadable(question: Question | None, lang: str) -> str:
    """What to say to typed text a question cannot take."""
    if question is None:
        return t("not_typed", lang)
    key = "daily_number_unreadable" if question.kind == Kind.numerical else "daily_unreadable"
    return t(key, lang, question=question.ref)


def verdict_line(verdict: Verdict, score: float, max_score: float, lang: str) -> str:
    return t(f"daily_verdict_{verdict}", lang, score=fmt_points(score), max=fmt_points(max_score))


def toast(view: View, verdict: Verdict, score: float, max_score: float, lang: str, script: str,
          expected: str = "") -> str:
    """The private feedback of a group answer, within answerCallbackQuery's 200 characters."""
    key = shown_key(view, lang, expected, script)
    head = verdict_line(verdict, score, max_score, lang) + " " + t("daily_key", lang, a=key)
    head = clip(head, MAX_TOAST)
    explanation = view.explanation(script).strip()
    room = MAX_TOAST - utf16_len(head) - 1
    if explanation and room >= 12:
        return head + "\n" + clip(explanation, room)
    return head


def already_answered_toast(view: View, answer: Answer, lang: str) -> str:
    return clip(t("daily_already", lang, a=shown_response(view, answer.response, lang)), MAX_TOAST)


def feedback(view: View, response: object, verdict: Verdict, score: float, max_score: float, lang: str,
             script: str, expected: str = "") -> str:
    """Immediate feedback under a private question: verdict, the right answer, the explanation."""
    lines = [verdict_line(verdict, score, max_score, lang),
             t("daily_yours", lang, a=shown_response(view, response, lang))]
    if verdict != Verdict.correct:
        lines.append(t("daily_key", lang, a=shown_key(view, lang, expected, script)))
    if view.question.explanation:
        lines.append(t("daily_explanation", lang, e=view.explanation(script)))
    lines.append(t("daily_qid", lang, question=view.question.ref))  # what /dispute takes
    return "\n".join(lines)


def answered_text(view: View, lang: str, script: str, fb: str) -> str:
    return clip(question_text(view, lang, script, private=True, hints=False) + "\n\n" + fb)


def private_summary(answers: Sequence[Answer], total: int, streak: int, lang: str, next_at: str | None) -> str:
    correct = sum(1 for a in answers if a.verdict == Verdict.correct)
    score = sum(a.score for a in answers)
    max_score = sum(a.max_score for a in answers)
    lines = [t("daily_done", lang, correct=correct, total=total, score=fmt_points(score),
               max=fmt_points(max_score)),
             t("daily_streak", lang, n=streak)]
    if next_at:
        lines.append(t("daily_next", lang, at=next_at))
    return "\n".join(lines)


def close_text(day: str, views: Sequence[View], top: Sequence[Standing], streaks: dict[int, int],
               lang: str, script: str, limit_top: int = 10, sealed: Container[int] = ()) -> str:
    """The close of a group's quiz: every key with its explanation (none of a `sealed` question),
    then the day's top."""
    lines = [t("daily_close_title", lang, day=day)]
    for v in views:
        if v.question.id in sealed:
            lines.append(t("daily_close_sealed", lang, n=v.pos + 1, question=v.question.ref,
                           sealed=t("daily_key_sealed", lang)))
            continue
        line = t("daily_close_key", lang, n=v.pos + 1, question=v.question.ref, key=shown_key(v, lang, script=script))
        explanation = v.explanation(script).strip()
        if explanation:
            line += " — " + clip(explanation, MAX_KEY_EXPLANATION)
        lines.append(line)
    lines += ["", t("daily_top_title", lang)]
    if not top:
        lines.append(t("daily_top_none", lang))
    medals = ["🥇", "🥈", "🥉"]
    for i, s in enumerate(top[:limit_top]):
        mark = medals[i] if i < len(medals) else f"{i + 1}."
        streak = streaks.get(s.user_id, 0)
        line = t("daily_top_line", lang, mark=mark, name=s.name, score=fmt_points(s.score),
                 max=fmt_points(s.max_score))
        if streak > 1:
            line += t("daily_top_streak", lang, n=streak)
        lines.append(line)
    if len(top) > limit_top:
        lines.append(t("daily_top_more", lang, n=len(top) - limit_top))
    return clip("\n".join(lines))
