"""The one language rule: whose language and script a message is written in, and whose zone its
times are told in.

- A message to one person (their private chat: a reply there, a card, a notice, a file, the private
  result of a group quiz) is in that person's language and script: their /lang, else their Telegram
  language, else PROCTOR_LANGUAGE; their /script, else the questions as written.
- A message posted in a group (a reply there, a daily quiz, a live round, a digest, a team note) is in
  the group's: its administrators' /lang and /script, else PROCTOR_LANGUAGE and as written.
- A button's toast is in the presser's own, wherever the button is.

Every place that picks a language asks one of `to_person`, `to_group` (or the wrappers below, which
read what they need); nothing else builds a `Voice`. Times follow the same rule: the zone of the chat
the message goes to (`zone_for`)."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.i18n import HANT, pick_lang
from bot.services import HasBotData, services
from proctor.chats import chat_zone, group_prefs
from proctor.people.users import UserPrefs, find_prefs

GroupPrefs = tuple[str | None, str | None]  # a group's own (language, script); None: not set


@dataclass(frozen=True, slots=True)
class Voice:
    """How a message reads: the language of the bot's own words and the script question text is
    shown in ("orig": as written, "hans": Simplified, "hant": Traditional)."""

    language: str  # "en" | "zh"
    script: str

    @property
    def lang(self) -> str:
        """What `bot.i18n.t` takes: the language, and for a Chinese reader of Traditional characters
        the Chinese texts in Traditional (what the bot generates follows the reader's script)."""
        return HANT if self.language == "zh" and self.script == "hant" else self.language


def to_person(prefs: UserPrefs | None, default: str, telegram_code: str | None = None) -> Voice:
    """A message to one person: their /lang, else their Telegram language (the update's, else the
    one their record last kept), else `default`; their /script, else as written."""
    if prefs is None:
        return Voice(pick_lang(None, telegram_code, default), "orig")
    return Voice(pick_lang(prefs.language, telegram_code or prefs.telegram_language, default),
                 prefs.script or "orig")


def to_group(group: GroupPrefs | None, default: str) -> Voice:
    """A message posted in a group: the group's own /lang and /script, else `default` and as written."""
    language, script = group if group is not None else (None, None)
    return Voice(pick_lang(language, None, default), script or "orig")


def of_prefs(ctx: HasBotData, prefs: UserPrefs | None) -> Voice:
    """`to_person` for a job or the outbox (no update: the Telegram language their record kept)."""
    return to_person(prefs, services(ctx).settings.language)


async def person_voice(ctx: HasBotData, user_id: int | None) -> Voice:
    """`to_person` for a user known by id (their record read; None or unknown: the defaults)."""
    svc = services(ctx)
    return to_person(None if user_id is None else await find_prefs(svc.db, user_id), svc.settings.language)


async def group_voice(ctx: HasBotData, chat_id: int) -> Voice:
    """`to_group` for a group known by id (its own language and script read)."""
    svc = services(ctx)
    return to_group(await group_prefs(svc.db, chat_id), svc.settings.language)


async def chat_voice(ctx: HasBotData, chat_id: int, private: bool) -> Voice:
    """The voice of a message to a chat: a private chat's person's, a group's own."""
    return await person_voice(ctx, chat_id) if private else await group_voice(ctx, chat_id)


async def zone_for(ctx: HasBotData, chat_id: int | None) -> ZoneInfo:
    """The zone a message's times are told in: the zone of the chat it goes to (a person's private
    chat, or the group: proctor.chats.chat_zone), else PROCTOR_TIMEZONE."""
    svc = services(ctx)
    return await chat_zone(svc.db, chat_id, svc.settings.timezone)  # no chat (every team): the bot's zone
