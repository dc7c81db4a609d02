"""A paper's counts in words (bank/paper_counts.py): the one line every command and chat screen that
counts a paper's questions shows, "42 askable · 7 held (4 key in doubt, 3 repeats) · 2 unaskable
(1 cut off, 1 garbled) · 0 retired", and its companions."""

from __future__ import annotations

from collections.abc import Sequence

from bank.paper_counts import Standing, Tally
from bot.i18n import joined, t, tn

_REASONS: dict[Standing, tuple[str, ...]] = {
    Standing.held: ("held_key", "held_duplicate"),
    Standing.unaskable: ("truncated", "garbled", "no_key"),
}


def _part(c: Tally, s: Standing, lang: str) -> str:
    """One standing's count, with the reasons that count any ("7 held (4 key in doubt, 3 repeats)")."""
    what = tn(f"pc_{s.value}", c.of(s), lang)
    why = [tn(f"pc_{name}", getattr(c, name), lang) for name in _REASONS.get(s, ()) if getattr(c, name)]
    return t("pc_why", lang, what=what, why=joined(why, lang)) if why else what


def standings_text(c: Tally, lang: str) -> str:
    """Every standing with its count (held and unaskable with their reasons, those that count any)."""
    return " · ".join(_part(c, s, lang) for s in Standing)


def tally_text(c: Tally, lang: str) -> str:
    """"51 questions: 42 askable · 7 held (…) · 2 unaskable (…) · 0 retired"."""
    return tn("pc_total", c.total, lang, standings=standings_text(c, lang))


def flags_text(c: Tally, lang: str) -> str:
    """The tallies beside the standings: repaired, without an explanation, not yet asked (when known)."""
    parts = [tn("pc_repaired", c.repaired, lang), tn("pc_no_explanation", c.no_explanation, lang)]
    if c.not_yet_asked is not None:
        parts.append(tn("pc_not_yet_asked", c.not_yet_asked, lang))
    return " · ".join(parts)


def change_text(before: Tally, after: Tally, lang: str) -> str:
    """The standings that moved between two tallies of a paper, as they stand now, with how many more or
    fewer ("since the last import: 8 held (5 key in doubt, 3 repeats) (+1) · 41 askable (−1)"); "" when
    none did."""
    moved = []
    for s in Standing:
        if _part(before, s, lang) == _part(after, s, lang):
            continue
        diff = after.of(s) - before.of(s)
        moved.append(t("pc_change", lang, what=_part(after, s, lang),
                       delta=f"({'+' if diff > 0 else '−'}{abs(diff)})" if diff else "").rstrip())
    return t("pc_changed", lang, changes=" · ".join(moved)) if moved else ""


def papers_section(counted: Sequence[tuple[str, Tally]], lang: str) -> list[str]:
    """A heading and a line per paper (its code and `tally_text`), for the papers in `counted`."""
    if not counted:
        return []
    return [t("pc_papers_head", lang), *(t("pc_paper_line", lang, code=code, counts=tally_text(c, lang))
                                           for code, c in counted)]
