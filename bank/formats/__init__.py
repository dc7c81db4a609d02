"""Question formats in and out: GIFT, Aiken, Moodle XML, spreadsheets (XLSX, CSV); see files.py."""
