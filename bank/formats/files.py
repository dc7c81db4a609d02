"""Reading any supported file into papers, and writing papers out in a chosen format.

Formats are told by the file's extension (.gift, .xml, .xlsx, .csv, .aiken, .json, .txt), then by
content: JSON, Moodle XML, Aiken, GIFT; anything else is the seed paper format.
"""

from __future__ import annotations

import re
from pathlib import Path

from bank.errors import ImportFailed
from bank.formats import EXPORT_FORMATS, FileFormat, child
from bank.formats.aiken import looks_like_aiken, parse_aiken, to_aiken
from bank.formats.build import Parsed, assemble
from bank.formats.gift import looks_like_gift, parse_gift
from bank.formats.gift_export import to_gift
from bank.formats.moodle_xml import looks_like_moodle_xml, parse_moodle_xml
from bank.formats.moodle_xml_export import to_moodle_xml
from bank.formats.sheet import parse_csv, parse_xlsx
from bank.formats.sheet_export import rows, template_rows, to_csv, to_xlsx
from bank.formats.summary import ExportSummary, Reason
from bank.import_notes import english_note
from bank.importer import parse_file as parse_seed_or_json
from bank.importer import parse_text
from bank.importer.headers import find_headers
from bank.importer.json_format import dumps, export_papers
from bank.models import Paper
from bank.paper_counts import unaskable_reason

MAX_FILE_BYTES = 50 * 1024 * 1024
# a line opening with a question's name or a category; [^\S\n], not \s: a run of blank lines is not
# scanned again from each of its line starts
_GIFT_LINE = re.compile(r"^[^\S\n]*(?:::|\$CATEGORY:)", re.MULTILINE)


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ImportFailed(str(path), "file", f"larger than {MAX_FILE_BYTES // 1_000_000} MB")
        return path.read_bytes()
    except OSError as e:
        raise ImportFailed(str(path), "file", f"cannot read it: {e.strerror or e}") from e


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ImportFailed(str(path), f"byte {e.start + 1}", "not UTF-8 text") from e


_BY_EXTENSION = {".gift": FileFormat.gift, ".xml": FileFormat.xml, ".csv": FileFormat.csv,
                 ".aiken": FileFormat.aiken, ".json": FileFormat.seed}


def detect(path: Path, data: bytes) -> FileFormat:
    """gift, aiken, xml, xlsx, csv, or seed (the seed text format or a JSON export)."""
    ext = path.suffix.lower()
    if ext in (".xlsx", ".xlsm") or data[:4] == b"PK\x03\x04":
        return FileFormat.xlsx
    if ext in _BY_EXTENSION:
        return _BY_EXTENSION[ext]
    head = data[:65536].decode("utf-8-sig", errors="replace")
    if head.lstrip().startswith("{") or b"\x00" in data[:8192]:
        return FileFormat.seed
    if looks_like_moodle_xml(head):
        return FileFormat.xml
    text = data.decode("utf-8-sig", errors="replace")
    if looks_like_aiken(text):
        return FileFormat.aiken
    if not find_headers(text) and (looks_like_gift(text) or _GIFT_LINE.search(text)):
        return FileFormat.gift
    return FileFormat.seed


def parse_any(path: Path | str) -> list[Paper]:
    """Papers from one file of any supported format. Raises ImportFailed naming the file and place."""
    path = Path(path)
    data = _read(path)
    kind = detect(path, data)
    if kind is FileFormat.seed:
        return parse_seed_or_json(path)
    return _parse_known(kind, data, path)


def read_any(path: Path | str) -> list[Paper]:
    """parse_any in a child process with the time limit (bank.formats.child), as `proctor import`
    reads a user's files. Raises ImportFailed (TooSlow past the limit)."""
    return child.run(parse_any, Path(path), file=str(path))


def parse_bytes(data: bytes, name: str) -> list[Paper]:
    """Papers from the bytes of a file called `name` (an upload): parse_any without the disk.

    Raises ImportFailed naming the file and place.
    """
    path = Path(name)
    kind = detect(path, data)
    if kind is not FileFormat.seed:
        return _parse_known(kind, data, path)
    if b"\x00" in data[:8192]:
        raise ImportFailed(name, "byte 1", "a binary file, not a text paper or a JSON export")
    return parse_text(_decode(path, data), file=path.name, stem=path.stem)


def _parse_known(kind: FileFormat, data: bytes, path: Path) -> list[Paper]:
    file = path.name
    parsed: Parsed
    if kind is FileFormat.xlsx:
        parsed = parse_xlsx(data, file=file)
    else:
        try:
            text = _decode(path, data)
        except ImportFailed:
            if kind is not FileFormat.csv:
                raise
            try:  # Excel in Chinese saves CSV as GBK
                text = data.decode("gb18030")
            except UnicodeDecodeError:
                raise ImportFailed(file, "file", "neither UTF-8 nor GBK text") from None
        reader = {FileFormat.gift: parse_gift, FileFormat.aiken: parse_aiken, FileFormat.xml: parse_moodle_xml,
                  FileFormat.csv: parse_csv}[kind]
        parsed = reader(text, file=file)
    if not parsed.items:
        why = "; ".join(english_note(n) for n in parsed.notes[:3]) or "the file is empty"
        raise ImportFailed(file, "file", f"no question found ({why})")
    return assemble(parsed, file=file, stem=path.stem, title=path.stem, safe=kind is FileFormat.aiken)


def export(papers: list[Paper], fmt: FileFormat,
           summary: ExportSummary | None = None) -> tuple[str | bytes, ExportSummary]:
    """The papers in `fmt` (one of EXPORT_FORMATS), and what the exporter wrote and left out (added to
    `summary` when given).

    Only JSON carries flags: the other formats leave out the questions that are never asked
    (truncated, corrupted, no key: bank/paper_counts.py's unaskable ones), so that importing them
    elsewhere cannot make them askable.
    """
    summary = ExportSummary() if summary is None else summary
    if fmt is FileFormat.json:
        for p in papers:
            summary.started(p)
            for _ in p.questions():
                summary.wrote(p)
        return dumps(export_papers(papers)) + "\n", summary
    data = _export(_askable_only(papers, summary), fmt, summary)
    return data, summary


def _askable_only(papers: list[Paper], summary: ExportSummary) -> list[Paper]:
    """The papers without their never-asked questions (each counted in `summary`); every section stays,
    so the others keep their places."""
    out = []
    for p in papers:
        sections = []
        for pos, s in enumerate(p.sections, start=1):
            kept = []
            for q in s.questions:
                if unaskable_reason(q.flags) is not None:
                    summary.leave_out(p, pos, q.number, Reason.unaskable)
                else:
                    kept.append(q)
            sections.append(s.model_copy(update={"questions": kept}))
        out.append(p.model_copy(update={"sections": sections}))
    return out


def _export(papers: list[Paper], fmt: FileFormat, summary: ExportSummary) -> str | bytes:
    match fmt:
        case FileFormat.gift:
            return to_gift(papers, summary)
        case FileFormat.aiken:
            return to_aiken(papers, summary)
        case FileFormat.xml:
            return to_moodle_xml(papers, summary)
        case FileFormat.xlsx | FileFormat.csv:
            table = rows(papers, summary)
            return to_xlsx(table) if fmt is FileFormat.xlsx else to_csv(table)
    raise ValueError(f"{fmt} is no export format; expected one of {', '.join(EXPORT_FORMATS)}")


def export_format(path: Path | str) -> FileFormat | None:
    """The export format a file is in (one of EXPORT_FORMATS), None for the seed text format. Raises ImportFailed."""
    path = Path(path)
    return format_of(path.name, _read(path))


def format_of(name: str, data: bytes) -> FileFormat | None:
    """The export format of the bytes of a file called `name` (an upload): one of EXPORT_FORMATS, None
    for the seed text format."""
    kind = detect(Path(name), data)
    if kind is not FileFormat.seed:
        return kind
    return FileFormat.json if data[:65536].decode("utf-8-sig", errors="replace").lstrip().startswith("{") else None


def as_carried(papers: list[Paper], fmt: FileFormat) -> list[Paper]:
    """The papers as `fmt` carries them: exported, then read back (bank/round_trip.py's baseline)."""
    data, _ = export(papers, fmt)
    return parse_bytes(data.encode() if isinstance(data, str) else data, f"baseline.{fmt}")


def template(fmt: FileFormat) -> str | bytes:
    """The empty spreadsheet template (xlsx or csv) with one example row per kind."""
    return to_xlsx(template_rows()) if fmt is FileFormat.xlsx else to_csv(template_rows())


__all__ = ["EXPORT_FORMATS", "FileFormat", "as_carried", "detect", "export", "export_format", "format_of", "parse_any",
           "parse_bytes",
           "read_any", "template"]
