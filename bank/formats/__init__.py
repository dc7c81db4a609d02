"""Question formats in and out: GIFT, Aiken, Moodle XML, spreadsheets (XLSX, CSV); see files.py."""

from enum import StrEnum


class FileFormat(StrEnum):
    """A question file's format (light: `proctor`'s parser lists the export formats)."""
    gift = "gift"
    aiken = "aiken"
    xml = "xml"  # Moodle XML
    xlsx = "xlsx"
    csv = "csv"
    json = "json"  # the bank's own export
    seed = "seed"  # the seed text format, or a JSON export: read by one parser, so `detect` says seed for both


EXPORT_FORMATS = (FileFormat.gift, FileFormat.aiken, FileFormat.xml, FileFormat.xlsx, FileFormat.csv, FileFormat.json)
