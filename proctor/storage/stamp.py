"""The stamp that tells an Exam Proctor database file from any other: SQLite's application id in the
file's header (migration 038 puts it on every database; every backup is stamped as it is written).

It is read from the header's bytes, not through SQLite: asking whether a file may be replaced opens
nothing, creates no `-wal` or `-shm` beside it, and works on a file that is not a database at all.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

APP_ID = 0x50524354  # 'PRCT': `PRAGMA application_id`, as migrations/038_app_stamp.sql sets it
_MAGIC = b"SQLite format 3\x00"  # the header's first 16 bytes
_HEADER = 100  # bytes of the header SQLite writes at the start of page 1
_WAL = 2  # the header's write and read versions (bytes 18, 19): 1 rollback journal, 2 WAL


class FileKind(StrEnum):
    """What a file the bot would write over holds, as far as its header tells."""

    absent = "absent"
    backup = "backup"  # a stamped database in rollback-journal mode: how a backup is written
    live = "live"  # a stamped database in WAL mode: a bot's own database (running or not)
    other = "other"  # anything else: not SQLite, another program's database, an older unstamped one


def kind_of(path: Path) -> FileKind:
    """What `path` holds, from its first 100 bytes. Raises OSError when it cannot be read."""
    try:
        with path.open("rb") as f:
            head = f.read(_HEADER)
    except FileNotFoundError:
        return FileKind.absent
    if len(head) < _HEADER or not head.startswith(_MAGIC) or int.from_bytes(head[68:72], "big") != APP_ID:
        return FileKind.other
    return FileKind.live if head[18] == _WAL or head[19] == _WAL else FileKind.backup
