"""Ratings in words (docs/ratings.md): a rating with the band it very likely lies in, a person's own on
/mystats, a question's measured difficulty beside its author's label, and why its measure flags it.
Pure; texts in bot/catalogue/ratings.py. The desk says the same with the same keys."""

from __future__ import annotations

from bot.i18n import joined, t, tn
from proctor.ratings.shown import Shown
from proctor.teams.measured import Measured


def band(s: Shown, lang: str) -> str:
    """'1620 (very likely 1530–1710)'."""
    return t("rt_band", lang, rating=s.rating, low=s.low, high=s.high)


def own_lines(s: Shown | None, listed: bool, lang: str) -> list[str]:
    """The person's own rating on /mystats: its band, whether it is provisional, who sees it."""
    if s is None:
        return [t("rt_mine_none", lang)]
    lines = [tn("rt_mine", s.answers, lang, band=band(s, lang))]
    if s.provisional:
        lines.append(t("rt_mine_provisional", lang))
    lines.append(t("rt_mine_public" if listed else "rt_mine_private", lang))
    return lines


def measured_line(m: Measured, lang: str) -> str:
    """A question's measure beside its author's label (/bankstats)."""
    return tn("ms_row", m.answers, lang, pct=round(100 * m.right), label=m.label or t("ms_no_label", lang))


def flags_words(m: Measured, lang: str) -> str:
    """Why the measure flags the question, in words."""
    return joined((t(f"ms_flag_{f.value}", lang) for f in m.flags), lang)
