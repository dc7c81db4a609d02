"""docs/settings.md lists every setting the code reads, and only the settings read the environment.
Before: PROCTOR_BOT_USERNAME, PROCTOR_BOT_API_FILE_URL and PROCTOR_CJK_FONT were read and listed nowhere;
PROCTOR_DB, PROCTOR_CJK_FONT and the sandbox's PROCTOR_DESK_PORT were read from os.environ beside them."""

import re
from pathlib import Path

from bot.settings import Settings

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")
# the runner of child processes hands on an allow-listed part of its parent's environment (no setting),
# and so does the runner of pg_dump and pg_restore (with libpq's own PG... settings)
ENV_HANDED_ON = {"bank/child_process.py", "proctor/storage/pg_backups.py"}


def _the_settings() -> set[str]:
    return {info.alias for info in Settings.model_fields.values() if info.alias}


def test_every_setting_is_in_the_table():
    table = (REPO / "docs" / "settings.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)`", table, re.M))
    assert {"TELEGRAM_BOT_TOKEN", "PROCTOR_DB", "PROCTOR_CJK_FONT"} <= _the_settings()  # the record's too
    assert _the_settings() - listed == set()


def test_only_the_settings_read_the_environment():
    readers = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if re.search(r"\b(environ|getenv)\b", path.read_text(encoding="utf-8")):
                readers.add(path.relative_to(REPO).as_posix())
    assert readers - ENV_HANDED_ON <= {"bot/settings.py"}
