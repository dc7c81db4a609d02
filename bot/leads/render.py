"""Pure rendering for the lead's desk: texts and keyboards, no I/O; the number, time and period
formats the boards and live rounds share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.item_stats import ItemStats
from bank.paper_counts import Tally
from bank.paper_list import PaperSummary
from bank.question_ref import QuestionRef
from bank.script import to_script
from bot.answer_forms import seen_text
from bot.attempt_title import attempt_title
from bot.i18n import t, tn
from bot.leads import callbacks as cb
from bot.lint_lines import where
from bot.paper_counts import flags_text, papers_section, tally_text
from bot.rating_words import flags_words, measured_line
from bot.text_limits import MAX_TEXT, clip
from proctor.exams.cards import Told
from proctor.teams.digest import Digest, Schedule
from proctor.teams.disputes import Dispute
from proctor.teams.key_fix import KeyAsSeen
from proctor.teams.measured import Measured
from proctor.teams.review import Outcome, Pending, score_steps

MAX_FIELD = 900  # a candidate's answer or a reference shown on a review card


def num(x: float | None) -> str:
    """2 → '2', 2.5 → '2.5', 2.333 → '2.33'."""
    if x is None:
        return "–"
    return f"{round(x, 2):g}"


def pct(x: float) -> str:
    return f"{round(x * 100):d}"


def duration(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def period_name(name: str, lang: str) -> str:
    return t(f"l_period_{name}", lang)


def pts(x: float, lang: str) -> str:
    """"1 pt", "2.5 pts" (English) or "2.5 分"."""
    return tn("n_pt", float(round(x, 2)), lang)


def _paper(code: str | None, title: str, lang: str) -> str:
    """A paper as its candidates know it: its code (what /exam takes) and title."""
    return t("l_rv_paper", lang, code=code, title=title) if code else t("l_rv_paper_gone", lang, title=title)


def key_words(key: KeyAsSeen, lang: str, script: str = "orig") -> str:
    """A disputed key as the lead reads it: a choice question's in the disputer's letters with the
    options' texts, said so (or said to be the bank's, where the dispute kept no order)."""
    if not key.options:
        return t("bank_letters", lang, letters=key.text) if key.bank_letters else key.text
    return t("bank_letters" if key.bank_letters else "letters_seen", lang,
             letters=seen_text(key.options, lang, script))


def review_card(p: Pending, lang: str, scope: int | None, skip: int, script: str = "orig") -> tuple[str, Keyboard]:
    """The answer to score, with the question and its reference in the reviewer's script (the
    candidate's answer as they wrote it; a choice answer in the letters they saw, with the texts)."""
    text = t("l_rv_card", lang, remaining=p.remaining, name=p.name or str(p.user_id),
             paper=_paper(p.code, attempt_title(p.title, lang, script), lang), question=p.ref,
             stem=clip(to_script(p.stem, script), MAX_FIELD),
             response=clip(seen_text(list(p.seen), lang, script) if p.seen else p.response or "—", MAX_FIELD),
             reference=clip(to_script(p.reference, script), MAX_FIELD), score=num(p.score), max=num(p.max_score))
    steps = [cb.encode(cb.Action.set_score, p.attempt_id, p.pos, int(round(s * 2)), scope=scope)
             for s in score_steps(p.max_score)]
    labels = [num(s) for s in score_steps(p.max_score)]
    buttons = [Button(label, callback_data=data) for label, data in zip(labels, steps, strict=True)]
    rows = [buttons[i:i + 6] for i in range(0, len(buttons), 6)]
    rows.append([Button(t("l_rv_skip", lang),
                        callback_data=cb.encode(cb.Action.skip, p.attempt_id, p.pos, skip + 1, scope=scope))])
    return clip(text, MAX_TEXT), Keyboard(rows)


def review_notice(o: Outcome, ref: QuestionRef | None, lang: str, told: Told) -> str | None:
    """What the candidate is told when a lead makes a score final: the question (`ref`, None once it is
    gone) and its score where they may read their per-question results (`told`), else the attempt's
    total alone, or nothing."""
    paper = _paper(o.code, attempt_title(o.title, lang), lang)
    state = t("l_rv_final" if o.all_final else "l_rv_more", lang)
    if not told.result or ref is None:
        return t("l_rv_notify_total", lang, paper=paper, total=num(o.attempt_score), tmax=num(o.attempt_max),
                 state=state) if told.total else None
    return t("l_rv_notify", lang, question=ref, paper=paper, score=num(o.score), max=num(o.max_score),
             total=num(o.attempt_score), tmax=num(o.attempt_max), state=state)


def _stat_row(s: ItemStats, lang: str) -> str:
    return t("l_bs_row", lang, question=s.ref, where=where(s.paper, s.section_title or str(s.section), lang),
             p="–" if s.difficulty is None else f"{s.difficulty:.2f}",
             d="–" if s.discrimination is None else f"{s.discrimination:+.2f}", n=s.responses,
             retired=t("l_bs_retired_mark", lang) if s.retired else "")


def bankstats_overview(disputes: list[Dispute], attention: list[ItemStats], lang: str,
                       scope: int | None, *, curate: bool,
                       counted: Sequence[tuple[str, Tally]] = (),
                       flagged: Sequence[tuple[ItemStats, Measured]] = ()) -> tuple[str, Keyboard | None]:
    """The overview: the papers' counts (`counted`: code and tally), the disputes, the questions to
    look at and those their measure flags; with `curate` (a configured admin: only they may press them)
    the buttons to retire a question and to uphold or dismiss a dispute."""
    lines = [*papers_section(counted, lang), ""] if counted else []
    lines.append(t("l_bs_disputes", lang) if disputes else t("l_bs_no_disputes", lang))
    buttons = []
    for d in disputes:
        lines.append(t("l_bs_dispute_row", lang, id=d.id, question=d.ref,
                       where=where(d.paper, d.section_title or str(d.section), lang), n=d.open_on_question,
                       reason=clip(d.reason, 200)))
        if not curate:
            continue
        buttons.append([Button(t("l_btn_retire", lang, question=d.ref),
                               callback_data=cb.encode(cb.Action.retire, d.question_id, scope=scope)),
                        Button(t("l_btn_uphold", lang, id=d.id), callback_data=cb.encode(cb.Action.uphold, d.id, scope=scope)),
                        Button(t("l_btn_dismiss", lang, id=d.id),
                               callback_data=cb.encode(cb.Action.dismiss, d.id, scope=scope))])
    lines.append("")
    if attention:
        lines.append(t("l_bs_attention", lang))
        lines += [_stat_row(s, lang) for s in attention]
        for s in attention[:6] if curate else ():
            buttons.append([Button(t("l_btn_retire", lang, question=s.ref),
                                   callback_data=cb.encode(cb.Action.retire, s.question_id, scope=scope))])
    else:
        lines.append(t("l_bs_no_data", lang))
    if flagged:
        lines += ["", t("ms_flagged", lang)]
        lines += [t("ms_flagged_row", lang, question=s.ref, where=where(s.paper, s.section_title or str(s.section), lang),
                    pct=round(100 * m.right), label=m.label or t("ms_no_label", lang), flags=flags_words(m, lang))
                  for s, m in flagged]
    lines += ["", t("l_bs_commands", lang)]
    return clip("\n".join(lines), MAX_TEXT), Keyboard(buttons) if buttons else None


def bankstats_paper(paper: PaperSummary, counts: Tally, stats: list[ItemStats], lang: str,
                    scope: int | None, *, curate: bool,
                    measured: Mapping[int, Measured] | None = None) -> tuple[str, Keyboard | None]:
    """One paper's counts and statistics of each question answered so far, its measure beside its label
    (`measured`), and how many are not answered yet; with `curate` (a configured admin) its exam-only
    switch."""
    exam_only, paper_id = paper.exam_only, paper.id
    lines = [t("l_bs_paper_head", lang, paper=paper.code, title=paper.title,
               exam_only=t("l_bs_exam_only_mark", lang) if exam_only else ""),
             tally_text(counts, lang), flags_text(counts, lang), ""]
    for s in stats:
        if not s.responses:
            continue  # nothing to say of it yet: counted on one line below
        lines.append(_stat_row(s, lang))
        if (m := (measured or {}).get(s.question_id)) is not None and m.answers:
            lines.append(measured_line(m, lang) + (f" ⚠ {flags_words(m, lang)}" if m.flags else ""))
    if unanswered := sum(1 for s in stats if not s.responses):
        lines.append(t("l_bs_unanswered", lang, n=unanswered))
    lines += ["", t("l_bs_commands", lang)]
    if not curate:
        return clip("\n".join(lines), MAX_TEXT), None
    toggle = Button(t("l_btn_exam_only_off" if exam_only else "l_btn_exam_only_on", lang),
                    callback_data=cb.encode(cb.Action.exam_only, paper_id, 0 if exam_only else 1, scope=scope))
    return clip("\n".join(lines), MAX_TEXT), Keyboard([[toggle]])


def schedule_text(s: Schedule, tz: str, lang: str) -> str:
    if not s.enabled:
        return t("l_dg_off", lang)
    return t("l_dg_on", lang, day=t(f"l_day_{s.weekday}", lang), time=s.at_time, tz=tz)


def digest_text(d: Digest, title: str, lang: str) -> str:
    lines = [t("l_dg_title", lang, title=title), "",
             t("l_dg_participation", lang, active=d.active, members=d.members, answers=d.answers,
               before=d.active_before)]
    if not d.top:
        lines += ["", t("l_dg_quiet", lang)]
    else:
        lines += ["", t("l_dg_top", lang)]
        lines += [t("l_dg_top_row", lang, rank=r.rank, name=r.name or str(r.user_id), points=pts(r.points, lang))
                  for r in d.top]
    if d.movers:
        lines += ["", t("l_dg_movers", lang)]
        lines += [t("l_dg_mover_row", lang, name=m.name, rank=m.rank,
                    prev=f"#{m.previous}" if m.previous is not None else t("l_dg_new", lang)) for m in d.movers]
    if d.weakest:
        lines += ["", t("l_dg_weak", lang)]
        lines += [t("l_dg_weak_row", lang, topic=w.name, acc=pct(w.accuracy), n=w.answers)
                  for w in d.weakest]
    return clip("\n".join(lines), MAX_TEXT)
