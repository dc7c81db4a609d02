"""Issue 22.8: naming someone the bot can't find says what is true: a person who wrote to the bot but has
no Telegram username is found by replying to their message, not by writing to the bot again."""

import pytest

from tests.harness import BotEnv
from tests.papers_fixture import small_paper

TEAM, LEAD, CARL = -300, 10, 70


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper())
    await e.start()
    e.api.group(TEAM, "Gamma").set_admins([LEAD])
    yield e
    await e.close()


async def test_a_member_without_a_username_is_named_by_a_reply_not_told_to_write_first(env):
    lead, carl = env.api.user(LEAD, "Lena"), env.api.user(CARL, "Carl")  # Carl has no username
    await carl.send("/join", chat=TEAM)
    await carl.wait_message(chat=TEAM)
    await lead.send("/team accept @carl", chat=TEAM)
    said = (await lead.wait_message(chat=TEAM)).text
    assert "write to me first" not in said  # Carl did write: that was not true
    assert "Reply to one of their messages with the same command" in said, said
