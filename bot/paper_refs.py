"""What a person is told when a paper reference (bank/paper_list.py `pick_paper`) names no paper, or
several: then one line lists their codes, for /exam, /invite, /leaderboard paper, /bankstats, /examonly."""

from __future__ import annotations

from bank.errors import NotFound
from bank.paper_list import AmbiguousPaper, InviteOnlyPaper, codes_line
from bot.i18n import t
from bot.text_limits import clip

MAX_KEY = 60  # characters of the reference echoed back


def unknown_paper(e: NotFound, key: str, lang: str, unknown: str = "l_paper_unknown") -> str:
    """`unknown` (a text with {paper}) for no paper; the matching papers' codes for several; that
    only an invite opens it for an invite-only paper (`pick_offered`)."""
    if isinstance(e, AmbiguousPaper):
        return clip(t("paper_ambiguous", lang, paper=e.key[:MAX_KEY], codes=codes_line(e.matches)))
    if isinstance(e, InviteOnlyPaper):  # it exists: only an invite link opens it
        return t("exam_invite_only", lang, paper=e.key[:MAX_KEY])
    return t(unknown, lang, paper=key.strip()[:MAX_KEY])
