"""Texts are measured as Telegram measures them (UTF-16 code units): an all-emoji typed answer of the
longest length a client can send leaves its question's screen intact."""

import pytest

from bot.text_limits import MAX_ECHO, MAX_TEXT, TELEGRAM_TEXT, clip, utf16_len
from proctor.exams import service as attempts
from tests.harness import BotEnv, at_place, attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_in

EMOJI = "😀"  # U+1F600: one character, two UTF-16 units


def test_utf16_len_counts_astral_characters_twice():
    assert utf16_len("") == 0 and utf16_len("abc") == 3 and utf16_len("字") == 1
    assert utf16_len(EMOJI) == 2 and utf16_len("a😀b") == 4
    assert utf16_len("👩\u200d💻") == 5


@pytest.mark.parametrize("text", ["字" * 5000, EMOJI * 3000, "a" + EMOJI * 2500, ("字" + EMOJI) * 1500])
def test_clip_fits_the_limit_in_utf16_units_and_never_splits_a_pair(text):
    clipped = clip(text)
    assert utf16_len(clipped) <= MAX_TEXT < TELEGRAM_TEXT and clipped.endswith("…")
    assert utf16_len(clipped) >= MAX_TEXT - 2  # as much as fits
    assert text.startswith(clipped[:-1])
    clipped.encode("utf-8")  # a lone surrogate would raise here


def test_clip_keeps_what_fits_and_respects_small_limits():
    assert clip("short") == "short"
    assert clip(EMOJI * 100, 200) == EMOJI * 100
    assert clip(EMOJI * 101, 200) == EMOJI * 99 + "…"
    assert clip("ab" + EMOJI, 3) == "ab…"


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def test_all_emoji_answer_of_max_length_keeps_the_question_screen(env):
    ann = env.api.user(1005, "Ann", language_code="en")
    await start_exam(env, ann)
    running = await attempts.running_attempt(env.db, ann.id)
    sheet = await attempts.load_sheet(env.db, running.id, positions="all")
    fill_pos = next(i.pos for i in sheet.items if sheet.question(i).stem.startswith("GPU"))
    await attempts.move_to(env.db, running.id, fill_pos, env.clock.now())
    await ann.send("/resume")
    await env.idle()

    answer = EMOJI * (TELEGRAM_TEXT // 2)  # 4096 units: the longest message a client sends
    await ann.send(answer)
    recorded = await ann.wait_message(lambda m: "Recorded for P" in (m.text or ""))
    assert utf16_len(recorded.text) <= TELEGRAM_TEXT and EMOJI * 100 in recorded.text
    await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and at_place(m.text, fill_pos + 2),
                           what="the next question")
    await env.idle()
    await ann.press(attempt_message(ann.chat()), "◀ Back")
    screen = await env.api.wait_for(
        lambda: (m := attempt_message(ann.chat())) and at_place(m.text, fill_pos + 1) and m, what="back")
    await env.idle()
    assert "GPU的中文全称是______。" in screen.text
    echo = screen.text.split("Your answer: ", 1)[1]
    assert echo.startswith(EMOJI * 100) and "…" in echo and utf16_len(echo.split("…")[0]) <= MAX_ECHO
    assert utf16_len(screen.text) <= TELEGRAM_TEXT
    assert env.api.errors == []
    stored = (await answers_in(env.db, running.id))[fill_pos].response
    assert EMOJI * 2048 in stored  # the answer itself is kept whole; only its echo is clipped


def test_fake_client_refuses_a_message_longer_than_telegram_allows(tmp_path):
    from sandbox.fakeapi import FakeBotApi

    api = FakeBotApi("123456:TEST-fake-token-for-the-limits")
    user = api.user(1, "Ann")
    import asyncio

    with pytest.raises(ValueError):
        asyncio.run(user.send(EMOJI * 2049))
