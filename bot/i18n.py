"""The interface text catalogue: every string the bot shows, in English and Simplified Chinese."""

from __future__ import annotations

import string
from functools import cache

from bank.kinds import Kind
from bank.question_ref import BankId, QuestionRef
from bank.script import to_script
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
HANT = "zh-Hant"  # the Chinese texts in Traditional characters, for a Chinese reader whose /script is hant


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
    """The text for `key` in `lang` (falls back to English), formatted with `kw`. `lang` is what
    `bot.voice.Voice.lang` gives: "en", "zh", or HANT (the Chinese text in Traditional characters;
    the values in `kw` are data, each already in the reader's script). A question is named by a field
    `question` (or `…_question`) whose value is a `QuestionRef`, rendered `P3 · Q43`; a bank id by a
    field `bank_id` holding a `BankId`, rendered `bank id #83`. Raises TypeError for a reference in any
    other field, and for anything else in those fields."""
    text = _traditional(key) if lang == HANT else CATALOGUE[key].get(lang) or CATALOGUE[key]["en"]
    if not kw:
        return text
    for name, value in kw.items():
        if isinstance(value, (QuestionRef, BankId)) or name in _REF_FIELDS or name.endswith("_question"):
            kw[name] = _reference(key, name, value, lang)
    return _FORMAT.format(text, **kw)


_REF_FIELDS = ("question", "bank_id")


def question_text(handle: QuestionRef | BankId, lang: str) -> str:
    """A question's reference ("P3 · Q43", "P3 · 第43题") or its bank id ("bank id #83"), as every text
    says it: what `t` puts in a `{question}` or `{bank_id}` field (a terminal's line uses it alone)."""
    if isinstance(handle, BankId):
        return t("ref_bank_id", lang, id=handle.question_id)
    if not handle.code:
        return t("ref_question_new", lang, n=handle.n)
    return t("ref_question", lang, code=handle.code, n=handle.n)


def _reference(key: str, name: str, value: object, lang: str) -> object:
    """A question's reference or bank id in its field, as text."""
    if isinstance(value, BankId) and name == "bank_id":
        return question_text(value, lang)
    if isinstance(value, QuestionRef) and (name == "question" or name.endswith("_question")):
        return question_text(value, lang)
    raise TypeError(f"{key}: the field {name!r} got {type(value).__name__}; a question is named by a "
                    f"QuestionRef in `question` (or `…_question`), a bank id by a BankId in `bank_id`")


@cache
def _traditional(key: str) -> str:
    """The catalogue's Chinese text for `key` in Traditional characters, converted once."""
    texts = CATALOGUE[key]
    return to_script(texts["zh"], "hant") if texts.get("zh") else texts["en"]


def chinese(lang: str) -> bool:
    """Whether `lang` (a `t` language) is Chinese, in either script."""
    return lang in ("zh", HANT)


def kind_name(kind: Kind, lang: str) -> str:
    """The kind's one name on every screen (bot/catalogue/marks.py)."""
    return t(f"kind_{kind.value}", lang)


def joined(items, lang: str) -> str:
    """A list in running text: "1, 2, 3" in English, "1、2、3" in Chinese."""
    return ("、" if chinese(lang) else ", ").join(str(i) for i in items)


def spans(numbers, lang: str) -> str:
    """Whole numbers in running text with each run of three or more as a range: "2–40", "1, 3–5, 9"
    ("1、3–5、9" in Chinese). The places of a sitting a finish screen lists."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 2 else joined(r, lang) for r in runs]
    return joined(parts, lang)


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
