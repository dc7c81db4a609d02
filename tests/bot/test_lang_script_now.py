"""/lang and /script alone say what is set: a person's own choice (or that it follows Telegram) in a
private chat, the group's own (or the bot's default) in a group; the usage still answers a bad word."""

from __future__ import annotations

import pytest

from tests.harness import BotEnv

GROUP = -100


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path)
    await e.start()
    e.api.group(GROUP, "Team").set_admins([1])
    yield e
    await e.close()


async def _say(user, text: str, chat: int | None = None) -> str:
    await user.send(text, chat=chat)
    return (await user.wait_message(chat=chat)).text


async def test_lang_and_script_alone_say_what_is_set_in_a_private_chat(env):
    """Before: /lang alone answered with its usage only, as if the word were wrong."""
    li = env.api.user(2, "Li", language_code="zh-hans")
    assert await _say(li, "/lang") == ("你的界面语言是中文：你尚未选择，因此跟随 Telegram 的设置。"
                                       "发送 /lang en 或 /lang zh 可选择。")
    await _say(li, "/lang en")
    assert await _say(li, "/lang") == ("Your language is English (you chose it). /lang en, /lang zh or /lang auto "
                                       "changes it.")
    assert await _say(li, "/script") == ("Questions are shown as written. /script orig, /script hans or "
                                         "/script hant changes it.")
    await _say(li, "/script hant")
    assert (await _say(li, "/script")).startswith("Questions are shown in Traditional Chinese.")
    assert (await _say(li, "/lang xx")).startswith("Usage: /lang en")


async def test_lang_and_script_alone_say_the_groups_in_a_group(env):
    lead, member = env.api.user(1, "Lea"), env.api.user(3, "Max")
    assert await _say(member, "/lang", GROUP) == ("This group's language is English, the bot's default. Its "
                                                  "administrators set one with /lang en or /lang zh.")
    await _say(lead, "/lang zh", GROUP)
    await _say(lead, "/script hans", GROUP)
    assert await _say(member, "/lang", GROUP) == ("本群的语言是中文，由群管理员设置。群管理员可发送 /lang en、"
                                                  "/lang zh 或 /lang auto 更改。")
    assert await _say(member, "/script", GROUP) == ("本群题目以简体显示。群管理员可发送 /script orig、/script hans "
                                                    "或 /script hant 更改。")
