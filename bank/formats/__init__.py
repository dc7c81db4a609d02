"""Question formats in and out: GIFT, Aiken, Moodle XML, spreadsheets (XLSX, CSV); see files.py."""

EXPORT_FORMATS = ("gift", "aiken", "xml", "xlsx", "csv", "json")  # light: `proctor`'s parser lists them
