"""The role matrix: every lead command by a lead, by a non-lead and by another group's lead."""

import pytest

from bank.paper_store import get_question, load_paper
from bot.leads import LEAD_COMMANDS
from bot.leads import callbacks as cb
from proctor.teams import audit, digest, roster
from proctor.teams.curation import set_retired
from tests.harness import BotEnv
from tests.papers_fixture import small_paper
from tests.reads import audit_count, paper_id, question_ids

ALPHA, BETA = -100, -200
ADMIN, LEAD_A, LEAD_B, ANN = 1, 10, 20, 30
BANK_COMMANDS = ("retire", "restore", "examonly")  # the bank is shared: configured admins only
BANK_REFUSAL = "The bank is shared by every team, so only the bot's admins can change it: user 1."  # not met yet
REFUSAL = ("Only team leads can do that. Team leads are the group's administrators and the bot's "
           "configured admins; group administrators use lead commands in their team group.")

# every lead command with arguments that make it do its job
COMMANDS = {
    "review": "/review",
    "report": "/report week",
    "chart": "/chart week",
    "digest": "/digest on fri 17:00",
    "bankstats": "/bankstats",
    "retire": "/retire {qid}",
    "restore": "/restore {qid}",
    "examonly": "/examonly demo on",
    "team": "/team add 10",  # LEAD_A puts themself on Alpha's roster
    "desk": "/desk",
}


def test_the_matrix_covers_every_lead_command():
    assert set(COMMANDS) == set(LEAD_COMMANDS)


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


async def _state(env):
    paper = await load_paper(env.db, "demo", include_retired=True)
    return (await audit_count(env.db),
            sum(q.retired for q in paper.questions()),
            paper.settings.exam_only,
            [await digest.get_schedule(env.db, chat) for chat in (ALPHA, BETA)],
            [await roster.listing(env.db, chat) for chat in (ALPHA, BETA)])


async def _first_question(env) -> int:
    return (await question_ids(env.db, "demo"))[0]


async def _last_entry(env) -> tuple[int, int | None]:
    [entry] = await audit.recent(env.db, limit=1)
    return entry.actor_id, entry.chat_id


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("actor,allowed", [(LEAD_A, True), (ANN, False), (LEAD_B, False)],
                         ids=["lead", "non-lead", "other-groups-lead"])
async def test_lead_command_in_a_group(env, command, actor, allowed):
    qid = await _first_question(env)
    if command == "restore":
        await set_retired(env.db, qid, True, lead=ADMIN, chat_id=None, now=env.clock.now())
    before = await _state(env)
    user = env.api.user(actor, f"user{actor}")
    await user.send(COMMANDS[command].format(qid=qid), chat=ALPHA)
    reply = await user.wait_message(chat=ALPHA, timeout=15)
    await env.idle()
    after = await _state(env)
    if allowed and command in BANK_COMMANDS:
        # a group administrator leads their team, but may not change the bank every team shares
        assert reply.text == BANK_REFUSAL
        assert after == before
    elif allowed:
        assert reply.text != REFUSAL
        if command in ("digest", "report", "team"):  # (the chart is audited when there is data to draw)
            assert after[0] == before[0] + 1  # audited
            assert await _last_entry(env) == (LEAD_A, ALPHA)
    else:
        assert reply.text == REFUSAL
        assert after == before


@pytest.mark.parametrize("command", sorted(COMMANDS))
async def test_group_admins_are_no_leads_in_private_but_configured_admins_are(env, command):
    qid = await _first_question(env)
    text = COMMANDS[command].format(qid=qid)
    lead = env.api.user(LEAD_A, "Lea")
    await lead.send(text)
    assert (await lead.wait_message()).text == REFUSAL
    admin = env.api.user(ADMIN, "Boss")
    await admin.send(text)
    assert (await admin.wait_message(timeout=15)).text != REFUSAL


async def _press_raw(env, user, message, data):
    record = env.api.state.new_callback(user.id, message, data)
    env.api.inject_update({"callback_query": {"id": record.id, "from": user.info.to_api(),
                                              "message": env.api.state.message_to_api(message),
                                              "chat_instance": "1", "data": data}})
    await env.api.wait_for(lambda: record.answered)
    return record.text


async def test_lead_buttons_refuse_non_leads_and_forged_data(env):
    lead, ann = env.api.user(LEAD_A, "Lea"), env.api.user(ANN, "Ann")
    pid = await paper_id(env.db, "demo")
    await lead.send("/bankstats demo", chat=ALPHA)
    stats = await lead.wait_message(lambda m: "Demo paper demo" in (m.text or ""))  # privately
    assert stats.buttons == []  # the bank's switches are a configured admin's: none offered to a lead
    toggle = cb.encode("exam_only", pid, 1, scope=ALPHA)  # the button as an admin's message would carry it
    assert await _press_raw(env, ann, stats, toggle) == "Only a lead of this team can use this button."
    assert not (await load_paper(env.db, "demo")).settings.exam_only
    # the other group's lead may not act for Alpha, even with a well-formed button
    other = env.api.user(LEAD_B, "Leb")
    assert await _press_raw(env, other, stats, toggle) == "Only a lead of this team can use this button."
    # a configured admin's button (scope 0) is refused to a group admin
    assert await _press_raw(env, lead, stats, cb.encode("retire", 1, scope=None)) \
        == "Only a lead of this team can use this button."
    for forged in ("l:zz", "l:r:abc:-100", "l:r:1:100", "l:v:1:1:3", "l:" + "9" * 70, "l:f:1:x"):
        assert await _press_raw(env, lead, stats, forged) == "Sorry, that button is not valid. Please use a fresh message."
    assert await audit_count(env.db) == 0
    # even this team's own lead may not change the shared bank
    assert await _press_raw(env, lead, stats, toggle) == BANK_REFUSAL
    assert not (await load_paper(env.db, "demo")).settings.exam_only
    # a configured admin may
    admin = env.api.user(ADMIN, "Boss")
    await admin.send("/bankstats demo")
    own = await admin.wait_message()
    assert (await (await admin.press(own, "Make exam-only")).wait()).startswith("Demo paper demo is now exam-only")  # the title, not the slug
    assert (await load_paper(env.db, "demo")).settings.exam_only


async def test_configured_admin_changes_the_bank_and_is_audited(env):
    qid = await _first_question(env)
    admin = env.api.user(ADMIN, "Boss")
    await admin.send(f"/retire {qid}", chat=ALPHA)
    assert (await admin.wait_message(chat=ALPHA)).text != BANK_REFUSAL
    await env.idle()
    assert (await get_question(env.db, qid)).retired
    assert await _last_entry(env) == (ADMIN, ALPHA)


async def test_a_lead_refused_the_bank_is_told_which_admins_to_ask(tmp_path):
    """Before: "only the bot's admins (named by whoever runs it)", naming nobody."""
    e = BotEnv(tmp_path, admins=(ADMIN, 2, 3))
    await e.seed(small_paper())
    await e.start()
    try:
        e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
        boss = e.api.user(ADMIN, "Boss", username="boss")
        await boss.send("/start")
        await boss.wait_message()
        ann = e.api.user(2, "Ann")  # no username: her first name
        await ann.send("/start")
        await ann.wait_message()
        lead = e.api.user(LEAD_A, "Lea")
        await lead.send(f"/retire {await _first_question(e)}", chat=ALPHA)
        assert (await lead.wait_message(chat=ALPHA)).text == (
            "The bank is shared by every team, so only the bot's admins can change it: @boss, Ann, user 3.")
    finally:
        await e.close()


async def test_with_no_admin_configured_the_lead_is_told_so(tmp_path):
    e = BotEnv(tmp_path)
    await e.seed(small_paper())
    await e.start()
    try:
        e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
        lead = e.api.user(LEAD_A, "Lea")
        await lead.send("/examonly demo on", chat=ALPHA)
        assert (await lead.wait_message(chat=ALPHA)).text.endswith(
            "whoever runs the bot has named none.")
    finally:
        await e.close()
