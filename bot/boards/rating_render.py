"""Pure rendering of the rating boards (/leaderboard rating [topic]): a group's board, naming only the
members who chose it, and a person's own place in each of their teams."""

from __future__ import annotations

from bot.i18n import t, tn
from bot.rating_words import band
from bot.text_limits import MAX_TEXT, clip
from proctor.teams.rating_board import RatingBoard

TOP = 20  # settled rows a group's board names


def _topic(topic: str, lang: str) -> str:
    return t("rt_topic", lang, topic=topic) if topic else ""


def board_text(board: RatingBoard, title: str, topic: str, unnamed: int, lang: str) -> str:
    """A group's board: `board` holds the named members only; `unnamed`: the rated members who are not."""
    lines = [t("rt_board_title", lang, title=title) + _topic(topic, lang), t("rt_board_rule", lang), ""]
    if not board.ranked and not board.provisional:
        lines.append(t("rt_board_empty", lang))
    lines += [t("rt_board_row", lang, rank=r.rank, name=r.name or str(r.user_id), band=band(r.shown, lang))
              for r in board.ranked[:TOP]]
    if board.provisional:
        lines += ["", t("rt_board_provisional", lang)] if board.ranked else [t("rt_board_provisional", lang)]
        lines += [t("rt_board_provisional_row", lang, name=r.name or str(r.user_id), band=band(r.shown, lang))
                  for r in board.provisional[:TOP]]
    if unnamed:
        lines += ["", tn("rt_board_others", unnamed, lang)]
    return clip("\n".join(lines), MAX_TEXT)


def places_text(places: list[tuple[str, RatingBoard]], user_id: int, topic: str, lang: str) -> str:
    """The person's place on each of their teams' boards (`places`: each team's title and whole board)."""
    if not places:
        return t("rt_no_teams", lang)
    lines = [t("rt_places_head", lang, topic=_topic(topic, lang))]
    for title, board in places:
        mine = board.place(user_id)
        if mine is None:
            lines.append(t("rt_place_none", lang, title=title))
        elif mine.rank is None:
            lines.append(t("rt_place_provisional", lang, title=title, band=band(mine.shown, lang)))
        else:
            lines.append(t("rt_place_row", lang, title=title, rank=mine.rank, n=len(board.ranked),
                           band=band(mine.shown, lang)))
    return clip("\n".join(lines), MAX_TEXT)
