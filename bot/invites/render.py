"""Pure rendering of invites: the lead's link card (with its QR code), the list, the candidate's
welcome card, the lead's result card and the team's note."""

from __future__ import annotations

import io
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.paper_list import PaperSummary
from bank.question_ref import QuestionRef
from bank.script import to_script
from bot.exam.render import clip, fmt_duration, fmt_points
from bot.i18n import t
from bot.invites import callbacks as cb
from bot.rating_words import band
from bot.section_names import section_name
from proctor.exams.model import Attempt, Result
from proctor.exams.states import FinishReason
from proctor.exams.visibility import Fact, Visibility
from proctor.integrity.signals import Signal
from proctor.invites.listing import Row
from proctor.invites.request import MAX_ATTEMPTS, MAX_COUNT, MAX_EXTRA_MIN, MAX_WINDOW, BadInvite
from proctor.invites.states import InviteStatus
from proctor.invites.store import Invite
from proctor.local_time import moment
from proctor.ratings.shown import Shown

CAPTION = 1024


def qr_png(url: str) -> bytes:
    """The link as a QR code, PNG (segno draws it without Pillow)."""
    import segno  # heavy-imports (pyproject.toml): only an invite needs it

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=6, border=4)
    return buf.getvalue()


def bad_request(e: BadInvite, lang: str) -> str:
    """The reply to an /invite that could not be read: what it got wrong, and where the usage is."""
    return t("iv_bad", lang, problem=problem_text(e, lang))


def problem_text(e: BadInvite, lang: str) -> str:
    """What an invite request got wrong, in `lang` (`proctor invite create` says it in English)."""
    return t(f"iv_bad_{e.problem}", lang, text=e.text, days=int(MAX_WINDOW // 86400), hours=MAX_EXTRA_MIN // 60,
             n=MAX_ATTEMPTS, count=MAX_COUNT)


def link_card(inv: Invite, paper: str, url: str, tz: ZoneInfo, lang: str,
              script: str = "orig") -> tuple[str, Keyboard]:
    extra = t("iv_extra", lang, minutes=inv.extra_min) if inv.extra_min else ""
    who = t("iv_for", lang, username=inv.for_username) if inv.for_username else t("iv_for_anyone", lang)
    text = t("iv_created", lang, id=inv.id, paper=to_script(paper, script), link=url,
             closes=moment(inv.closes_at, tz), extra=extra,
             who=who)
    kb = Keyboard([[Button(t("iv_btn_revoke", lang), callback_data=cb.encode(cb.Press.revoke, inv.id))]])
    return clip(text, CAPTION), kb


def listing(rows: list[Row], team: str, tz: ZoneInfo, lang: str,
            script: str = "orig") -> tuple[str, Keyboard | None]:
    """Newest first: status, paper, candidate, score; Revoke and Resend where they still apply."""
    if not rows:
        return t("iv_list_none", lang), None
    lines = [t("iv_list_head", lang, team=team), ""]
    buttons = []
    for r in rows:
        score = f" · {fmt_points(r.score)}/{fmt_points(r.max_score or 0)}" if r.score is not None else ""
        if score and r.earlier:  # every attempt of a 2x invite, as its scores stand (a regrade moves them)
            score = " · " + ", ".join(fmt_points(x) for x in r.earlier) + ", " + score[3:]
        lines.append(t("iv_list_row", lang, id=r.invite.id, status=t(f"iv_status_{r.status.value}", lang),
                       paper=to_script(r.paper, script), who=r.candidate or t("iv_nobody", lang), score=score,
                       closes=moment(r.invite.closes_at, tz)))
        if r.status in (InviteStatus.open, InviteStatus.claimed):
            buttons.append([Button(f"#{r.invite.id} {t('iv_btn_revoke', lang)}",
                                   callback_data=cb.encode(cb.Press.revoke, r.invite.id)),
                            Button(f"#{r.invite.id} {t('iv_btn_resend', lang)}",
                                   callback_data=cb.encode(cb.Press.resend, r.invite.id))])
    return clip("\n".join(lines)), Keyboard(buttons) if buttons else None


def welcome(inv: Invite, paper: PaperSummary, team: str, tz: ZoneInfo, lang: str,
            script: str = "orig") -> tuple[str, Keyboard]:
    extra = t("iv_extra", lang, minutes=inv.extra_min) if inv.extra_min else ""
    text = t("iv_welcome", lang, team=team, paper=to_script(paper.title, script), n=paper.askable,
             max=fmt_points(paper.max_score), minutes=paper.time_limit_min, extra=extra, closes=moment(inv.closes_at, tz),
             rules=t("exam_rules", lang))
    kb = Keyboard([[Button(t("start_button", lang), callback_data=cb.encode(cb.Press.start, inv.id))]])
    return clip(text), kb


def result_card(inv: Invite, a: Attempt, result: Result, candidate: str, lang: str,
                signals: dict[Signal, int] | None = None, *, vis: Visibility,
                sat_before: int = 0, ability: Shown | None = None) -> tuple[str, Keyboard | None]:
    """The lead's card: candidate, paper, score and the ability estimate beside it (`ability`, where
    the read rule shows per-question results: proctor/invite_cards.py), score by section, time used,
    written answers to review, how many integrity signals there are to look at, and the candidate's
    earlier sittings of the paper through /exam. Sections and written answers as far as the read rule
    lets the lead read them (`vis`): a hiring paper the team is not verified for shows the total only,
    since a section's score moving between sittings would tell a key."""
    match a.finish_reason:
        case FinishReason.timeout:
            reason = t("iv_card_timeout", lang)
        case FinishReason.cancelled:
            reason = t("iv_card_cancelled", lang)
        case _:
            reason = ""
    if ability is not None:
        reason += t("iv_card_ability", lang, band=band(ability, lang))
    sections = "\n".join(
        t("section_line", lang, title=section_name(s.title, lang), score=fmt_points(round(s.score, 2)),
          max=fmt_points(s.max_score)) + (t("awaiting_review", lang) if s.pending_review else "")
        for s in result.sections) if vis.shows(Fact.section) else t("hv_card_withheld", lang)
    answers = vis.shows(Fact.others_answers)
    pending = t("iv_card_pending", lang, n=result.pending_review) if result.pending_review and answers else ""
    if signals:
        found = [t(f"sig_{s.value}", lang, n=signals[s]) for s in Signal if signals.get(s)]
        pending += t("iv_card_signals", lang, n=len(found), list=t("sig_sep", lang).join(found))
    if sat_before:
        pending += t("iv_card_sat_before", lang, n=sat_before)
    text = t("iv_card", lang, id=inv.id, candidate=candidate, paper=a.title,
             score=fmt_points(round(result.score, 2)), max=fmt_points(result.max_score),
             pct=f"{result.percent:.1f}", reason=reason,
             used=fmt_duration((a.finished_at or a.started_at) - a.started_at), sections=sections, pending=pending)
    kb = (Keyboard([[Button(t("iv_btn_review", lang), callback_data=cb.encode(cb.Press.review, a.id))]])
          if result.pending_review and answers else None)
    return clip(text), kb


def regraded(vis: Visibility, question: QuestionRef | None, old: float | None, new: float, lang: str) -> str:
    """The line above a card sent again after a regrade: the question that changed (its reference) when
    the lead may read its result, else only the score's change (which question moved would tell its key)."""
    if question is not None and question.question_id is not None and vis.shows(Fact.result, question.question_id):
        return t("iv_card_regraded", lang, question=question, old=fmt_points(old or 0), new=fmt_points(new))
    return t("iv_card_rescored", lang, old=fmt_points(old or 0), new=fmt_points(new))


def team_note(a: Attempt, lang: str) -> str:
    """The group's line when an invited sitting ends: every member reads it, so it names the paper
    only (the candidate and the score are the inviting leads', on their card)."""
    return t("iv_note", lang, paper=a.title)
