"""The desk's query and form parameters, read into bounded types in one place.

Every number a request carries goes through here before it reaches a query: ids are positive and
fit SQLite's 64-bit INTEGER (`bank.store.as_row_id`), counts are non-negative and as bounded, a
score is a finite number. Anything else is a 400 naming the parameter, never an OverflowError
from a query.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from aiohttp import web

from bank.store import MAX_INTEGER, as_row_id
from proctor.audit import AuditAction


def _bad(name: str, what: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=f"{name}: {what}")


def text(params: Mapping[str, object], name: str) -> str | None:
    """A text field; None if absent, empty, or not text (a file: no desk form sends one)."""
    value = params.get(name)
    return value if isinstance(value, str) and value != "" else None


def row_id(params: Mapping[str, object], name: str) -> int:
    """A required id (a user, an attempt, a question, a dispute, a paper). Raises HTTPBadRequest."""
    value = optional_id(params, name)
    if value is None:
        raise _bad(name, "an id")
    return value


def optional_id(params: Mapping[str, object], name: str) -> int | None:
    """An id, or None when the parameter is absent. Raises HTTPBadRequest for anything else."""
    raw = text(params, name)
    if raw is None:
        return None
    value = as_row_id(raw)
    if value is None:
        raise _bad(name, "an id")
    return value


def count(params: Mapping[str, object], name: str, default: int = 0) -> int:
    """A non-negative whole number (a position, a number of rows to skip). Raises HTTPBadRequest."""
    raw = text(params, name)
    if raw is None:
        return default
    if raw == "0":
        return 0
    value = as_row_id(raw)
    if value is None:
        raise _bad(name, f"a whole number from 0 to {MAX_INTEGER}")
    return value


def chat_id(raw: str) -> int | None:
    """A team's chat id (negative for groups), if `raw` spells one SQLite can hold."""
    digits = raw[1:] if raw.startswith("-") else raw
    value = as_row_id(digits)
    return None if value is None else (-value if raw.startswith("-") else value)


def number(params: Mapping[str, object], name: str) -> float:
    """A required finite number (a score). Raises HTTPBadRequest."""
    raw = text(params, name)
    try:
        value = float(raw) if raw is not None and raw.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise _bad(name, "a number")
    return value


def audit_action(params: Mapping[str, object], name: str = "action") -> AuditAction | None:
    """The audit log's filter: one of its actions, or None when absent. Raises HTTPBadRequest."""
    raw = text(params, name)
    if raw is None:
        return None
    try:
        return AuditAction(raw)
    except ValueError:
        raise _bad(name, "one of the audit log's actions") from None
