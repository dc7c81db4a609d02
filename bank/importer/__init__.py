"""Importing papers: parse every file first (seed text or exported JSON), then write them all in
one transaction. A file that cannot be parsed imports nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

from bank.errors import ComposedSlug, ImportFailed, SameTitle
from bank.grading.terms import SegmentIn
from bank.import_notes import notes_from_json
from bank.importer.json_format import looks_like_json, parse_json_text
from bank.importer.seed_format import parse_seed_text
from bank.models import Paper
from bank.paper_store import refuse_composed_slug, slug_for, with_key_terms, write_papers
from bank.store import Store

__all__ = ["import_files", "parse_by_slug", "parse_file", "parse_text"]


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


Parse = Callable[[Path | str], list[Paper]]


def parse_files(paths: Iterable[Path | str], parse: Parse = parse_file) -> list[Paper]:
    """Parse and validate every file (with `parse`, by default seed text or JSON); two files
    giving one slug is an error. Raises ImportFailed."""
    return [paper for paper, _ in parse_by_slug(paths, parse).values()]


def parse_by_slug(paths: Iterable[Path | str], parse: Parse = parse_file) -> dict[str, tuple[Paper, str]]:
    """slug -> (paper, the file it came from), in order. Raises ImportFailed."""
    found: dict[str, tuple[Paper, str]] = {}
    for path in paths:
        for paper in parse(path):
            if paper.slug in found:
                raise ImportFailed(str(path), f"paper {paper.slug}",
                                   f"the same paper also comes from {found[paper.slug][1]}")
            found[paper.slug] = (paper, str(path))
    return found


async def import_files(db: Store, paths: Iterable[Path | str], now: float, *,
                       as_new: bool = False, parse: Parse = parse_file) -> list[Paper]:
    """Parse every file, then write all papers in one transaction; returns them as written.

    Raises ImportFailed (nothing is written). Re-importing a paper (same slug) updates it in
    place; a paper with another paper's title is refused unless `as_new`.
    """
    found = parse_by_slug(paths, parse)
    if not found:
        raise ImportFailed("(no files)", "arguments", "nothing to import")
    # in this process: the bundled bank's terms ship (nothing to segment, even in the bot); scripts and tests
    papers = await with_key_terms([paper for paper, _ in found.values()], segment_in=SegmentIn.THIS_PROCESS)
    ids = await db.run_write(lambda conn: write_found_in(conn, found, papers, now, as_new=as_new))
    return await as_written(db, papers, ids)


def write_found_in(conn: sqlite3.Connection, found: dict[str, tuple[Paper, str]], papers: list[Paper],
                   now: float, *, as_new: bool) -> list[int]:
    """Write `papers` (those of `found`, with their key terms: bank.paper_store.with_key_terms) inside the
    caller's transaction; returns their ids. Raises ImportFailed naming the file of a taken title."""
    try:
        refuse_composed_slug(conn, papers)
        return write_papers(conn, papers, now, same_title=as_new)
    except SameTitle as e:
        raise ImportFailed(found[e.slug][1], f"paper {e.slug}",
                           f"{e}; to import it as another paper anyway, use --as-new") from e
    except ComposedSlug as e:
        raise ImportFailed(found[e.slug][1], f"paper {e.slug}", str(e)) from e


async def as_written(db: Store, papers: list[Paper], ids: list[int]) -> list[Paper]:
    """The papers with their ids and their notes as written: a question a lead edited keeps its edit, and
    its paper's notes say so."""
    if not ids:
        return []
    notes = {r["id"]: notes_from_json(r["notes"]) for r in await db.fetchall(
        f"SELECT id, notes FROM papers WHERE id IN ({','.join('?' * len(ids))})", ids)}
    return [p.model_copy(update={"id": i, "notes": notes.get(i, p.notes)}) for p, i in zip(papers, ids, strict=True)]


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0][:200]
