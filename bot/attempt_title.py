"""An attempt's title as a reader sees it: a paper's in their script; the mock paper's and an adaptive
practice's (stored as one bilingual string, proctor/exams/model.py) in their language only."""

from __future__ import annotations

from bank.script import to_script
from bot.i18n import t
from proctor.exams.model import ADAPTIVE_TITLE, MOCK_TITLE


def attempt_title(title: str, lang: str, script: str = "orig") -> str:
    """The stored title of an attempt, for a screen in `lang` and `script`."""
    if title == MOCK_TITLE:
        return to_script(t("mock_title", lang), script)
    if title == ADAPTIVE_TITLE:
        return to_script(t("adaptive_title", lang), script)
    return to_script(title, script)
