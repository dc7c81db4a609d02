"""Pure rendering of exam screens: text and keyboard from a sheet, a language and `now`."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.grading.result import Verdict
from bank.kinds import CHOICE, Kind, ReviewOption
from bank.matching_answer import draft_pairs, is_matching_draft
from bank.matching_answer import response_draft as matching_draft
from bank.models import Question
from bank.option_order import LETTERS
from bank.paper_list import PaperSummary
from bank.script import to_script
from bot import answer_forms
from bot.attempt_title import attempt_title
from bot.catalogue.marks import TICKED
from bot.exam import callbacks as cb
from bot.exam.navigator import nav_button
from bot.i18n import joined, spans, t, tn
from bot.letter_rows import letter_rows
from bot.section_names import section_name
from bot.text_limits import MAX_ECHO, MAX_TEXT, clip, clip_start, utf16_len
from proctor.exams.blueprint import DrawSize
from proctor.exams.drafts import pending_drafts
from proctor.exams.model import AnswerRec, Item, Result, Sheet, flagged, unanswered
from proctor.exams.result import grid_lines, outcome
from proctor.exams.sittings import Sittings
from proctor.exams.states import AttemptMode, FinishReason
from proctor.exams.steps import Action, adds_up
from proctor.exams.visibility import Fact, Visibility

TYPED = {Kind.fill, Kind.short, Kind.discussion, Kind.case}
TYPE_HINTS = {Kind.fill: "type_hint_fill", Kind.numerical: "type_hint_number", Kind.matching: "match_hint"}


def fmt_points(x: float) -> str:
    return f"{x:g}"


def points(x: float, lang: str) -> str:
    """"1 pt", "2 pts", "1.5 pts" (English) or "2 分"."""
    return tn("n_pt", x, lang)


def fmt_duration(seconds: float) -> str:
    m, s = divmod(int(max(0, seconds)), 60)
    return f"{m:02d}:{s:02d}"


def shown_response(q: Question, item: Item, response, lang: str) -> str:
    """An answer as the candidate saw it: shown letters, True/False, or their text (clipped: an
    echo never pushes the question off its own screen)."""
    if q.kind in CHOICE and isinstance(response, str) and item.option_order:
        letters = [item.shown_letter(c) for c in response if c in item.option_order]
        return joined(sorted(letters), lang) or str(response)
    if q.kind == Kind.truefalse and isinstance(response, bool):
        return t("tf_true" if response else "tf_false", lang)
    if q.kind == Kind.matching:
        return answer_forms.response_pairs(q, item.order(), response, lang)
    return clip(str(response), MAX_ECHO)


def draft_text(item: Item, lang: str) -> str:
    """A draft as the screen shows it: ticked letters, or the pairs made so far."""
    if is_matching_draft(item.draft):
        return answer_forms.pairs_text(draft_pairs(item.draft, item.order()), lang)
    return joined(sorted(item.shown_letter(c) for c in item.draft), lang)


def refused_typed(q: Question | None) -> str:
    """The text key for a typed message the current question cannot take."""
    if q is None:
        return "not_typed"
    if q.kind == Kind.numerical:
        return "not_a_number"
    if q.kind == Kind.matching:
        return "match_buttons_only"
    return "empty_answer" if q.kind in TYPED else "not_typed"


def shown_key(q: Question, item: Item, lang: str, script: str = "orig") -> str:
    """The key as the candidate read the question (`answer_forms.shown_key`)."""
    return answer_forms.shown_key(q, item.order(), lang, script)


def question_body(q: Question, item: Item, script: str) -> str:
    order = item.order(q)
    lines = [to_script(order.rewrite(q.stem, "stem"), script)]
    if q.kind == Kind.matching:
        return "\n".join([*lines, "", *answer_forms.matching_body(q, order, script)])
    for letter, text in order.rows(q.options):
        lines.append(f"{letter}. {to_script(text, script)}")
    return "\n".join(lines)


def explanation(q: Question, item: Item, script: str) -> str:
    """The explanation with its option letters as the candidate saw them."""
    return to_script(item.order(q).rewrite(q.explanation, "explanation"), script)


def header(sheet: Sheet, item: Item, lang: str, now: float, script: str = "orig") -> str:
    head = t("header", lang, question=item.ref, n=item.pos + 1, total=len(sheet.items),
             section=section_name(item.section, lang, script), pts=points(item.points, lang))
    left = sheet.attempt.seconds_left(now)
    if left is not None:
        head += t("left", lang, left=fmt_duration(left))
    if item.flagged:
        head += t("flag_mark", lang)
    return head


def attempt_screen(sheet: Sheet, lang: str, script: str, now: float,
                   feedback: str | None = None, review: ReviewOption = ReviewOption.full) -> tuple[str, Keyboard]:
    """The one attempt message: header, stem, options, the state of this answer, and buttons."""
    item = sheet.current
    q = sheet.question(item)
    ans = sheet.answers.get(item.pos)
    parts = [header(sheet, item, lang, now, script), "", question_body(q, item, script)]
    so_far = None  # a written answer so far, fitted into the room the rest leaves
    practice_done = sheet.attempt.mode == AttemptMode.practice and ans is not None
    if practice_done and ans is not None:
        parts += ["", feedback or practice_feedback(q, item, ans, lang, script, review)]
    else:
        if q.kind == Kind.multi and item.draft:
            parts += ["", t("draft", lang, a=draft_text(item, lang))]
        elif q.kind == Kind.matching and item.draft:
            parts += ["", t("match_draft", lang, a=draft_text(item, lang))]
        elif ans is not None and adds_up(sheet, q):
            so_far = len(parts) + 1
            parts += ["", t("written_so_far", lang, a=_SO_FAR)]
        elif ans is not None:
            parts += ["", t("your_answer", lang, a=shown_response(q, item, ans.response, lang))]
        if q.kind in TYPED or q.kind in TYPE_HINTS:  # how to answer: blanks, a number, pairs, or text
            parts += ["", t(TYPE_HINTS.get(q.kind, "type_hint"), lang)]
    if so_far is not None and ans is not None:  # as much of the answer as fits, its end kept: the latest message
        room = MAX_TEXT - utf16_len("\n".join(parts)) + len(_SO_FAR)
        parts[so_far] = parts[so_far].replace(_SO_FAR, clip_start(str(ans.response), room))
    return clip("\n".join(parts)), attempt_keyboard(sheet, item, q, lang, practice_done, script)


_SO_FAR = "\x00"  # where a written answer so far goes, once the room for it is known


def noted(text: str, note: str | None) -> str:
    """A screen with a note under it (a typed answer's "Recorded for Q3: ..."): the note rides on the
    next screen, so a typed answer costs one message. The screen is kept whole; the note is clipped."""
    room = MAX_TEXT - utf16_len(text) - 2
    return text if not note or room < 40 else f"{text}\n\n{clip(note, room)}"


def attempt_keyboard(sheet: Sheet, item: Item, q: Question, lang: str, practice_done: bool,
                     script: str = "orig") -> Keyboard:
    aid, pos = sheet.attempt.id, item.pos
    rows: list[list[Button]] = []
    if not practice_done:
        if q.kind == Kind.single:
            rows += letter_rows([Button(LETTERS[i], callback_data=cb.act(aid, Action.answer, pos, i))
                                 for i in range(len(item.option_order))])
        elif q.kind == Kind.multi:
            row = []
            for i, orig in enumerate(item.option_order):
                mark = f"{TICKED} " if orig in item.draft else ""
                row.append(Button(mark + LETTERS[i], callback_data=cb.act(aid, Action.toggle, pos, i)))
            rows += letter_rows(row)
            rows.append([Button(t("btn_submit", lang), callback_data=cb.act(aid, Action.submit, pos))])
        elif q.kind == Kind.matching:
            answered = sheet.answers.get(pos)
            shown = item.draft or (matching_draft(q, answered.response) if answered else "")
            rows += answer_forms.matching_rows(q, item.order(), shown, script,
                                               lambda i: cb.act(aid, Action.toggle, pos, i))
            rows.append([Button(t("btn_submit", lang), callback_data=cb.act(aid, Action.submit, pos))])
        elif q.kind == Kind.truefalse:
            rows.append([Button(t("tf_true", lang), callback_data=cb.act(aid, Action.answer, pos, "t")),
                         Button(t("tf_false", lang), callback_data=cb.act(aid, Action.answer, pos, "f"))])
        elif pos in sheet.answers and adds_up(sheet, q):
            rows.append([Button(t("btn_clear", lang), callback_data=cb.act(aid, Action.clear, pos))])
    nav = []
    if pos > 0:
        nav.append(Button(t("btn_back", lang), callback_data=cb.act(aid, Action.back, pos)))
    if pos < len(sheet.items) - 1:
        label = "btn_next" if (practice_done or pos in sheet.answers) else "btn_skip"
        nav.append(Button(t(label, lang), callback_data=cb.act(aid, Action.next, pos)))
    rows.append(nav)
    last = []
    if sheet.attempt.mode == AttemptMode.exam:
        last.append(Button(t("btn_unflag" if item.flagged else "btn_flag", lang),
                           callback_data=cb.act(aid, Action.flag, pos)))
    last.append(nav_button(aid, pos, lang))
    last.append(Button(t("btn_finish", lang), callback_data=cb.act(aid, Action.finish_ask, pos)))
    rows.append(last)
    return Keyboard([r for r in rows if r])


def practice_feedback(q: Question, item: Item, ans: AnswerRec, lang: str, script: str = "orig",
                      review: ReviewOption = ReviewOption.full) -> str:
    """The verdict, and with the paper's `full` review the key and the explanation too."""
    if review == ReviewOption.none:
        return t("fb_recorded", lang)
    key = {Verdict.correct: "fb_correct", Verdict.partial: "fb_partial", Verdict.wrong: "fb_wrong",
           Verdict.needs_review: "fb_review"}
    lines = [t(key[ans.verdict], lang, score=fmt_points(ans.score), max=fmt_points(ans.max_score))]
    if review != ReviewOption.full:
        return lines[0]
    if ans.verdict != Verdict.correct:
        lines.append(t("right_answer", lang, a=shown_key(q, item, lang, script=script)))
    if q.explanation:
        lines.append(t("explanation", lang, e=explanation(q, item, script)))
    lines.append(t("dispute_hint", lang, question=q.ref))  # what /dispute takes, as shown
    return "\n".join(lines)


def finish_confirm(sheet: Sheet, lang: str) -> tuple[str, Keyboard]:
    def nums(positions):
        return spans((p + 1 for p in positions), lang) or t("none", lang)

    drafted = pending_drafts(sheet.items)
    text = t("finish_confirm", lang, unanswered=nums([p for p in unanswered(sheet.items, sheet.answers)
                                                      if not sheet.items[p].draft]))
    if sheet.attempt.mode == AttemptMode.exam:  # practice has no Flag button
        text += "\n" + t("finish_flagged", lang, flagged=nums(flagged(sheet.items)))
    for item in drafted:  # what the screen shows is what counts: unsubmitted ticks are the answer
        key = "finish_match_draft" if is_matching_draft(item.draft) else "finish_draft"
        text += "\n" + t(key, lang, question=item.ref, a=draft_text(item, lang))
    aid, pos = sheet.attempt.id, sheet.attempt.current_pos
    kb = Keyboard([[Button(t("btn_yes_finish", lang), callback_data=cb.act(aid, Action.finish_yes, pos)),
                    Button(t("btn_keep_going", lang), callback_data=cb.act(aid, Action.finish_no, pos))],
                   [nav_button(aid, pos, lang)]])
    return clip(text), kb


def result_card(sheet: Sheet, result: Result, lang: str, vis: Visibility,
                review: ReviewOption = ReviewOption.full, script: str = "orig",
                pass_percent: float | None = None) -> tuple[str, Keyboard | None]:
    """The candidate's card, as much as the read rule lets them read (`vis`, their own: the paper's
    review option, a seal): the total and passed or not, by section, with a mark per question and a
    review of the answers and keys; with the review option `none`, not even the total."""
    a = sheet.attempt
    title = attempt_title(a.title, lang, script)
    if review == ReviewOption.none and a.mode == AttemptMode.exam:
        return clip("\n".join([t("result_title", lang, title=title), t("result_sent_to_team", lang)])), None
    if a.mode == AttemptMode.practice:
        correct = sum(1 for x in sheet.answers.values() if x.verdict == Verdict.correct)
        text = t("practice_done", lang, correct=correct, answered=len(sheet.answers),
                 score=fmt_points(round(result.score, 2)), max=points(result.max_score, lang))
        return text, None
    lines = [t("result_title", lang, title=title)]
    if a.finish_reason == FinishReason.timeout:
        lines.append(t("timed_out", lang))
    lines.append(t("result_total", lang, score=fmt_points(round(result.score, 2)),
                   max=fmt_points(result.max_score), pct=f"{result.percent:.1f}"))
    decided = outcome(result, pass_percent)
    if decided is not None and pass_percent is not None:  # a paper without a pass mark decides nothing
        key = {"passed": "result_pass", "failed": "result_fail", "pending": "result_pending_pass"}[decided]
        lines.append(t(key, lang, mark=fmt_points(pass_percent)))
    lines.append(t("time_used", lang, used=fmt_duration((a.finished_at or a.started_at) - a.started_at)))
    if not vis.shows(Fact.section):
        return clip("\n".join(lines)), None
    lines.append("")
    for s in result.sections:
        line = t("section_line", lang, title=section_name(s.title, lang, script),
                 score=fmt_points(round(s.score, 2)), max=fmt_points(s.max_score))
        if s.pending_review:
            line += t("awaiting_review", lang)
        lines.append(line)
    if result.pending_review:
        lines += ["", t("pending_line", lang, answers=tn("n_answer_awaiting", result.pending_review, lang),
                        score=points(round(result.provisional, 2), lang))]
    if not (vis.shows(Fact.result) and vis.shows(Fact.key)):  # a mark per question, the review's keys
        return clip("\n".join(lines)), None
    lines += ["", t("result_grid_title", lang), *grid_lines(sheet.items, sheet.answers)]
    kb = Keyboard([[Button(t("btn_review_all", lang), callback_data=cb.act(a.id, cb.Screen.review_all, 0, 1)),
                    Button(t("btn_review", lang), callback_data=cb.act(a.id, cb.Screen.review, 0, 1))]])
    return clip("\n".join(lines)), kb


def review_page(sheet: Sheet, shown: list[int], page: int, lang: str, script: str, *,
                everything: bool = False) -> tuple[str, Keyboard | None]:
    """One answer with the key and the explanation; pages with ◀ ▶, and a filter between every
    answer and the wrong ones only."""
    aid = sheet.attempt.id
    action = cb.Screen.review_all if everything else cb.Screen.review
    switch = [Button(t("btn_review_wrong", lang), callback_data=cb.act(aid, cb.Screen.review, 0))] if everything \
        else [Button(t("btn_review_everything", lang), callback_data=cb.act(aid, cb.Screen.review_all, 0))]
    if not shown:
        return t("review_none", lang), Keyboard([switch])
    page = max(0, min(page, len(shown) - 1))
    item = sheet.items[shown[page]]
    q = sheet.question(item)
    ans = sheet.answers.get(item.pos)
    yours = shown_response(q, item, ans.response, lang) if ans else t("unanswered", lang)
    title = t("review_page_all" if everything else "review_page", lang, i=page + 1, n=len(shown), question=q.ref)
    lines = [title, "", question_body(q, item, script), "", t("review_yours", lang, a=yours)]
    if ans is not None and ans.verdict == Verdict.correct:
        lines.append(t("review_verdict_correct", lang))
    lines.append(t("right_answer", lang, a=shown_key(q, item, lang, script=script)))
    if q.explanation:
        lines.append(t("explanation", lang, e=explanation(q, item, script)))
    lines += ["", t("dispute_hint", lang, question=q.ref)]
    nav = []
    if page > 0:
        nav.append(Button("◀", callback_data=cb.act(aid, action, page - 1)))
    if page < len(shown) - 1:
        nav.append(Button("▶", callback_data=cb.act(aid, action, page + 1)))
    return clip("\n".join(lines)), Keyboard([r for r in (nav, switch) if r])


def paper_list(papers: list[PaperSummary], lang: str, script: str = "orig") -> str:
    if not papers:
        return t("no_papers", lang)
    lines = [t("papers_header", lang), ""]
    for p in papers:
        lines.append(t("paper_line", lang, code=p.code, title=to_script(p.title, script),
                       questions=tn("n_question", p.askable, lang), max=points(p.max_score, lang),
                       minutes=p.time_limit_min))
    return clip("\n".join(lines))


def chooser_label(p: PaperSummary, script: str = "orig") -> str:
    """A paper's button in the chooser: "P3 · its title", cut to 64 characters."""
    return clip(f"{p.code} · {to_script(p.title, script)}", 64)


def paper_chooser(papers: list[PaperSummary], mode: AttemptMode, lang: str, script: str = "orig") -> tuple[str, Keyboard]:
    rows = [[Button(chooser_label(p, script), callback_data=cb.pick(p.id, mode, start=mode == AttemptMode.practice))]
            for p in papers]
    rows.append([Button(t("random_button", lang), callback_data=cb.pick(None, mode, start=mode == AttemptMode.practice))])
    return t("choose_exam" if mode == AttemptMode.exam else "choose_practice", lang), Keyboard(rows)


def rules_card(p: PaperSummary, sat: Sittings, lang: str, script: str = "orig") -> tuple[str, Keyboard | None]:
    """A paper's rules card, from its summary (bank.paper_list: no question loaded) and the
    candidate's sittings against its limit."""
    used, allowed = sat.used, sat.allowed
    attempts = t("attempts_left", lang, used=used, allowed=allowed) if allowed is not None else ""
    text = t("rules_card", lang, title=to_script(p.title, script), questions=tn("n_question", p.askable, lang),
             max=points(p.max_score, lang),
             minutes=p.time_limit_min, attempts=attempts, rules=t("exam_rules", lang))
    if allowed is not None and used >= allowed:  # no Start button that could only be refused
        return text + "\n\n" + t("rules_no_attempts", lang, allowed=allowed,
                                  unit="attempt" if allowed == 1 else "attempts"), None
    kb = Keyboard([[Button(t("start_button", lang), callback_data=cb.pick(p.id, AttemptMode.exam, start=True))]])
    return text, kb


def mock_rules_card(lang: str, size: DrawSize, minutes: int) -> tuple[str, Keyboard]:
    """The mock's card: its max as the other cards give it, a range when draws differ in points."""
    top = points(size.high, lang) if size.low == size.high else f"{size.low:g}–{points(size.high, lang)}"
    text = t("mock_rules_card", lang, questions=tn("n_question", size.questions, lang), max=top, minutes=minutes,
             rules=t("exam_rules", lang))
    kb = Keyboard([[Button(t("start_button", lang), callback_data=cb.pick(None, AttemptMode.exam, start=True))]])
    return text, kb


def cancel_confirm(attempt, lang: str, script: str = "orig") -> tuple[str, Keyboard]:
    """Exams warn that a cancelled attempt still counts; practice has no attempts to warn about."""
    key = "cancel_confirm_practice" if attempt.mode == AttemptMode.practice else "cancel_confirm"
    text = t(key, lang, title=attempt_title(attempt.title, lang, script))
    kb = Keyboard([[Button(t("btn_cancel_yes", lang), callback_data=cb.act(attempt.id, cb.Screen.cancel_yes, 0)),
                    Button(t("btn_keep_going", lang), callback_data=cb.act(attempt.id, cb.Screen.cancel_no, 0))]])
    return clip(text), kb


def mystats_line(r: dict[str, Any], lang: str, script: str) -> str:
    """One paper on /mystats (a row of proctor.exams.service.user_stats): a score with answers still
    awaiting review is marked provisional, since the review can change it."""
    used = tn("n_attempt", r["used"], lang)
    used = t("mystats_used_cancelled" if r["cancelled"] else "mystats_used", lang, used=used, n=r["cancelled"])
    title = attempt_title(r["title"], lang, script)
    if r["best"] is None:  # every attempt was cancelled
        return t("mystats_line_none", lang, title=title, attempts=used)
    provisional = t("mystats_provisional", lang)
    return t("mystats_line", lang, title=title, attempts=used, max=fmt_points(r["max_score"]),
             best=fmt_points(r["best"]), best_mark=provisional if r["pending"] else "",
             last=fmt_points(r["last"] if r["last"] is not None else 0),
             last_mark=provisional if r["last_pending"] else "",
             method=t(f"method_{r['method']}", lang))
