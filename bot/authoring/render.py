"""Pure rendering of a lead's upload preview and /newquestion's steps: text and buttons."""

from __future__ import annotations

from collections.abc import Mapping

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.authoring.draft import KINDS, Draft, Step
from bank.authoring.upload import Preview, count
from bank.kinds import CHOICE, SECTION_TITLES, Kind
from bank.models import Paper, Question
from bank.option_order import LETTERS
from bank.paper_counts import Tally
from bank.question_ref import QuestionRef
from bot.authoring import callbacks as cb
from bot.exam.render import TYPED, points, question_body, shown_key
from bot.i18n import joined, kind_name, t, tn
from bot.letter_rows import letter_rows
from bot.lint_lines import lint_line
from bot.paper_counts import change_text, tally_text
from bot.section_names import section_name
from bot.text_limits import clip
from proctor.exams.model import Item
from proctor.teams.file_edits import Imported

MAX_WARNINGS = 10
MAX_PAPER_BUTTONS = 20
POINT_PRESETS = (1, 2, 5)


def _item(q: Question, pos: int, section: str) -> Item:
    """The question placed as an attempt would place it, options in the paper's order."""
    return Item(pos, q.id or 0, section, q.points, LETTERS[:len(q.options)] if q.kind in CHOICE else "",
                False, "")


def candidate_view(q: Question, ref: QuestionRef | None, pos: int, total: int, section: str, lang: str,
                   script: str) -> str:
    """The question as the exam screen shows it to a candidate: header, stem, options, typing hint (`ref`
    None: a question not written yet, /newquestion's draft)."""
    item = _item(q, pos, section)
    head = t("header", lang, question=ref, n=pos + 1, total=total, section=section_name(section, lang, script),
             pts=points(q.points, lang)) if ref is not None else \
        t("header_draft", lang, section=section_name(section, lang, script), pts=points(q.points, lang))
    lines = [head,
             "", question_body(q, item, script)]
    if q.kind in TYPED:
        lines += ["", t("type_hint_fill" if q.kind is Kind.fill else "type_hint", lang)]
    elif q.kind is Kind.truefalse:
        lines += ["", f"[{t('tf_true', lang)}] [{t('tf_false', lang)}]"]
    return "\n".join(lines)


def kinds_line(kinds: dict[Kind, int], lang: str) -> str:
    return joined((f"{kind_name(k, lang)} {n}" for k, n in kinds.items()), lang)


def upload_preview(p: Preview, lang: str, script: str, *, shell: bool = False) -> str:
    """The preview of an upload: in the chat (its Import button writes), or of `proctor import --dry-run`."""
    lines = [t("up_head_shell" if shell else "up_head", lang, file=p.file_name, n=p.total, papers=len(p.papers))]
    for c in p.papers:
        lines.append(t("up_paper_line", lang, title=c.title, n=c.questions, kinds=kinds_line(c.kinds, lang)))
        if c.tally is not None:
            lines.append(f"  {tally_text(c.tally, lang)}")
    if p.updates:
        lines.append(t("up_updates", lang, titles=joined(p.updates, lang)))
    lines.append("")
    if p.warnings:
        lines.append(t("up_warnings", lang, n=len(p.warnings)))
        lines += [f"· {lint_line(w, lang)}" for w in p.warnings[:MAX_WARNINGS]]
        if len(p.warnings) > MAX_WARNINGS:
            lines.append(t("up_more", lang, n=len(p.warnings) - MAX_WARNINGS))
    else:
        lines.append(t("up_no_warnings", lang))
    lines += ["", t("up_first", lang)]
    for i, shown in enumerate(p.first):  # headed by the kind's name in the chat's language, as the paper lines
        # above: a file without section titles gets the importer's Chinese ones (bank.kinds.SECTION_TITLES)
        kind = kind_name(shown.question.kind, lang)
        lines += ["──────", candidate_view(shown.question, shown.ref, i, p.total, kind, lang, script)]
    return clip("\n".join(lines))


def upload_keyboard(upload_id: int, lang: str) -> Keyboard:
    return Keyboard([[Button(t("up_btn_import", lang), callback_data=cb.upload(upload_id, cb.UploadAction.import_)),
                      Button(t("up_btn_cancel", lang), callback_data=cb.upload(upload_id, cb.UploadAction.cancel))]])


def imported(file_name: str, done: Imported, before: Mapping[int, Tally], after: Mapping[int, Tally],
             lang: str) -> str:
    """What an upload's import did: the new papers per kind and where their questions stand, and the papers
    it updated in place with what moved; `before`, `after`: the papers' tallies around the write."""
    counts, _ = count(done.new)
    lines = []
    for p, c in zip(done.new, counts, strict=True):
        lines += [t("up_paper_line", lang, title=p.label, n=c.questions, kinds=kinds_line(c.kinds, lang)),
                  f"  {tally_text(after[p.id or 0], lang)}"]
    for u in done.updated:
        lines.append(t("up_updated_line", lang, paper=u.paper.label, changed=len(u.changes), added=len(u.added),
                       unchanged=u.unchanged))
        if u.paper.id is not None and (moved := change_text(before[u.paper.id], after[u.paper.id], lang)):
            lines.append(f"  {moved}")
    n = sum(c.questions for c in counts) + sum(len(u.changes) + len(u.added) + u.unchanged for u in done.updated)
    return t("up_imported", lang, file=file_name, n=n, papers="\n".join(lines))


# --- /newquestion ------------------------------------------------------------------------------

def _nav(d: Draft, lang: str, *, back: bool = True) -> list[Button]:
    row = [Button(t("nq_btn_back", lang), callback_data=cb.draft(d.id, cb.DraftAction.back))] if back else []
    return [*row, Button(t("nq_btn_cancel", lang), callback_data=cb.draft(d.id, cb.DraftAction.cancel))]


def step_prompt(d: Draft, papers: list[Paper], lang: str, script: str) -> tuple[str, Keyboard]:
    """What the lead is asked at the draft's step, and its buttons (Back and Cancel on every step).

    `papers`: every paper at the paper step, the chosen one at the section step."""
    rows: list[list[Button]] = []
    if d.step is Step.kind:
        rows += [[Button(kind_name(k, lang), callback_data=cb.draft(d.id, cb.DraftAction.kind, i))]
                 for i, k in enumerate(KINDS)]
        return t("nq_step_kind", lang), Keyboard([*rows, _nav(d, lang, back=False)])
    if d.step is Step.options:
        listed = [f"{LETTERS[i]}. {o}" for i, o in enumerate(d.options)]
        text = "\n".join([*listed, "", t("nq_step_options", lang, letter=LETTERS[len(d.options)])]).strip()
        if len(d.options) >= 2:
            rows.append([Button(t("nq_btn_done", lang), callback_data=cb.draft(d.id, cb.DraftAction.options_done))])
        return text, Keyboard([*rows, _nav(d, lang)])
    if d.step is Step.key:
        return _key_prompt(d, lang)
    if d.step is Step.explanation:
        rows.append([Button(t("nq_btn_skip", lang), callback_data=cb.draft(d.id, cb.DraftAction.skip))])
        return t("nq_step_explanation", lang), Keyboard([*rows, _nav(d, lang)])
    if d.step is Step.points:
        rows.append([Button(str(n), callback_data=cb.draft(d.id, cb.DraftAction.points, n)) for n in POINT_PRESETS])
        return t("nq_step_points", lang), Keyboard([*rows, _nav(d, lang)])
    if d.step is Step.paper:
        rows += [[Button(clip(p.title, 60), callback_data=cb.draft(d.id, cb.DraftAction.paper, p.id or 0))]
                 for p in papers[-MAX_PAPER_BUTTONS:]]
        rows.append([Button(t("nq_btn_new_paper", lang), callback_data=cb.draft(d.id, cb.DraftAction.new_paper))])
        return t("nq_step_paper", lang), Keyboard([*rows, _nav(d, lang)])
    if d.step is Step.section:
        # only sections of the question's kind (a button keeps the section's place in the paper)
        fitting = [(i, s) for i, s in enumerate(papers[0].sections if papers else [], start=1) if s.kind is d.kind]
        rows += [[Button(clip(f"{section_name(s.title, lang)} ({len(s.questions)})", 60),
                         callback_data=cb.draft(d.id, cb.DraftAction.section, i))]
                 for i, s in fitting]
        rows.append([Button(t("nq_btn_new_section", lang), callback_data=cb.draft(d.id, cb.DraftAction.section, 0))])
        kind = kind_name(d.kind, lang) if d.kind is not None else ""
        if not fitting:  # where it goes, as the README says: a new section of its kind
            text = t("nq_step_section_none", lang, paper=d.paper_title, kind=kind,
                     title=section_name(SECTION_TITLES[d.kind], lang) if d.kind is not None else "")
            return text, Keyboard([*rows, _nav(d, lang)])
        return t("nq_step_section", lang, paper=d.paper_title, kind=kind), Keyboard([*rows, _nav(d, lang)])
    if d.step is Step.preview:
        return draft_preview(d, lang, script), Keyboard([
            [Button(t("nq_btn_save", lang), callback_data=cb.draft(d.id, cb.DraftAction.save))], _nav(d, lang)])
    key = {Step.stem: "nq_step_stem", Step.new_paper: "nq_step_new_paper"}[d.step]
    return t(key, lang), Keyboard([_nav(d, lang)])


def _key_prompt(d: Draft, lang: str) -> tuple[str, Keyboard]:
    rows: list[list[Button]] = []
    listed = [f"{LETTERS[i]}. {o}" for i, o in enumerate(d.options)]
    if d.kind is Kind.single:
        rows += letter_rows([Button(LETTERS[i], callback_data=cb.draft(d.id, cb.DraftAction.pick, i))
                             for i in range(len(d.options))])
    elif d.kind is Kind.multi:
        rows += letter_rows([Button(("✓ " if LETTERS[i] in d.picked else "") + LETTERS[i],
                                    callback_data=cb.draft(d.id, cb.DraftAction.pick, i)) for i in range(len(d.options))])
        rows.append([Button(t("nq_btn_done", lang), callback_data=cb.draft(d.id, cb.DraftAction.key_done))])
    elif d.kind is Kind.truefalse:
        rows.append([Button(t("tf_true", lang), callback_data=cb.draft(d.id, cb.DraftAction.tf, 1)),
                     Button(t("tf_false", lang), callback_data=cb.draft(d.id, cb.DraftAction.tf, 0))])
    kind = d.kind.value if d.kind in (Kind.single, Kind.multi, Kind.truefalse, Kind.fill, Kind.numerical) else "short"
    text = "\n".join([*listed, "", t(f"nq_step_key_{kind}", lang)]).strip()
    return text, Keyboard([*rows, _nav(d, lang)])


def draft_preview(d: Draft, lang: str, script: str) -> str:
    q = d.question()
    section = kind_name(q.kind, lang)
    paper = d.paper_title if d.paper_id is not None else t("nq_new_paper_mark", lang, title=d.paper_title)
    lines = [t("nq_step_preview", lang), "", candidate_view(q, None, 0, 1, section, lang, script), "──────",
             t("nq_preview_key", lang, key=shown_key(q, _item(q, 0, section), lang, script=script))]
    if q.explanation:
        lines.append(t("explanation", lang, e=q.explanation))
    if d.section == 0:
        section = t("nq_new_paper_mark", lang, title=section_name(SECTION_TITLES[q.kind], lang))
    else:
        section = (section_name(d.section_title, lang, script) if d.section_title
                   else t("nq_section_auto", lang, kind=section_name(SECTION_TITLES[q.kind], lang)))
    lines.append(t("nq_preview_where", lang, pts=f"{q.points:g}", paper=paper, section=section))
    return clip("\n".join(lines))


def card_text(q: Question, lang: str) -> str:
    """A question as the /editq card shows it, in the admin's language: where it sits, its kind and
    points, the stem, the options and the key (the terminal's own rendering is bot/bank_cli.py's
    `render_question`)."""
    src = q.source
    head = []  # the card's own head names the question by its reference
    if src is not None:
        head += [src.paper_title or src.paper,
                 section_name(src.section_title, lang) if src.section_title else str(src.section)]
    head += [kind_name(q.kind, lang), tn("n_point", q.points, lang)] + ([t("eq_q_retired", lang)] if q.retired else [])
    lines = [" · ".join(head), "", q.stem]
    lines += [f"{chr(65 + i)}. {o}" for i, o in enumerate(q.options)]
    lines.append("")
    if q.kind in CHOICE or q.kind is Kind.truefalse:
        shown = t("eq_q_true" if q.answer else "eq_q_false", lang) if isinstance(q.answer, bool) \
            else t("bank_letters", lang, letters=q.answer)  # the card's own letters: the bank's, and it says so
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
