"""`/live <paper or topic>` on the bundled bank, through the fake Bot API: a paper named as every command
names one (its code, a part of its title in either script), else a topic (a question's own, else its
paper's subject); a part of several titles that is no topic gets their codes."""

from __future__ import annotations

import pytest

from proctor.live import rounds
from tests.harness import BotEnv
from tests.live_support import GROUP
from tests.reads import paper_of_question

LEA = 1


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEA,), shuffle=False)  # the bundled bank
    await e.start()
    yield e
    await e.close()


async def _round_on(env: BotEnv, words: str) -> set[str]:
    """Start a round with `words` and stop it; the codes of the papers its questions come from."""
    lead, group = env.api.user(LEA, "Lea"), env.api.group(GROUP, "Team")
    await lead.send(f"/live {words}", chat=group)
    countdown = await lead.wait_message(chat=group)
    assert countdown.text.startswith("⚡ Live round"), countdown.text
    await env.idle()
    running = await rounds.running(env.db, GROUP)
    assert running is not None
    _, items = await rounds.load(env.db, running.id)
    await lead.send("/live stop", chat=group)
    await env.idle()
    papers = await paper_of_question(env.db)
    return {papers[i.question_id].code for i in items}


@pytest.mark.parametrize("words, codes", [("P1 12q", {"P1"}), ("试题 12q", {"P3"}),
                                          ("混合精度数值稳定性 12q", {"P3"}), ("优化 30q", {"P4", "P5"})])
async def test_a_round_draws_from_the_paper_or_the_topic_named(env, words, codes):
    assert await _round_on(env, words) == codes


async def test_a_part_of_several_titles_that_is_no_topic_gets_their_codes(env):
    lead, group = env.api.user(LEA, "Lea"), env.api.group(GROUP, "Team")
    await lead.send("/live 大模型", chat=group)
    reply = await lead.wait_message(chat=group)
    assert reply.text.startswith("“大模型” is in several titles: P1 ") and "· P5 " in reply.text
    await lead.send("/live 单项选择题", chat=group)  # a section's heading is no topic
    assert (await lead.wait_message(chat=group)).text == "No paper or topic matches “单项选择题”."
    assert await env.db.fetchall("SELECT id FROM live_rounds") == []
