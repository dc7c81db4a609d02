"""The one language rule (bot/voice.py), as chats see it through the real Application and the fake
Bot API: a message to one person is in that person's language and script, a message posted in a group
in the group's, a toast in the presser's; the private result of a group quiz is a message to one
person; jobs (daily pushes, the close) and the outbox (the exam's result card) follow the same rule.

Four people (their Telegram language, their /lang and /script) meet four groups (their /lang and
/script, or none: the bot's default, English as written). The table below says whose voice each kind
of message is in; every cell is driven as a person would and read off what the chat shows: the bot's
own words in the expected language and script (Traditional for a Chinese reader of Traditional), and
question text in the expected script."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bank.script import to_script
from bot.i18n import CATALOGUE, HANT
from tests.bot.test_daily_support import fast, run_job
from tests.harness import BotEnv, paper_button
from tests.papers_fixture import small_paper

ADMIN = 1
# name: (Telegram language, /lang, /script) and the voice a message to them is in
PEOPLE = {
    "Ann": ("en", None, None, ("en", "orig")),
    "Bo": ("zh", None, None, ("zh", "orig")),
    "Cy": ("en", "zh", "hant", ("zh", "hant")),
    "Di": ("zh", "en", "hant", ("en", "hant")),
}
# group id: (title, /lang, /script) and the voice a message posted there is in
GROUPS = {
    -1001: ("Grp-Plain", None, None, ("en", "orig")),
    -1002: ("Grp-Zh", "zh", None, ("zh", "orig")),
    -1003: ("Grp-Hant", "zh", "hant", ("zh", "hant")),
    -1004: ("Grp-EnHant", None, "hant", ("en", "hant")),
}
PERSON, GROUP = "person", "group"
# the table: a kind of message, whose voice it is in
WHOSE = {
    "reply in a private chat": PERSON,
    "reply in a group": GROUP,
    "toast of a group quiz's button": PERSON,
    "private result of a group quiz": PERSON,
    "daily quiz pushed to a group (job)": GROUP,
    "daily quiz's close in a group (job)": GROUP,
    "daily quiz pushed to a private chat (job)": PERSON,
    "exam result card (outbox)": PERSON,
}
STEM = "梯度累积的作用之{n}（）"  # Simplified as written: "累積" shows it in Traditional
SIMPLIFIED, TRADITIONAL = "梯度累积", "梯度累積"


def catalogue_lang(voice: tuple[str, str]) -> str:
    """The catalogue language a voice reads: Chinese in Traditional for a Chinese reader of hant."""
    language, script = voice
    return HANT if (language, script) == ("zh", "hant") else language


def fragment(key: str, lang: str) -> str:
    """The longest stretch of the bot's own words in `key`'s text for `lang` (between placeholders)."""
    texts = CATALOGUE[key]
    text = to_script(texts["zh"], "hant") if lang == HANT else texts[lang]
    return max((literal for literal, *_ in string.Formatter().parse(text)), key=len).strip()


def speaks(text: str, keys: tuple[str, ...], voice: tuple[str, str]) -> str | None:
    """None when `text` holds one of `keys` in `voice` and in no other catalogue language; else why not."""
    lang = catalogue_lang(voice)
    for key in keys:
        mine = fragment(key, lang)
        others = {fragment(key, other) for other in ("en", "zh", HANT)} - {mine}
        assert others, f"{key}: the languages read alike, the cell proves nothing"
        if mine in text and not any(o in text and o not in mine for o in others):
            return None
    return f"expected {lang} ({' / '.join(fragment(k, lang) for k in keys)}) in {text!r}"


def shows_script(text: str, voice: tuple[str, str]) -> str | None:
    """None when the question text in `text` is in `voice`'s script."""
    want, not_want = (TRADITIONAL, SIMPLIFIED) if voice[1] == "hant" else (SIMPLIFIED, TRADITIONAL)
    return None if want in text and not_want not in text else f"question text not in {voice[1]}: {text!r}"


def singles() -> Paper:
    """Five single-choice questions: whichever the daily quiz draws, a letter answers it."""
    return Paper(slug="singles", title="Singles", settings=PaperSettings(), sections=[
        Section(kind=Kind.single, title="单项选择题", points_each=1, questions=[
            Question(number=n, kind=Kind.single, stem=STEM.format(n=n), options=["甲", "乙", "丙", "丁"],
                     answer="A", explanation="梯度累积可模拟大批次。", points=1) for n in range(1, 6)])])


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,), shuffle=False)
    await e.seed(singles(), small_paper("hire", exam_only=True))
    await e.start()
    fast(e)
    yield e
    await e.close()


async def test_every_message_is_in_the_voice_the_rule_gives(env):
    failures: list[str] = []

    def check(kind: str, who: str, where: str, problem: str | None) -> None:
        if problem is not None:
            failures.append(f"{kind} · {who} · {where}: {problem}")

    def expected(kind: str, person: str, group_id: int | None) -> tuple[str, str]:
        return PEOPLE[person][3] if WHOSE[kind] == PERSON or group_id is None else GROUPS[group_id][3]

    lead = env.api.user(ADMIN, "Lea")
    people = {}
    for name, (code, lang, script, _) in PEOPLE.items():
        people[name] = user = env.api.user(10 + len(people), name, language_code=code)
        await user.send("/start")
        await user.wait_message()
        for command, arg in (("/lang", lang), ("/script", script)):
            if arg:
                await user.send(f"{command} {arg}")
                await user.wait_message()
    groups = {}
    for gid, (title, lang, script, _) in GROUPS.items():
        groups[gid] = group = env.api.group(gid, title)
        group.add_members(*(u.id for u in people.values()))
        for command in ([f"/lang {lang}"] if lang else []) + ([f"/script {script}"] if script else []) + [
                "/daily on 09:00 UTC"]:
            await lead.send(command, chat=group)
            await lead.wait_message(chat=group)

    kind = "reply in a private chat"
    for name, user in people.items():
        await user.send("/help")
        check(kind, name, "private", speaks((await user.wait_message()).text, ("help_head_private",),
                                            expected(kind, name, None)))

    kind = "reply in a group"
    for gid, group in groups.items():
        for name, user in people.items():
            await user.send("/help", chat=group)
            check(kind, name, GROUPS[gid][0], speaks((await user.wait_message(chat=group)).text,
                                                     ("help_head_group",), expected(kind, name, gid)))

    kind = "daily quiz pushed to a group (job)"
    posted = {}
    for gid, group in groups.items():
        await lead.send("/daily now", chat=group)
        await env.api.wait_for(lambda group=group: len(_questions(group.chat())) == 5, what="five questions")
        posted[gid] = _questions(group.chat())
        for msg in posted[gid]:
            voice = expected(kind, "Ann", gid)
            check(kind, "-", GROUPS[gid][0], speaks(msg.text, ("daily_q_header",), voice) or shows_script(msg.text, voice))
    await env.idle()

    kind = "toast of a group quiz's button"
    for gid in groups:
        for name, user in people.items():
            toast = await user.press(posted[gid][0], "A")
            check(kind, name, GROUPS[gid][0], speaks(await toast.wait(), ("daily_verdict_correct", "daily_verdict_wrong"),
                                                     expected(kind, name, gid)))

    kind = "private result of a group quiz"
    for gid, group in groups.items():
        for name, user in people.items():
            await user.send("A", chat=group, reply_to=posted[gid][1])
            title = GROUPS[gid][0]
            dm = await user.wait_message(lambda m, title=title: title in (m.text or ""))
            check(kind, name, title, speaks(dm.text, ("daily_recorded_dm",), expected(kind, name, gid)))

    kind = "daily quiz's close in a group (job)"
    await env.idle()
    env.clock.set(env.clock.now() + 86_400)  # past every quiz's close
    for job in [j for j in env.app.job_queue.jobs() if j.name.startswith("daily-close:")]:
        await run_job(env, job.name)
    await env.idle()
    for gid, group in groups.items():
        closing = next((m for m in group.chat() if m.from_bot and (m.text or "").startswith("🔑")), None)
        check(kind, "-", GROUPS[gid][0], "no close posted" if closing is None else
              speaks(closing.text, ("daily_close_title",), expected(kind, "Ann", gid)))

    kind = "daily quiz pushed to a private chat (job)"
    for name, user in people.items():
        await user.send("/daily now")
        first = await user.wait_message(lambda m: bool(_questions([m])))
        voice = expected(kind, name, None)
        check(kind, name, "private", speaks(first.text, ("daily_q_header",), voice) or shows_script(first.text, voice))

    kind = "exam result card (outbox)"
    for name, user in people.items():
        await user.send("/exam")
        chooser = await user.wait_message(lambda m: paper_button(m, "Demo paper hire") is not None)
        await user.press(chooser, paper_button(chooser, "Demo paper hire"))
        for key in ("start_button", "btn_finish", "btn_yes_finish"):  # the buttons read in any language
            await _press(user, key)
        card = await user.wait_message(lambda m: m.text.startswith("🏁") and "Demo paper hire" in m.text)
        check(kind, name, "private", speaks(card.text, ("result_title",), expected(kind, name, None)))

    assert not failures, "\n".join(failures)


def _questions(messages) -> list:
    """The daily quiz's question messages (in any of the catalogue's languages)."""
    heads = tuple(fragment("daily_q_header", lang) for lang in ("en", "zh", HANT))
    return [m for m in messages if m.from_bot and (m.text or "").startswith(heads)]


async def _press(user, key: str) -> None:
    """Press the button `key` names on the newest message that has it, in whichever language it reads."""
    labels = {CATALOGUE[key]["en"], CATALOGUE[key]["zh"], to_script(CATALOGUE[key]["zh"], "hant")}
    msg = await user.wait_message(lambda m: bool(labels & set(m.button_texts)))
    await user.press(msg, next(b for b in msg.button_texts if b in labels))


def test_only_the_rule_picks_a_language():
    """No module of the bot but bot/voice.py builds a Voice or reads pick_lang (bot/i18n.py's primitive:
    stored, else Telegram's, else the default); the desk's session is the desk's own (desk/web.py)."""
    root = Path(__file__).resolve().parents[2]
    found = []
    for path in sorted((root / "bot").rglob("*.py")):
        name = str(path.relative_to(root))
        if name in ("bot/voice.py", "bot/i18n.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if called in ("pick_lang", "Voice"):
                    found.append(f"{name}:{node.lineno} {called}")
    assert found == []


async def test_lang_and_script_alone_say_the_current_setting(env):
    lead = env.api.user(ADMIN, "Lea")
    ann = env.api.user(21, "Ann", language_code="en")
    group = env.api.group(-1009, "Grp")
    group.add_members(21)

    async def reply(text: str, chat=None) -> str:
        await ann.send(text, chat=chat)
        return (await ann.wait_message(chat=chat)).text

    assert (await reply("/lang")).startswith("Your language is English (automatic: your Telegram language).\n")
    assert (await reply("/script")).startswith("Questions are shown as written.\n")
    await reply("/lang zh")
    await reply("/script hant")
    assert (await reply("/lang")).startswith("你的界面語言：中文（你設置的）。\n")
    assert (await reply("/script")).startswith("題目以繁體顯示。\n")
    assert (await reply("/lang", group)).startswith("This group's language is English (the bot's default).\n")
    await lead.send("/lang zh", chat=group)
    await lead.wait_message(chat=group)
    assert (await reply("/lang", group)).startswith("本群的语言：中文（由群管理员设置）。\n")
    assert (await reply("/script", group)).startswith("本群题目以原文显示。\n")
