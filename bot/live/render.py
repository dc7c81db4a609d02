"""Pure rendering of a live round: its countdown, each quiz poll, the standings and the podium."""

from __future__ import annotations

from dataclasses import dataclass

from bank.kinds import Kind
from bank.models import Question
from bank.option_order import OptionOrder
from bank.question_ref import QuestionRef
from bank.script import to_script
from bot.i18n import t
from bot.text_limits import MAX_TEXT, clip, utf16_len
from proctor.live.answers import Standing, Standings
from proctor.live.draw import shown_options
from proctor.live.model import Item, Round

# Telegram's quiz polls (sendPoll): question 1-300, options 1-100 each (2-10 of them), explanation 0-200
POLL_QUESTION = 300
POLL_OPTION = 100
POLL_OPTIONS = 10
POLL_EXPLANATION = 200
# what lv_poll puts before the stem, at most (30 questions a round; a reference as long as P9999 · Q9999)
NUMBERING = max(utf16_len(t("lv_poll", lang, pos=30, n=30, question=QuestionRef("P9999", 9999), stem=""))
                for lang in ("en", "zh"))
STANDINGS_TOP = 5
MEDALS = ("🥇", "🥈", "🥉")


def fits(stem: str, options: list[str]) -> bool:
    """Does a question fit one quiz poll? (A question that doesn't is not drawn.)"""
    return (0 < utf16_len(stem) <= POLL_QUESTION - NUMBERING and 2 <= len(options) <= POLL_OPTIONS
            and all(0 < utf16_len(o) <= POLL_OPTION for o in options))


@dataclass(frozen=True, slots=True)
class Poll:
    question: str
    options: list[str]
    explanation: str | None


def poll(q: Question, item: Item, total: int, lang: str, script: str) -> Poll:
    """The quiz poll of question `item`: options in the order drawn (pinned ones where the paper put
    them), the explanation clipped to 200 (the full one is on the question's review page)."""
    order = OptionOrder.of(item.option_order, q.letter_refs)
    stem = to_script(order.rewrite(q.stem, "stem"), script)
    if q.kind == Kind.truefalse:
        options = [t("lv_true", lang), t("lv_false", lang)]
    else:
        options = [clip(to_script(o, script), POLL_OPTION) for o in shown_options(item.option_order, q.options)]
    question = clip(t("lv_poll", lang, pos=item.pos + 1, n=total, question=q.ref, stem=stem), POLL_QUESTION)
    explanation = to_script(order.rewrite(q.explanation, "explanation"), script).strip() if q.explanation else ""
    return Poll(question, options, clip(explanation, POLL_EXPLANATION) or None)


def countdown(r: Round, wait: float) -> str:
    return t("lv_countdown", r.lang, n=r.questions, s=r.seconds, wait=round(wait))


def _name(s: Standing) -> str:
    return s.name or str(s.user_id)


def standings(r: Round, asked: int, st: Standings) -> str:
    """The standings message after question `asked` (1-based): the top five and how many played."""
    lines = [t("lv_standings", r.lang, pos=asked, n=r.questions, players=st.players), ""]
    lines += [t("lv_standings_row", r.lang, rank=s.rank, name=_name(s), points=s.points) for s in st.top]
    if not st.top:
        lines.append(t("lv_standings_empty", r.lang))
    return clip("\n".join(lines), MAX_TEXT)


def podium(r: Round, st: Standings, stopped: bool) -> str:
    """The end of a round: the top three who scored, with their points; everyone else's place is /live me."""
    head = "lv_podium_stopped" if stopped else "lv_podium"
    lines = [t(head, r.lang, players=st.players), ""]
    scored = [s for s in st.top[:3] if s.points > 0]  # a medal for 0 points is no medal
    lines += [t("lv_podium_row", r.lang, medal=MEDALS[s.rank - 1], name=_name(s), points=s.points) for s in scored]
    if not st.top:
        lines.append(t("lv_podium_empty", r.lang))
    else:
        if not scored:
            lines.append(t("lv_podium_none_scored", r.lang))
        lines += ["", t("lv_podium_me", r.lang)]
    return clip("\n".join(lines), MAX_TEXT)


def my_place(name: str, r: Round, st: Standings, lang: str) -> str:
    if st.me is None:
        return t("lv_me_none", lang, name=name)
    # right out of answered, as /leaderboard live counts it; the questions skipped are said apart
    return t("lv_me", lang, name=name, rank=st.me.rank, players=st.players, points=st.me.points,
             right=st.me.right, answers=st.me.answers, n=r.questions)
