"""A question's identity in an exported file: `slug/s2/q5/v1`, its paper's slug, its section's position,
its number and the version it was exported at. Exports write it (a sheet's 编号/ref column, a GIFT
`// ref:` comment line, Moodle XML's <idnumber>; JSON has the slug and positions themselves) and
imports read it back into `Question.origin`, so that the file, edited and imported again, updates
those questions in place (proctor/teams/file_edits.py)."""

from __future__ import annotations

import re

from bank.models import Question, Source

_REF = re.compile(r"^([^/\s]+)/s(\d+)/q(\d+)(?:/v(\d+))?$")  # a slug holds no "/": no backtracking
EXAMPLE = "slug/s1/q3/v1"


def ref_text(slug: str, section: int, q: Question) -> str:
    return f"{slug}/s{section}/q{q.number}/v{q.version}"


def read_ref(q: Question, text: str) -> None:
    """Sets `q.origin` and `q.version` from a ref; nothing for an empty one. Raises ValueError."""
    text = text.strip()
    if not text:
        return
    m = _REF.match(text)
    if m is None or not m.group(1).isascii():
        raise ValueError(f"expected a ref as the export wrote it, such as {EXAMPLE}, or nothing for a new "
                         f"question; found {text!r}")
    q.origin = Source(paper=m.group(1), section=int(m.group(2)), number=int(m.group(3)))
    q.version = int(m.group(4) or 1)
