"""The sandbox's team group: typed lines drive you, Ann and Bob in "Sandbox team" and the private chats.

In-process tests run `terminal_chat` with the sandbox's cast against the real Application (BotEnv);
the last test pipes lines into the real `proctor sandbox` command.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bank.paper_store import get_questions
from proctor.daily import delivery
from sandbox.fakeapi import FakeBotApi
from sandbox.session import SANDBOX_GROUP, SANDBOX_USER, cast, handled_by
from sandbox.terminal import parse_line, prefixes, terminal_chat
from tests.bot.test_daily_support import fast, run_job
from tests.harness import BotEnv
from tests.papers_fixture import small_paper
from tests.process_helpers import child_env
from tests.reads import daily_answers, the_delivery

QUIZ = re.compile(r"^team bot \[#(\d+)\]: 📅 Daily quiz · (\d)/5")


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path, admins=(SANDBOX_USER,))
    await e.seed(small_paper("demo"))
    await e.start()
    fast(e)
    yield e
    await e.close()


async def drive(env: BotEnv, *script) -> list[str]:
    """Types the script's lines into the sandbox's terminal; a step may be an async function that
    returns the line (to read the database first, or to run a job between two lines)."""
    you, group, teammates = cast(env.api)
    steps = iter(script)
    printed: list[str] = []

    async def read_line() -> str:
        step = next(steps, "")
        if callable(step):
            step = await step()
        return f"{step}\n" if step else ""

    await terminal_chat(env.api, you, group=group, teammates=teammates, read_line=read_line,
                        write=printed.append, group_quiet=0.3, handled=handled_by(env.app))
    return printed


async def question(env: BotEnv, kind: str):
    """(message id, key as shown) of today's group question of this kind."""
    sent = [i for i in await delivery.items(env.db, (await the_delivery(env.db)).id) if i.message_id is not None]
    keys = await get_questions(env.db, [i.question_id for i in sent])
    found = [(i, keys[i.question_id].answer) for i in sent if keys[i.question_id].kind == kind]
    assert found, f"no {kind} question today"
    item, key = found[0]
    if kind == "fill":
        return item.message_id, "、".join(alts[0] for alts in key)
    return item.message_id, item.option_order.index(key) + 1


@pytest.mark.parametrize(("line", "who", "in_group", "text"), [
    ("/help", "Lee", False, "/help"),
    ("team: /daily now", "Lee", True, "/daily now"),
    ("t: 2", "Lee", True, "2"),
    ("ann: team: 1", "Ann", True, "1"),
    ("as ann: team: 1", "Ann", True, "1"),
    ("team: Bob: 3.2", "Bob", True, "3.2"),
    ("bob: /start", "Bob", False, "/start"),
    ("team: reply 3 批次大小", "Lee", True, "reply 3 批次大小"),
    ("you: Note: a colon", "Lee", False, "Note: a colon"),
    ("see http://x", "Lee", False, "see http://x"),
    ("ann: ann: 1", "Ann", False, "ann: 1"),
    ("lee: /help", "Lee", False, "/help"),
])
def test_prefixes_pick_the_person_and_the_chat(line, who, in_group, text):
    you, group, teammates = cast(FakeBotApi())
    person, chat, rest = parse_line(line, prefixes(you, teammates), you, group)
    assert (person.info.first_name, chat is group if in_group else chat is None, rest) == (who, True, text)


def test_the_sandbox_cast_is_a_lead_administering_a_team_of_two():
    you, group, teammates = cast(FakeBotApi())
    assert (group.id, group.info.title, group.info.type) == (SANDBOX_GROUP, "Sandbox team", "supergroup")
    assert group.info.admins == [you.id] == [SANDBOX_USER]
    assert [m.info.first_name for m in teammates] == ["Ann", "Bob"]
    assert group.info.members == {m.id for m in teammates}


def test_everyone_in_the_sandbox_has_a_name_and_a_username():
    """Issue 22.8: `@name` could not work, nobody had a username; 22 (rough edges): the lead was "You"
    on boards the others see."""
    you, _, teammates = cast(FakeBotApi())
    assert [(p.info.first_name, p.info.username) for p in (you, *teammates)] == [
        ("Lee", "lee"), ("Ann", "ann"), ("Bob", "bob")]


async def test_a_lead_accepts_a_join_request_by_username(env):
    """Issue 22.8: `/team accept @bob` said "I don't know @bob yet" though Bob had just written."""
    printed = await drive(env, "bob: team: /join", "team: /team accept @bob")
    out = "\n".join(printed)
    assert "✅ Bob accepted by Lee." in out, out
    assert "know" not in out, out


async def test_the_group_quiz_answered_by_ann_reaches_her_toast_the_count_and_the_leaderboard(env):
    async def ann_answers() -> str:
        message_id, button = await question(env, "single")
        return f"ann: team: {message_id}.{button}"

    async def close_the_quiz() -> str:
        quiz = await the_delivery(env.db)
        env.clock.set(quiz.closes_at)
        await run_job(env, f"daily-close:{quiz.id}")
        return "team: /leaderboard week"

    printed = await drive(env, "team: /daily now", ann_answers, "team: /leaderboard today", close_the_quiz)
    quiz = [m for m in map(QUIZ.match, printed) if m]
    assert [m.group(2) for m in quiz] == ["1", "2", "3", "4", "5"]
    message_id, _ = await question(env, "single")
    toast = next(i for i, line in enumerate(printed) if re.match(r"\((toast|alert) to Ann\) ", line))
    assert "✅ Correct!" in printed[toast]
    assert f"team bot [#{message_id}] (edited): … 👥 Answered: 1" in printed[toast:]
    held, board = [i for i, line in enumerate(printed) if line.startswith("team bot [#") and "🏆 Sandbox team" in line]
    # while the quiz is open the board holds it (her points would tell who was right); once its keys are out, Ann
    assert "⏳" in "\n".join(printed[held:held + 4]) and "Ann —" not in "\n".join(printed[held:board])
    assert "Ann —" in "\n".join(printed[board:]) and "Bob —" not in "\n".join(printed[board:])
    assert not any(line.startswith("bot:") for line in printed)  # nothing went to your private chat
    assert [(a.user_id, a.verdict) for a in await daily_answers(env.db)] == [(1002, "correct")]


async def test_a_fill_in_reply_is_graded_in_anns_private_chat_and_the_close_posts_keys_and_top(env):
    async def ann_replies() -> str:
        message_id, key = await question(env, "fill")
        return f"ann: team: reply {message_id} {key}"

    async def close_then_bob_is_late() -> str:
        quiz = await the_delivery(env.db)
        env.clock.set(quiz.closes_at)
        await run_job(env, f"daily-close:{quiz.id}")
        message_id, button = await question(env, "single")
        return f"bob: team: {message_id}.{button}"

    printed = await drive(env, "team: /daily now", ann_replies, "team: hello", "team: reply 99 x",
                          close_then_bob_is_late)
    feedback = next(line for line in printed if line.startswith("bot → Ann: Daily quiz in Sandbox team"))
    assert "✅ Correct!" in feedback
    assert "(the bot doesn't see that: in a group it only gets commands, replies to its messages and " \
           "@mentions)" in printed
    assert "(no message [#99] in the group)" in printed
    close = next(line for line in printed if line.startswith("team bot [#") and "🔑 Daily quiz" in line)
    assert "Ann" in close.split("🏆 Today's top")[1]
    assert any(re.match(r"\((toast|alert) to Bob\) .*closed", line) for line in printed)


async def test_button_numbers_are_kept_per_chat(env):
    printed = await drive(env, "/exam", "team: /daily now", "1", "1")
    # "1" is the private chat's button 1 (the paper, then Start), however many group buttons came between
    start = next(i for i, line in enumerate(printed) if line.startswith("bot:") and "[1] ▶️ Start" in line)
    assert any(QUIZ.match(line) for line in printed[:start])
    assert any(line.startswith("bot:") and " · 1 of " in line for line in printed[start + 1:]), printed[start:]
    assert not any("to Lee)" in line for line in printed)  # the group got no press


def test_piped_group_lines_reach_the_team_group(tmp_path):
    """`printf 'team: /daily now\\nann: team: 1\\n...' | proctor sandbox` shows the group's side."""
    lines = "team: /daily now\nann: team: 1\nteam: /leaderboard today\n"
    out = subprocess.run([sys.executable, "-m", "bot.cli", "--db", str(tmp_path / "sb.db"), "sandbox"],
                         input=lines, capture_output=True, text=True, timeout=120,
                         env=child_env(tmp_path, PYTHONUNBUFFERED=None), cwd=tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    printed = out.stdout.splitlines()
    assert [m.group(2) for m in map(QUIZ.match, printed) if m] == ["1", "2", "3", "4", "5"], out.stdout
    assert any(re.match(r"\((toast|alert) to Ann\) ", line) for line in printed), out.stdout
    assert any(line.startswith("team bot [#") and "🏆 Sandbox team" in line for line in printed), out.stdout
