"""The sandbox's terminal against the real Application (BotEnv): each line waits until the bot has
handled it, the last line's answer is printed before exit, a number on a typed-answer screen is the
answer, an unknown `name:` is refused, `/tick` moves the clock, files the bot sends are saved."""

import argparse
import subprocess
import sys

import pytest

from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bot.cli import _parser
from bot.services import services
from proctor.clock import ShiftedClock
from proctor.storage.db import Database
from sandbox.fakeapi import ApiError
from sandbox.session import SANDBOX_USER, cast, handled_by
from sandbox.terminal import terminal_chat
from sandbox.tick import parse_duration, tick
from tests.harness import BotEnv
from tests.process_helpers import child_env
from tests.reads import answers_of, the_attempt


def sums() -> Paper:
    return Paper(slug="sums", title="Sums", settings=PaperSettings(time_limit_min=60), sections=[
        Section(kind=Kind.fill, title="填空题", points_each=1, questions=[
            Question(number=1, kind=Kind.fill, stem="1+1=______。", answer=[["2"]], points=1),
            Question(number=2, kind=Kind.fill, stem="3+3=______。", answer=[["6"]], points=1),
        ]),
    ])


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(SANDBOX_USER,), shuffle=False)
    await e.seed(sums())
    await e.start()
    yield e
    await e.close()


async def drive(env: BotEnv, *script, files=None) -> list[str]:
    """Types the lines (a step may be an async function run before its line) as `proctor sandbox`
    does: each waits until the bot handled it; at EOF the bot is stopped, then the rest printed."""
    you, group, teammates = cast(env.api)
    steps = iter(script)
    printed: list[str] = []

    async def read_line() -> str:
        step = next(steps, "")
        if callable(step):
            step = await step()
        return f"{step}\n" if step else ""

    async def move_clock(seconds: float) -> str:
        return f"(clock) {await tick(env.app, env.clock, seconds)} due jobs ran"

    await terminal_chat(env.api, you, group=group, teammates=teammates, read_line=read_line,
                        write=printed.append, group_quiet=0.3, handled=handled_by(env.app),
                        drain=env.stop_app, tick=move_clock, files_dir=files)
    return printed


async def test_the_last_line_is_answered_before_exit_even_when_the_bot_is_slow(env):
    """`printf '/exam\\n1\\n1\\n' | proctor sandbox` stopped at the rules card when the bot took longer
    than the terminal's quiet spell: now each line waits for its update to be handled, and EOF
    stops the bot (finishing what it fetched) before the last print."""

    async def slow_start() -> str:  # Telegram asks the bot to wait 4 s before its next message
        env.api.fail("editMessageText", ApiError.retry_after(4), times=1)
        env.api.fail("sendMessage", ApiError.retry_after(4), times=1)
        return "1"

    printed = await drive(env, "/exam", "1", slow_start)
    out = "\n".join(printed)
    assert "[1] ▶️ Start" in out and "· 1 of 2 ·" in out, out


async def test_a_number_typed_on_a_fill_in_is_the_answer_and_bang_presses_the_button(env):
    printed = await drive(env, "/exam", "1", "1", "2", "!1")
    out = "\n".join(printed)
    assert "Your answer: 2" in out, out  # "2" answered Q1: it did not press button 2 (Flag)
    assert "· 2 of 2 ·" in out, out  # `!1` pressed button 1 (Next/Skip) on Q1's screen
    db = await Database.open(env.db_path)  # the session stopped the bot at EOF
    try:
        answers = await answers_of(db)
    finally:
        await db.close()
    assert [(pos, a.response) for pos, a in answers.items()] == [(0, "2")]


async def test_an_unknown_name_prefix_is_an_error_not_an_answer(env):
    printed = await drive(env, "carl: hello", "/start")
    assert any("nobody here is called 'carl'" in line for line in printed), printed
    assert not any(m.text == "carl: hello" or m.text == "hello" for m in env.api.chat_view(SANDBOX_USER))


async def test_tick_moves_the_clock_and_the_exam_deadline_hands_the_attempt_in(env):
    clock = ShiftedClock()  # the sandbox's clock: real time, moved forward by /tick
    services(env.app).clock = env.clock = clock
    printed = await drive(env, "/exam", "1", "1", "/tick 2h")
    assert clock.offset == 7200
    out = "\n".join(printed)
    assert "Time ran out" in out, out
    assert parse_duration("1d12h") == 36 * 3600 and parse_duration("90m") == 5400
    assert parse_duration("soon") is None and parse_duration("0h") is None


async def test_files_the_bot_sends_are_saved_and_their_paths_printed(env, tmp_path):
    folder = tmp_path / "files"
    printed = await drive(env, "team: /report", files=folder)
    saved = list(folder.iterdir())
    assert len(saved) == 1 and saved[0].suffix == ".csv"
    assert any(f"→ {saved[0]}]" in line for line in printed), printed
    assert saved[0].read_bytes() == env.api.last_message(SANDBOX_USER).document.data


@pytest.mark.parametrize("argv", [["--db", "x.db", "sandbox"], ["sandbox", "--db", "x.db"]])
def test_db_goes_before_or_after_sandbox(argv):
    assert _parser().parse_args(argv).db == "x.db"
    assert _parser().parse_args(["sandbox"]).db is None
    assert isinstance(_parser(), argparse.ArgumentParser)


async def test_a_new_session_continues_the_update_and_message_ids_the_database_has_seen(env):
    from sandbox.session import _continue_from

    you = env.api.user(SANDBOX_USER, first_name="You", language_code="en")
    await drive(env, "/exam", "1", "1")
    first_update, next_ids = await _continue_from(env.db_path)
    db = await Database.open(env.db_path)
    try:
        assert first_update == env.api.state.updates.last_pushed + 1  # after the last update it was sent
        screen = (await the_attempt(db)).message_id
    finally:
        await db.close()
    assert next_ids == {you.id: screen + 1}


def test_the_shifted_clock_runs_with_time_and_moves_forward_by_hand():
    clock = ShiftedClock()
    before = clock.now()
    clock.advance(3600)
    assert clock.offset == 3600 and clock.now() >= before + 3600


async def test_tick_steps_through_the_days_the_quiz_closes_and_the_next_one_goes_out(tmp_path, db_location):
    from tests.bot.test_daily_support import fast
    from tests.papers_fixture import small_paper

    env = BotEnv(tmp_path, location=db_location, admins=(SANDBOX_USER,))
    await env.seed(small_paper("demo"))
    await env.start()
    fast(env)  # the pacing of group messages (1 s apart) is not what this test is about
    try:
        clock = ShiftedClock()
        services(env.app).clock = env.clock = clock
        noon = clock.now() // 86400 * 86400 + 43200
        clock.advance(noon - clock.now() + (86400 if noon < clock.now() else 0))  # the next noon, UTC
        printed = await drive(env, "team: /daily on 13:00 UTC", "team: /daily now", "/tick 1d", "/tick 1d")
    finally:
        await env.close()
    out = "\n".join(printed)
    # day 1's quiz (/daily now) closes before day 2's push; day 2's goes out at its hour and closes too
    day1 = out.index("Daily quiz · 1/")
    keys1 = out.index("the keys", day1)
    day2 = out.index("Daily quiz · 1/", keys1)
    assert out.index("the keys", day2) > day2
    assert out.count("Daily quiz · 1/") == 2, out


async def test_a_line_longer_than_telegram_takes_is_refused_and_the_session_goes_on(env):
    """Issue 22.1: pasting more than 4,096 characters ended the session with a ValueError."""
    printed = await drive(env, "/exam", "1", "1", "x" * 5000, "2")
    out = "\n".join(printed)
    assert any(line.startswith("(too long:") for line in printed), out
    assert "Recorded for P1 · Q1: 2" in out, out  # the next line still reached the bot
    assert not any(m.text and len(m.text) > 4096 for m in env.api.chat_view(SANDBOX_USER))


async def test_upload_sends_a_file_as_a_document_so_a_lead_can_try_an_import(env, tmp_path):
    """Issue 22 (rough edges): the sandbox could not send a document."""
    sheet = tmp_path / "quiz.gift"
    sheet.write_text("::g1:: What is 2 + 2? {=four ~three ~five}\n\n::g2:: The sky is blue. {T}\n")
    printed = await drive(env, f"/upload {sheet}", "/upload", f"/upload {tmp_path / 'missing.csv'}",
                          f"team: /upload {sheet}")
    out = "\n".join(printed)
    assert "📄 quiz.gift:" in out and "✅ Import" in out, out
    assert "(usage: /upload FILE" in out and "(cannot read " in out, out
    assert "(/upload sends a file in your private chat" in out, out
    sent = [m for m in env.api.chat_view(SANDBOX_USER) if not m.from_bot and m.document is not None]
    assert [m.document.file_name for m in sent] == ["quiz.gift"]


def test_the_real_sandbox_fetches_an_uploaded_file_from_its_fake_server(tmp_path):
    """Issue 22: `proctor sandbox` gave the bot no file URL, so it fetched uploads from api.telegram.org."""
    sheet = tmp_path / "quiz.gift"
    sheet.write_text("::g1:: What is 2 + 2? {=four ~three ~five}\n\n::g2:: The sky is blue. {T}\n")
    out = subprocess.run([sys.executable, "-m", "bot.cli", "--db", str(tmp_path / "sb.db"), "sandbox"],
                         input=f"/upload {sheet}\n", capture_output=True, text=True, timeout=120,
                         env=child_env(tmp_path, PYTHONUNBUFFERED=None), cwd=tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "📄 quiz.gift: 2 questions" in out.stdout and "✅ Import" in out.stdout, out.stdout
