"""What a file says of a paper rather than of a question: its code, title, subject and settings, and
how GIFT and Moodle XML name a paper and a section in a category path.

An export writes a paper's category as `$course$/top/<code> <title>/<section>` (a `/` inside a name
doubled, as Moodle writes it), its subject as it is, and its settings as one line of
`key=value` pairs (`settings_text`): `time=45; attempts=2; grading=best; …`. The readers take them
back with `read_category` and `read_settings`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bank.errors import BankError
from bank.models import PaperSettings
from bank.paper_settings import check_settings

COURSE = "$course$/top"
_CODE_AND_TITLE = re.compile(r"(P[1-9][0-9]{0,8}) (.+)", re.DOTALL)
_SPLIT = re.compile(r"(?<!/)/(?!/)")  # a single "/": "//" is a "/" inside a name


@dataclass
class PaperFacts:
    """A paper's facts as a file gave them (empty: the file does not say)."""

    code: str = ""
    subject: str = ""
    settings: PaperSettings | None = None


def one_line(text: str) -> str:
    """A text as one line of a comment or a category's info: a line break as `\\n`, a backslash doubled."""
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def from_one_line(text: str) -> str:
    """A text `one_line` wrote, trimmed."""
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text.strip())


def _name(text: str) -> str:
    """A name in a category path: one line, runs of spaces as one, a `/` doubled, and a space between a
    `/` at either end and the separator (the reader trims it), so `a/` then `b` is not `a` then `/b`."""
    name = " ".join(text.split()).replace("/", "//")
    return (" " if name.startswith("/") else "") + name + (" " if name.endswith("/") else "")


def category_path(code: str, title: str, section: str) -> str:
    """`$course$/top/P3 title/section`: a paper's section as a GIFT or Moodle XML category."""
    paper = f"{code} {title}" if code else title
    return f"{COURSE}/{_name(paper)}/{_name(section)}"


def read_category(path: str) -> tuple[str, str, str] | None:
    """(code, title, section) from a category `category_path` wrote (an untitled section: ""); None for
    any other path (a category of one level, or of three: a topic, as a hand-written file means it)."""
    rest = path.strip()
    for prefix in ("$course$/", "top/"):
        if rest.lower().startswith(prefix.lower()):
            rest = rest[len(prefix):]
    parts = [p.replace("//", "/").strip() for p in _SPLIT.split(rest)]
    if len(parts) != 2 or not parts[0]:
        return None
    paper, section = parts
    m = _CODE_AND_TITLE.fullmatch(paper)
    return (m.group(1), m.group(2), section) if m else ("", paper, section)


# the settings line's keys, in the order written, and PaperSettings' field for each
_KEYS = {"time": "time_limit_min", "attempts": "attempts_allowed", "grading": "grading_method",
         "multi": "multi_policy", "exam-only": "exam_only", "invite-only": "invite_only",
         "shuffle": "shuffle_options", "review": "review", "pass": "pass_percent", "signals": "signals",
         "similar": "signal_similar", "fast": "signal_fast", "late": "signal_late", "quick": "signal_quick"}
_SWITCHES = {"exam_only", "invite_only", "shuffle_options", "signals"}
_NONE = {"attempts_allowed": "unlimited", "review": "default", "pass_percent": "off"}


def settings_text(s: PaperSettings) -> str:
    """Every setting as one line: `time=60; attempts=unlimited; grading=best; …`."""
    values = s.model_dump(mode="json")
    out = []
    for key, name in _KEYS.items():
        v = values[name]
        text = (("on" if v else "off") if name in _SWITCHES else _NONE[name] if v is None
                else f"{v:g}" if isinstance(v, float) else str(v))
        out.append(f"{key}={text}")
    return "; ".join(out)


def read_settings(text: str) -> PaperSettings:
    """The settings a `settings_text` line gives; a setting it leaves out keeps its default.
    Raises ValueError naming the setting."""
    changes: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in re.split(r"[;；]", text))):
        key, sep, value = (x.strip() for x in part.partition("="))
        name = _KEYS.get(key.lower())
        if name is None or not sep:
            raise ValueError(f"expected settings as key=value (keys {', '.join(_KEYS)}), found {part!r}")
        changes[name] = _value(name, value.lower(), key)
    try:
        checked = check_settings({k: v for k, v in changes.items() if not (k == "review" and v is None)})
    except BankError as e:
        raise ValueError(str(e)) from None
    for name in _SWITCHES:
        if name in checked:
            checked[name] = bool(checked[name])
    return PaperSettings.model_validate({**changes, **checked})


def _value(name: str, value: str, key: str) -> Any:
    if name in _SWITCHES:
        if value not in ("on", "off"):
            raise ValueError(f"{key} is on or off, found {value!r}")
        return value == "on"
    if name in _NONE and value == _NONE[name]:
        return None
    if name in ("grading_method", "multi_policy", "review"):
        return value
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{key} takes a number, found {value!r}") from None
    return int(number) if number.is_integer() and name in ("time_limit_min", "attempts_allowed", "signal_fast",
                                                           "signal_late") else number
