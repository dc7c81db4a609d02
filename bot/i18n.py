"""The interface text catalogue: every string the bot shows, in English and Simplified Chinese."""

from __future__ import annotations

from bot.catalogue import core, daily, desk, exam, invites, leads

LANGS = ("en", "zh")


def _merge(*modules) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for mod in modules:
        for key, texts in mod.TEXTS.items():
            if key in merged:
                raise ValueError(f"text key {key!r} defined twice")
            merged[key] = texts
    return merged


CATALOGUE = _merge(core, exam, daily, leads, invites, desk)


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


def tn(key: str, n: float, lang: str, /, **kw) -> str:
    """The text for `key` counting `n`: an English text holds "one|other" forms ("{n} pt|{n} pts"),
    picked by `n` (1 → one, anything else → other); a text without "|" is used for every count.
    `n` is shown with `{n}` (points like 1.5 as written, never "1.0")."""
    texts = CATALOGUE[key]
    text = texts.get(lang) or texts["en"]
    forms = text.split("|")
    form = forms[0] if (n == 1 or len(forms) == 1) else forms[1]
    return form.format(n=f"{n:g}" if isinstance(n, float) else n, **kw)
