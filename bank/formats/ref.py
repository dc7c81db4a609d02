"""A question's identity in an exported file: `slug/s2/q5/n12/v1`, its paper's slug, its section's
position, its number, its place in the paper's full order (the n of its reference, `P3 · Q12`: written
for a question of its own paper, read so that an import into another bank keeps it; refs written
before it was carried, `slug/s2/q5/v1`, read as ever) and the version it was exported at. Exports write it (a sheet's 编号/ref column, a GIFT
`// ref:` comment line, Moodle XML's <idnumber>; JSON has the slug and positions themselves) and
imports read it back into `Question.origin`, so that the file, edited and imported again, updates
those questions in place (proctor/teams/file_edits.py)."""

from __future__ import annotations

import re

from bank.models import Question, Source

_REF = re.compile(r"^([^/\s]+)/s(\d+)/q(\d+)(?:/n(\d+))?(?:/v(\d+))?$")  # a slug holds no "/": no backtracking
EXAMPLE = "slug/s1/q3/n3/v1"


def ref_text(slug: str, section: int, q: Question) -> str:
    """The ref of `q` in the paper `slug` writes; n only for a question of that paper (a composed paper's
    questions have theirs in their own papers: read elsewhere, its questions are numbered in its order)."""
    return f"{slug}/s{section}/q{q.number}{home_n(slug, q)}/v{q.version}"


def home_n(slug: str, q: Question) -> str:
    """`/n12` when `q` is stored in the paper `slug`, else ''."""
    n = q.home_seq(slug)
    return "" if n is None else f"/n{n}"


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
    q.seq = int(m.group(4)) if m.group(4) else None
    q.version = int(m.group(5) or 1)
