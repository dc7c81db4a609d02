"""The message ids the record points at, per chat (the sandbox's fake chats start above them), on both engines."""

import pytest

from proctor.exams import service as attempts
from proctor.people.users import ensure_user
from proctor.storage.message_ids import next_per_chat
from tests.papers_fixture import save_paper, small_paper

T0 = 1_800_000_000.0


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db


async def test_each_chat_starts_above_the_highest_message_id_the_record_holds(db):
    pid = await save_paper(db, small_paper(), T0)
    for user in (7, 8):
        await ensure_user(db, user, "Ann", None, 0)
    first = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    other = await attempts.start_attempt(db, user_id=8, chat_id=8, paper_id=pid, mode="exam", now=T0, shuffle=False)
    await db.run_write(lambda c: c.execute("UPDATE attempts SET message_id = ? WHERE id = ?", (41, first.id)))
    await db.run_write(lambda c: c.execute("UPDATE attempts SET message_id = ? WHERE id = ?", (5, other.id)))
    assert await next_per_chat(db) == {7: 42, 8: 6}
