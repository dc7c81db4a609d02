"""docs/settings.md lists every setting the code reads: the Settings fields' and any read from the
environment directly. Before: PROCTOR_BOT_USERNAME, PROCTOR_BOT_API_FILE_URL and PROCTOR_CJK_FONT were read
and listed nowhere."""

import re
from pathlib import Path

from bot.settings import FIELDS

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")


def _read_from_the_environment() -> set[str]:
    names = {f.env for f in FIELDS}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            names |= set(re.findall(r"""(?:environ(?:\.get)?|getenv)\s*[\(\[]\s*["']([A-Z][A-Z0-9_]+)["']""",
                                    path.read_text(encoding="utf-8")))
    return names


def test_every_setting_the_code_reads_is_in_the_table():
    table = (REPO / "docs" / "settings.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)`", table, re.M))
    read = _read_from_the_environment()
    assert {"TELEGRAM_BOT_TOKEN", "PROCTOR_DB", "PROCTOR_CJK_FONT"} <= read  # the search finds them
    assert read - listed == set()
