"""/bankstats in a self-made group leaks nothing of a hiring paper (found in the newcomer hour after
issue 21): a held question's doubt names its key ("key AB, but the explanation speaks for C"), so
a team not verified for the paper sees none of its questions in the overview, and /bankstats <the
paper> gets the one line that says it is a hiring paper. A verified team and a configured admin see
them as before."""

from __future__ import annotations

import pytest

from bank.paper_list import paper_summary
from proctor import hiring
from proctor.storage.db import Database
from proctor.teams.curation import update_settings
from tests.bank.test_quarantine import doubtful_paper
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper
from tests.reads import paper_id

ADMIN, LEAD, ALPHA = 1, 10, -100
DOUBT_LINE = "key in doubt (key AB, but the explanation speaks for C, in the bank's letters)"


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(doubtful_paper(), small_paper())
    db = await Database.open(e.db_path)
    await update_settings(db, "held", actor=0, now=T0, invite_only=True)  # "Held paper" hires
    await db.close()
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])  # a group anyone can make
    yield e
    await e.close()


SENT_PRIVATELY = "📬 Sent to you in a private chat."


async def _bankstats(env, user, args: str = "", chat=None) -> str:
    """The answer to /bankstats: a one-line refusal where it was asked, or the statistics, which
    always go to the lead's private chat (doubts name keys)."""
    before = len(user.chat())
    await user.send(f"/bankstats {args}".strip(), chat=chat)
    reply = await user.wait_message(chat=chat)
    if chat is None or reply.text != SENT_PRIVATELY:
        return reply.text
    return (await env.api.wait_for(lambda: next((m for m in user.chat()[before:] if m.from_bot), None))).text


async def test_an_unverified_team_sees_no_question_of_a_hiring_paper(env):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    overview = await _bankstats(env, lead, chat=ALPHA)
    assert "Held paper" not in overview and "key AB" not in overview
    code = (await paper_summary(env.db, await paper_id(env.db, "held"))).code
    for ref in (code, "Held paper"):
        one_line = await _bankstats(env, lead, ref, chat=ALPHA)
        assert one_line == "🔒 “Held paper” is a hiring paper: its answers are for configured admins and the teams " \
                           "they verified.", one_line
    practice = await _bankstats(env, lead, "Demo paper demo", chat=ALPHA)  # other papers as before
    assert "Demo paper demo" in practice and "questions not answered yet" in practice  # its statistics part


async def test_a_verified_team_and_a_configured_admin_see_the_held_question(env):
    admin = env.api.user(ADMIN, "Boss", language_code="en")
    assert DOUBT_LINE in await _bankstats(env, admin)
    await hiring.verify(env.db, ALPHA, [await paper_id(env.db, "held")], actor=ADMIN, now=env.clock.now())
    lead = env.api.user(LEAD, "Lea", language_code="en")
    assert DOUBT_LINE in await _bankstats(env, lead, chat=ALPHA)
    assert "questions not answered yet" in await _bankstats(env, lead, "Held paper", chat=ALPHA)
