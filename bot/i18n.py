"""The interface text catalogue: every string the bot shows, in English and Simplified Chinese."""

from __future__ import annotations

from bot.catalogue import core, daily, desk, exam, examui, invites, leads

LANGS = ("en", "zh")


def _merge(*modules) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for mod in modules:
        for key, texts in mod.TEXTS.items():
            if key in merged:
                raise ValueError(f"text key {key!r} defined twice")
            merged[key] = texts
    return merged


CATALOGUE = _merge(core, exam, daily, leads, invites, desk, examui)


def t(key: str, lang: str, /, **kw) -> str:
    """The text for `key` in `lang` (falls back to English), formatted with `kw`."""
    texts = CATALOGUE[key]
    text = texts.get(lang) or texts["en"]
    return text.format(**kw) if kw else text


def pick_lang(stored: str | None, telegram_code: str | None, default: str = "en") -> str:
    """The user's own choice (/lang) wins, then their Telegram language, then the default."""
    if stored in LANGS:
        return stored
    if telegram_code:
        return "zh" if telegram_code.lower().startswith("zh") else "en"
    return default if default in LANGS else "en"
