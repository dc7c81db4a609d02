"""Issue 22.14: /help shows what this user can do here (a candidate, a group's lead, a configured admin; in
private or in a group), and the command menus, one per scope and language, show the same."""

import re

import pytest

from bot.app import FEATURES
from bot.core import COMMANDS as CORE
from bot.menus import (
    ADMIN_PRIVATE,
    CANDIDATE_PRIVATE,
    LEAD_IN_GROUP,
    MEMBER_IN_GROUP,
    help_text,
    offered,
    table,
)
from tests.harness import BotEnv
from tests.papers_fixture import small_paper

ADMIN, LEAD, ANN, TEAM = 1, 10, 30, -100
EVERY_COMMAND = {c[0] for c in CORE} | {c[0] for f in FEATURES for c in f.commands}


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper())
    for uid, name in ((ANN, "Ann"), (LEAD, "Lena"), (ADMIN, "Ada")):  # before the menus: the admin's is per chat
        e.api.user(uid, name)
    e.api.group(TEAM, "Alpha").set_admins([LEAD])
    await e.start()
    yield e
    await e.close()


def listed(text: str) -> set[str]:
    return {line.split()[0][1:] for line in text.splitlines() if line.startswith("/")}


async def help_of(user, chat=None) -> set[str]:
    await user.send("/help", chat=chat)
    return listed((await user.wait_message(chat=chat)).text)


async def test_help_lists_what_each_caller_can_do_here(env):
    ann, lead, admin = env.api.user(ANN, "Ann"), env.api.user(LEAD, "Lena"), env.api.user(ADMIN, "Ada")
    candidate = await help_of(ann)
    assert {"exam", "practice", "cancel", "team", "dispute"} <= candidate
    assert not candidate & {"review", "invite", "desk", "newquestion", "editq", "join", "digest"}
    in_group = await help_of(ann, TEAM)
    assert {"join", "team", "daily", "leaderboard"} <= in_group and not in_group & {"exam", "review", "invite"}
    as_lead = await help_of(lead, TEAM)
    assert {"team", "join", "invite", "invites", "desk", "review", "digest"} <= as_lead
    assert not as_lead & {"exam", "newquestion", "editq", "keyfix"}
    assert await help_of(lead) == candidate  # a group's lead is a lead in that group only
    as_admin = await help_of(admin)
    assert {"newquestion", "newpaper", "editq", "keyfix", "invite", "invites", "desk", "exam"} <= as_admin
    assert "join" not in as_admin and "digest" not in as_admin  # group commands
    assert as_admin | as_lead | in_group == EVERY_COMMAND  # every command is shown to someone, somewhere


async def test_the_menus_are_what_help_shows_in_each_scope(env):
    ann, lead, admin = env.api.user(ANN, "Ann"), env.api.user(LEAD, "Lena"), env.api.user(ADMIN, "Ada")
    scopes = {"private": ({"type": "all_private_chats"}, ann, None), "group": ({"type": "all_group_chats"}, ann, TEAM),
              "lead": ({"type": "all_chat_administrators"}, lead, TEAM),
              "admin": ({"type": "chat", "chat_id": ADMIN}, admin, None)}
    await env.api.wait_for(lambda: env.api.commands(scopes["admin"][0], "zh"), timeout=10, what="every menu")
    for scope, user, chat in scopes.values():
        shown = await help_of(user, chat)
        for lang in ("", "zh"):
            assert {c["command"] for c in env.api.commands(scope, lang)} == shown, (scope, lang)
    assert [c["command"] for c in env.api.commands()] == [c["command"] for c in env.api.commands(scopes["private"][0])]
    zh = {c["command"]: c["description"] for c in env.api.commands(scopes["admin"][0], "zh")}
    assert zh["newquestion"].startswith("逐步添加题目")


def test_the_table_puts_every_command_somewhere(tmp_path):
    from bot.app import build_application

    commands = table(build_application(BotEnv(tmp_path).settings()))
    shown = {c.name for caller in (CANDIDATE_PRIVATE, MEMBER_IN_GROUP, LEAD_IN_GROUP, ADMIN_PRIVATE)
             for c in offered(commands, caller)}
    assert shown == {c.name for c in commands} == EVERY_COMMAND


def test_chinese_help_translates_every_placeholder(tmp_path):
    """Issue 22: zh /help kept `<reason>`, `<paper>`, `<question id>` in English while the rest was Chinese."""
    from bot.app import build_application

    commands = table(build_application(BotEnv(tmp_path).settings()))
    for caller in (CANDIDATE_PRIVATE, MEMBER_IN_GROUP, LEAD_IN_GROUP, ADMIN_PRIVATE):
        text = help_text(commands, caller, "zh")
        assert not re.findall(r"<[^>]*[a-z][^>]*>|\[(paper|topic)\b|@user", text), caller
    english = help_text(commands, ADMIN_PRIVATE, "en")
    assert "/dispute <reason>" in english and "/editq <question>" in english
