"""Importing papers: parse every file first (seed text or exported JSON), then write them all in
one transaction. A file that cannot be parsed imports nothing."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bank.errors import ImportFailed
from bank.importer.json_format import looks_like_json, parse_json_text
from bank.importer.seed_format import parse_seed_text, slug_for
from bank.models import Paper
from bank.paper_store import save_papers
from proctor.storage.db import Database

__all__ = ["import_files", "parse_file", "parse_text"]


def parse_text(text: str, *, file: str, stem: str) -> list[Paper]:
    """Papers from the text of one file, whichever format. Raises ImportFailed."""
    if looks_like_json(text):
        return parse_json_text(text, file=file)
    paper = parse_seed_text(text, file=file, slug=slug_for(stem, _first_line(text)))
    return [paper]


def parse_file(path: Path | str) -> list[Paper]:
    """Papers from one file: a JSON export or a paper in the seed text format.

    Raises ImportFailed naming the file and the place.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ImportFailed(str(path), "file", f"cannot read it: {e.strerror or e}") from e
    if b"\x00" in data[:8192]:
        raise ImportFailed(str(path), "byte 1", "a binary file, not a text paper or a JSON export")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ImportFailed(str(path), f"byte {e.start + 1}", "not UTF-8 text") from e
    return parse_text(text, file=path.name, stem=path.stem)


def parse_files(paths: Iterable[Path | str]) -> list[Paper]:
    """Parse and validate every file; two files giving one slug is an error. Raises ImportFailed."""
    papers: list[Paper] = []
    origin: dict[str, str] = {}
    for path in paths:
        for paper in parse_file(path):
            if paper.slug in origin:
                raise ImportFailed(str(path), f"paper {paper.slug}",
                                   f"the same paper also comes from {origin[paper.slug]}")
            origin[paper.slug] = str(path)
            papers.append(paper)
    return papers


async def import_files(db: Database, paths: Iterable[Path | str], now: float) -> list[Paper]:
    """Parse every file, then write all papers in one transaction; returns them as written.

    Raises ImportFailed (nothing is written). Re-importing a paper updates it in place.
    """
    papers = parse_files(paths)
    if not papers:
        raise ImportFailed("(no files)", "arguments", "nothing to import")
    ids = await save_papers(db, papers, now)
    return [p.model_copy(update={"id": i}) for p, i in zip(papers, ids, strict=True)]


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0][:200]
