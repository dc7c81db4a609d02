"""The interface text catalogue: every string the bot shows, in English and Simplified Chinese."""

from __future__ import annotations

import string

from bank.kinds import Kind
from bot.catalogue import (
    ask,
    audit,
    authoring,
    authoring_edit,
    cli,
    core,
    counts,
    daily,
    desk,
    exam,
    examui,
    formats,
    invites,
    leads,
    lint,
    live,
    marks,
    ratings,
)

LANGS = ("en", "zh")


def _merge(*modules) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for mod in modules:
        for key, texts in mod.TEXTS.items():
            if key in merged:
                raise ValueError(f"text key {key!r} defined twice")
            merged[key] = texts
    return merged


CATALOGUE = _merge(audit, core, exam, daily, leads, invites, desk, examui, ask, authoring_edit, authoring, marks, live,
                   lint, formats, cli, counts, ratings)


def t(key: str, lang: str, /, **kw) -> str:
    """The text for `key` in `lang` (falls back to English), formatted with `kw`."""
    texts = CATALOGUE[key]
    text = texts.get(lang) or texts["en"]
    return _FORMAT.format(text, **kw) if kw else text


def kind_name(kind: Kind, lang: str) -> str:
    """The kind's one name on every screen (bot/catalogue/marks.py)."""
    return t(f"kind_{kind.value}", lang)


def joined(items, lang: str) -> str:
    """A list in running text: "1, 2, 3" in English, "1、2、3" in Chinese."""
    return ("、" if lang == "zh" else ", ").join(str(i) for i in items)


def pick_lang(stored: str | None, telegram_code: str | None, default: str = "en") -> str:
    """The user's own choice (/lang) wins, then their Telegram language, then the default."""
    if stored in LANGS:
        return stored
    if telegram_code:
        return "zh" if telegram_code.lower().startswith("zh") else "en"
    return default if default in LANGS else "en"



class _Formatter(string.Formatter):
    """str.format plus counted forms, the one plural helper of both languages: `{n:pt|pts}` shows
    "pt" when n is 1 and "pts" otherwise; `{n:zero|one|other}` has a form for 0 too, e.g.
    `{n:nothing changed|# score changed|# scores changed}` ("#" is n as written; n may be a number
    or a number already written out, "2.5")."""

    def format_field(self, value, format_spec: str) -> str:
        if "|" in format_spec:
            forms = format_spec.split("|")
            try:
                count = float(value)
            except (TypeError, ValueError):
                count = None
            zero, one, other = forms if len(forms) == 3 else (forms[-1], *forms[-2:])
            form = zero if count == 0 else one if count == 1 else other
            return form.replace("#", str(value))
        return super().format_field(value, format_spec)


_FORMAT = _Formatter()


def tn(key: str, n: float, lang: str, /, **kw) -> str:
    """The text for `key` counting `n` ("{n} {n:pt|pts}"): points like 1.5 as written, never "1.0"."""
    return t(key, lang, n=f"{n:g}" if isinstance(n, float) else n, **kw)
