"""The fake Bot API server, driven by a real python-telegram-bot Application over HTTP."""

from __future__ import annotations

import io
from datetime import timedelta

import aiohttp
import pytest
from aiohttp import web
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonCommands,
    Update,
)
from telegram.error import BadRequest, Conflict, Forbidden, InvalidToken, NetworkError, RetryAfter
from telegram.ext import AIORateLimiter, CallbackQueryHandler, CommandHandler, ContextTypes

from sandbox.fakeapi import ApiError, FakeBotApi, RateLimits
from sandbox.fakeapi.limits import RateLimiter
from sandbox.fakeapi.state import ParseMode
from sandbox.terminal import terminal_chat
from tests.fakeapi_fixtures import application_builder, bot_builder, fake_api, run_bot  # noqa: F401

PNG_1x1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


# --- a tiny echo bot ------------------------------------------------------------------------


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Greets with a Start button."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Start", callback_data="go")]])
    await update.effective_message.reply_text("Hello, <b>exam</b>!", parse_mode="HTML", reply_markup=keyboard)


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answers the press with a toast and edits the message."""
    query = update.callback_query
    await query.answer("Started!")
    await query.edit_message_text(f"Started by {query.from_user.first_name}")


def echo_app(builder):
    application = builder.build()
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CallbackQueryHandler(pressed))
    return application


@pytest.fixture
async def echo_bot(bot_builder, run_bot):  # noqa: F811
    return await run_bot(echo_app(bot_builder))


# --- the echo bot through the driver --------------------------------------------------------


async def test_start_reply_press_edit_and_toast(fake_api, echo_bot):  # noqa: F811
    user = fake_api.user(1001, first_name="Ann")
    await user.send("/start")
    greeting = await user.wait_message()
    assert greeting.text == "Hello, exam!"
    assert greeting.buttons == [[("Start", "go", None)]]
    assert greeting.reply_to is None

    toast = await user.press(greeting, "Start")
    assert await toast.wait() == "Started!"
    assert not toast.show_alert
    await fake_api.wait_for(lambda: greeting.text == "Started by Ann")
    assert greeting.buttons == []  # editMessageText without reply_markup drops the keyboard
    assert [m.from_bot for m in user.chat()] == [False, True]
    assert fake_api.errors == []


async def test_group_command_with_bot_name_and_privacy_mode(fake_api, echo_bot):  # noqa: F811
    ann = fake_api.user(1001, first_name="Ann")
    group = fake_api.group(-100500, title="ML team")
    await ann.send("just chatting", chat=group)
    await ann.send("/start@proctor_bot", chat=group)
    greeting = await ann.wait_message(chat=group)
    assert greeting.chat_id == group.id
    await fake_api.wait_idle()
    # privacy mode: the plain message never reached the bot
    assert fake_api.state.updates.undelivered == 0
    assert len(fake_api.calls_to("sendMessage", chat_id=group.id)) == 1


async def test_press_unknown_button_is_a_test_error(fake_api, echo_bot):  # noqa: F811
    user = fake_api.user(1001)
    await user.send("/start")
    greeting = await user.wait_message()
    with pytest.raises(LookupError):
        await user.press(greeting, "Cancel")
    toast = await user.press(greeting, callback_data="go")
    await toast.wait()


# --- getUpdates semantics -------------------------------------------------------------------


async def get_updates(api: FakeBotApi, **params) -> list[dict]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{api.base_url}{api.token}/getUpdates", json=params) as response,
    ):
        body = await response.json()
    assert body["ok"], body
    return body["result"]


async def test_offset_confirms_and_unfetched_duplicates_are_delivered(fake_api):  # noqa: F811
    first = fake_api.inject_update(
        {"message": {"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}}}
    )
    second = fake_api.inject_update({"update_id": first["update_id"] + 1, "message": first["message"]})
    assert [u["update_id"] for u in await get_updates(fake_api)] == [first["update_id"], second["update_id"]]
    # not confirmed: delivered again
    assert len(await get_updates(fake_api)) == 2
    assert [u["update_id"] for u in await get_updates(fake_api, offset=second["update_id"])] == [
        second["update_id"]
    ]
    assert await get_updates(fake_api, offset=second["update_id"] + 1) == []
    fake_api.inject_update(second)  # the same update_id once more: a duplicate delivery
    assert [u["update_id"] for u in await get_updates(fake_api, offset=second["update_id"] + 1)] == [
        second["update_id"]
    ]


async def test_long_poll_returns_when_an_update_arrives(fake_api):  # noqa: F811
    import asyncio

    poll = asyncio.create_task(get_updates(fake_api, timeout=5))
    await asyncio.sleep(0.05)  # let the request reach the server and block
    fake_api.inject_update({"message": {"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}}})
    assert len(await asyncio.wait_for(poll, 1)) == 1


async def test_bot_sees_a_replayed_update_twice(fake_api, bot_builder, run_bot):  # noqa: F811
    seen: list[int] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update.update_id)

    application = bot_builder.build()
    application.add_handler(CommandHandler("start", record))
    await run_bot(application)
    user = fake_api.user(1001)
    await user.send("/start")
    await fake_api.wait_for(lambda: len(seen) == 1)
    await fake_api.wait_idle()
    assert fake_api.state.updates.undelivered == 0
    update = {"update_id": seen[0], "message": fake_api.state.message_to_api(user.chat()[0])}
    fake_api.inject_update(update)
    await fake_api.wait_for(lambda: len(seen) == 2)
    assert seen == [seen[0], seen[0]]


# --- errors as PTB sees them ----------------------------------------------------------------


async def test_injected_429_is_retried_by_aioratelimiter(fake_api, bot_builder, run_bot):  # noqa: F811
    application = await run_bot(echo_app(bot_builder.rate_limiter(AIORateLimiter(max_retries=1))))
    user = fake_api.user(1001)
    fake_api.fail("sendMessage", ApiError.retry_after(1), chat_id=user.id)
    await user.send("/start")
    await user.wait_message(timeout=3)
    assert len(fake_api.calls_to("sendMessage", chat_id=user.id)) == 2
    assert fake_api.stats.rejected == 1
    assert application.bot is not None


async def test_injected_429_surfaces_retry_after(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    fake_api.fail("sendMessage", ApiError.retry_after(7))
    async with bot_builder.build() as application:
        with pytest.raises(RetryAfter, match=r"Retry in 0:00:07") as refused:  # PTB's timedelta (PTB_TIMEDELTA)
            await application.bot.send_message(user.id, "hi")
        assert refused.value.retry_after == timedelta(seconds=7)
        await application.bot.send_message(user.id, "hi")  # only the next call failed


async def test_blocked_user_and_kicked_group_are_forbidden(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    group = fake_api.group(-100500)
    user.blocked = True
    group.kicked = True
    async with bot_builder.build() as application:
        with pytest.raises(Forbidden, match="blocked by the user"):
            await application.bot.send_message(user.id, "hi")
        with pytest.raises(Forbidden, match="kicked from the group chat"):
            await application.bot.send_message(group.id, "hi")
        stranger = fake_api.user(1002, started=False)
        with pytest.raises(Forbidden, match="can't initiate conversation"):
            await application.bot.send_message(stranger.id, "hi")
        user.blocked = False
        fake_api.fail("sendMessage", ApiError.blocked(), chat_id=user.id)
        with pytest.raises(Forbidden):
            await application.bot.send_message(user.id, "hi")
    assert user.chat() == []


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"text": "x" * 4097}, "Message is too long"),
        ({"text": " "}, "Message text is empty"),
        ({"text": "<b>open", "parse_mode": "HTML"}, "Can't parse entities"),
        ({"text": "1.5", "parse_mode": "MarkdownV2"}, "Can't parse entities"),
        ({"text": "hi", "parse_mode": "BBCode"}, "Unsupported parse_mode"),
        (
            {
                "text": "hi",
                "reply_markup": InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="d" * 65)]]),
            },
            "Button_data_invalid",
        ),
        ({"text": "hi", "reply_to_message_id": 99}, "Message to be replied not found"),
    ],
)
async def test_invalid_messages_are_bad_requests(fake_api, bot_builder, kwargs, error):  # noqa: F811
    user = fake_api.user(1001)
    async with bot_builder.build() as application:
        with pytest.raises(BadRequest, match=error):
            await application.bot.send_message(user.id, **kwargs)
        with pytest.raises(BadRequest, match="Chat not found"):
            await application.bot.send_message(424242, "hi")
    assert user.chat() == []


async def test_limits_that_pass(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    async with bot_builder.build() as application:
        await application.bot.send_message(
            user.id,
            "x" * 4096,
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="д" * 32)]]),
        )
        await application.bot.send_message(user.id, r"1\.5 *bold*", parse_mode="MarkdownV2")
    assert user.chat()[-1].text == "1.5 bold"


async def test_a_message_keeps_its_parse_mode_decoded_in_any_case(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    async with bot_builder.build() as application:
        await application.bot.send_message(user.id, "<b>bold</b>", parse_mode="html")
        await application.bot.send_message(user.id, r"1\.5", parse_mode="MarkdownV2")
        await application.bot.send_message(user.id, "plain")
    assert [(m.text, m.parse_mode) for m in user.chat()] == [
        ("bold", ParseMode.html), ("1.5", ParseMode.markdown_v2), ("plain", None)]


async def test_wrong_token_and_unknown_method(fake_api):  # noqa: F811
    with pytest.raises(InvalidToken):
        async with Bot("999:WRONG", base_url=fake_api.base_url) as bot:
            await bot.get_me()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake_api.base_url}{fake_api.token}/fooBar") as response:
            assert response.status == 404
            assert await response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        async with session.get(f"{fake_api.base_url}{fake_api.token}/getme") as response:
            assert (await response.json())["result"]["username"] == "proctor_bot"


# --- every result parses into PTB objects ---------------------------------------------------


async def test_edits_deletes_and_callback_answers(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    async with bot_builder.build() as application:
        bot = application.bot
        sent = await bot.send_message(user.id, "Q1", reply_markup=keyboard, protect_content=True)
        assert sent.has_protected_content and sent.from_user.username == "proctor_bot"
        with pytest.raises(BadRequest, match="Message is not modified"):
            await bot.edit_message_text("Q1", user.id, sent.message_id, reply_markup=keyboard)
        edited = await bot.edit_message_reply_markup(user.id, sent.message_id, reply_markup=None)
        assert edited.edit_date is not None and edited.reply_markup is None
        with pytest.raises(BadRequest, match="Message is not modified"):
            await bot.edit_message_reply_markup(user.id, sent.message_id, reply_markup=None)
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await bot.edit_message_text("x", user.id, 999)
        reply = await bot.send_message(user.id, "answer", reply_to_message_id=sent.message_id)
        assert reply.reply_to_message.message_id == sent.message_id
        assert await bot.delete_message(user.id, reply.message_id)
        with pytest.raises(BadRequest, match="Message to delete not found"):
            await bot.delete_message(user.id, reply.message_id)

        await bot.send_message(
            user.id,
            "B?",
            reply_markup=InlineKeyboardMarkup(
                [
                    [
                        InlineKeyboardButton("B", callback_data="b"),
                        InlineKeyboardButton("Site", url="https://example.com"),
                    ]
                ]
            ),
        )
        toast = await user.press(user.last_message(), "B")
        with pytest.raises(BadRequest, match="Message_too_long"):
            await bot.answer_callback_query(toast.record.id, text="x" * 201)
        assert await bot.answer_callback_query(toast.record.id, text="Saved", show_alert=True)
        with pytest.raises(BadRequest, match="Query is too old"):
            await bot.answer_callback_query(toast.record.id)
    assert (toast.text, toast.show_alert) == ("Saved", True)
    view = user.chat()
    assert [m.text for m in view] == ["Q1", "B?"]
    assert view[0].protect_content and view[0].edits == 1


async def test_uploaded_files_are_stored_and_downloadable(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    async with bot_builder.build() as application:
        bot = application.bot
        sent = await bot.send_document(
            user.id, io.BytesIO(b"name,score\nAnn,5\n"), filename="r.csv", caption="Results"
        )
        assert sent.document.file_name == "r.csv"
        photo = await bot.send_photo(user.id, PNG_1x1, protect_content=True)
        assert (photo.photo[-1].width, photo.photo[-1].height) == (1, 1)
        with pytest.raises(BadRequest, match="Image_process_failed"):
            await bot.send_photo(user.id, b"not an image")
        again = await bot.send_document(user.id, sent.document.file_id)  # resend by file_id
        assert again.document.file_id == sent.document.file_id

        upload = await user.send_document(b"Q: 2+2?\nA: 4\n", "bank.txt")
        file = await bot.get_file(upload.document.file_id)
        assert bytes(await file.download_as_bytearray()) == b"Q: 2+2?\nA: 4\n"
    document_message, photo_message = user.chat()[:2]
    assert document_message.document.data == b"name,score\nAnn,5\n"
    assert document_message.content == "Results"
    assert photo_message.photo.data == PNG_1x1 and photo_message.protect_content


async def test_chat_member_and_profile_results_parse(fake_api, bot_builder):  # noqa: F811
    ann, bob, eve = fake_api.user(1001, "Ann"), fake_api.user(1002, "Bob"), fake_api.user(1003, "Eve")
    group = fake_api.group(-100500, title="ML team")
    group.set_admins([ann.id, bob.id])
    group.add_members(eve.id)
    async with bot_builder.build() as application:
        bot = application.bot
        me = await bot.get_me()
        assert (me.username, me.is_bot) == ("proctor_bot", True)
        chat = await bot.get_chat(group.id)
        assert (chat.title, chat.type) == ("ML team", "supergroup")
        assert (await bot.get_chat(ann.id)).first_name == "Ann"
        statuses = [(await bot.get_chat_member(group.id, u.id)).status for u in (ann, bob, eve)]
        assert statuses == ["creator", "administrator", "member"]
        admins = await bot.get_chat_administrators(group.id)
        assert [a.user.id for a in admins] == [ann.id, bob.id]
        assert await bot.get_chat_member_count(group.id) == 4
        group.remove_members(eve.id)  # Eve leaves
        assert (await bot.get_chat_member(group.id, eve.id)).status == "left"

        scope = BotCommandScopeChat(ann.id)
        assert await bot.set_my_commands([BotCommand("start", "Begin")], scope=scope, language_code="en")
        assert [c.command for c in await bot.get_my_commands(scope=scope, language_code="en")] == ["start"]
        assert await bot.get_my_commands() == ()
        assert fake_api.commands({"type": "chat", "chat_id": ann.id}, "en")[0]["description"] == "Begin"
        with pytest.raises(BadRequest, match="Bot_command_invalid"):
            await bot.set_my_commands([BotCommand("Start!", "x")])
        assert await bot.delete_my_commands(scope=scope, language_code="en")
        assert await bot.set_my_description("Proctors exams")
        assert (await bot.get_my_description()).description == "Proctors exams"
        assert await bot.set_chat_menu_button(ann.id, MenuButtonCommands())
        assert await bot.send_chat_action(ann.id, "typing")

        poll = await bot.send_poll(group.id, "Best optimizer?", ["SGD", "Adam"], is_anonymous=False)
        await eve.answer_poll(fake_api.last_message(group.id), [1])
        stopped = await bot.stop_poll(group.id, poll.message_id)
        assert stopped.is_closed and stopped.options[1].voter_count == 1
        quiz = await bot.send_poll(group.id, "2 + 2?", ["3", "4"], type="quiz", correct_option_ids=[1],
                                   protect_content=True)  # recorded as sendMessage records it
        assert quiz.has_protected_content and fake_api.last_message(group.id).protect_content

        info = await bot.get_webhook_info()
        assert info.url == "" and info.pending_update_count == 1  # the poll answer
    assert fake_api.errors[-1][1:] == (400, "Bad Request: BOT_COMMAND_INVALID")


async def test_webhook_updates_are_posted_with_secret(fake_api):  # noqa: F811
    received: list[tuple[str, dict]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append((request.headers.get("X-Telegram-Bot-Api-Secret-Token", ""), await request.json()))
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        async with Bot(fake_api.token, base_url=fake_api.base_url) as bot:
            assert await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="s3cret")
            with pytest.raises(Conflict):
                await bot.get_updates()
            await fake_api.user(1001).send("/start")
            await fake_api.wait_for(lambda: received)
            assert received[0][0] == "s3cret" and received[0][1]["message"]["text"] == "/start"
            await fake_api.wait_for(lambda: len(fake_api.state.updates) == 0)
            assert await bot.delete_webhook()
    finally:
        await runner.cleanup()


# --- flood limits ---------------------------------------------------------------------------


def test_rate_limiter_buckets_with_a_fake_clock():
    now = [100.0]
    limiter = RateLimiter(RateLimits(chat_burst=2, group_per_minute=20, group_burst=2), clock=lambda: now[0])
    assert [limiter.admit(1, is_group=False) for _ in range(3)] == [0, 0, 1]
    now[0] += 1.0
    assert limiter.admit(1, is_group=False) == 0
    assert [limiter.admit(-5, is_group=True) for _ in range(3)] == [0, 0, 3]  # group: 1 per 3 s
    now[0] += 2.0  # the chat bucket refilled, the group bucket not yet
    assert limiter.admit(-5, is_group=True) == 1
    now[0] += 1.0
    assert limiter.admit(-5, is_group=True) == 0
    assert (limiter.stats.sent, limiter.stats.rejected) == (6, 3)
    assert limiter.stats.peak_per_second == 3
    assert len(limiter.stats.per_chat[-5]) == 3


async def test_enforced_limits_answer_429(bot_builder):  # noqa: F811
    async with FakeBotApi(rate_limits=RateLimits(chat_burst=1)) as api:
        user = api.user(1001)
        async with application_builder(api).build() as application:
            await application.bot.send_message(user.id, "one")
            with pytest.raises(RetryAfter, match=r"Retry in 0:00:01"):
                await application.bot.send_message(user.id, "two")
        assert (api.stats.sent, api.stats.rejected) == (1, 1)


async def test_wait_idle_returns_once_everything_is_fetched_and_quiet(fake_api, echo_bot):  # noqa: F811
    # wait_idle's promise is "every update fetched, no request in flight, then a quiet spell"; it can't
    # see inside a bot that is still thinking (a busy machine may think longer than the quiet spell),
    # so whether every reply is there is checked by waiting for them. BotEnv.idle adds that check for
    # our own bot (sandbox.session.handled_by).
    users = [fake_api.user(2000 + i) for i in range(20)]
    for user in users:
        await user.send("/start")
    await fake_api.wait_idle()
    assert fake_api.state.updates.undelivered == 0 and fake_api.server.in_flight == 0
    await fake_api.wait_for(lambda: all((m := u.last_message()) is not None and m.text == "Hello, exam!"
                                        for u in users), what="every reply")


async def test_terminal_chat_prints_messages_buttons_and_toasts(fake_api, echo_bot):  # noqa: F811
    lines = iter(["/start\n", "\n", "#1\n", "1\n", ""])
    printed: list[str] = []

    async def read_line() -> str:
        await fake_api.wait_idle()
        return next(lines)

    await terminal_chat(fake_api, fake_api.user(1001, "Ann"), read_line=read_line, write=printed.append)
    assert printed == [
        "bot: Hello, exam!\n     [1] Start",
        "(toast) Started!",
        "bot (edited): Started by Ann",
    ]


async def test_server_errors_surface_as_network_errors(fake_api, bot_builder):  # noqa: F811
    user = fake_api.user(1001)
    fake_api.fail("sendMessage", ApiError.server_error(502), times=2)
    async with bot_builder.build() as application:
        for _ in range(2):
            with pytest.raises(NetworkError, match="Bad Gateway"):
                await application.bot.send_message(user.id, "hi")
        await application.bot.send_message(user.id, "hi")
    assert [m.text for m in user.chat()] == ["hi"]
