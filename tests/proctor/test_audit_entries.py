"""An audit entry's action is decoded once when the log is read: an AuditAction, or, for an action an
older release wrote that this one no longer has, the text as it was written."""

import pytest

from proctor.audit import AuditAction
from proctor.teams import audit


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db


async def test_an_entry_s_action_reads_as_its_enum_and_an_unknown_one_as_written(db):
    await audit.log(db, at=1.0, actor=7, chat_id=None, action=AuditAction.retire, target="question:3")
    await db.run_write(lambda conn: conn.execute(
        "INSERT INTO audit_log (at, actor_id, chat_id, action, target, target_user, detail) "
        "VALUES (2.0, 7, NULL, 'mystery', 'thing:1', NULL, '{}')"))
    mystery, retire = await audit.recent(db)
    assert type(retire.action) is AuditAction and retire.action is AuditAction.retire
    assert type(mystery.action) is str and mystery.action == "mystery"
