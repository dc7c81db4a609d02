"""The webhook refuses ids Telegram never sends (bot/webhook.py `malformed`): `update_id`, chat ids and
user ids are integers and not booleans (True is 1 in Python and in SQLite), 0 < update_id < 2**53 and
|id| < 2**53, wherever a chat or a user is in the body. Such a body is answered 400 before it is
decoded and claims nothing: the real update 1 after `"update_id": true` is handled, not taken for a
repeat. An update the webhook takes is answered 200 once claimed, 500 when its claim fails."""

from __future__ import annotations

import copy

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.webhook import SECRET_HEADER, build_server
from proctor.storage import updates
from sandbox.session import handled_by
from tests.harness import BotEnv

SECRET = "s" * 32
ANN = 501


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.start()
    yield e
    await e.close()


@pytest.fixture
async def hook(env):
    """The bot's webhook route, served beside its polling (nothing is queued at the fake Telegram)."""
    async with TestClient(TestServer(build_server(env.app, "http://127.0.0.1/hook", SECRET, None))) as client:
        yield client


async def _post(client: TestClient, body: dict) -> int:
    async with client.post("/hook", json=body, headers={SECRET_HEADER: SECRET}) as response:
        return response.status


def _start(update_id: object = 1) -> dict:
    return {"update_id": update_id, "message": {
        "message_id": 7, "date": 1_800_000_000, "text": "/start",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        "chat": {"id": ANN, "type": "private", "first_name": "Ann"},
        "from": {"id": ANN, "is_bot": False, "first_name": "Ann", "language_code": "en"}}}


def _with(path: str, value: object) -> dict:
    """/start with the field at `path` (dotted) set to `value`."""
    body = copy.deepcopy(_start())
    *parents, last = path.split(".")
    node = body
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value
    return body


async def test_an_update_id_of_true_is_refused_and_the_real_update_1_is_handled(env, hook):
    ann = env.api.user(ANN, "Ann", language_code="en")
    assert not await updates.is_done(env.db, env.app.bot.id, 1)
    assert await _post(hook, _start(True)) == 400
    assert await _post(hook, _start(1)) == 200
    reply = await ann.wait_message()
    assert reply.text.startswith("Hi Ann")
    assert await handled_by(env.app, timeout=10)(1)
    assert [m.text for m in ann.chat() if m.from_bot] == [reply.text]


BIG = 2**53
REFUSED = {
    "update_id false": _start(False),
    "update_id 0": _start(0),
    "update_id below 0": _start(-5),
    "update_id 2**53": _start(BIG),
    "update_id a float": _start(1.0),
    "update_id a string": _start("1"),
    "chat id true": _with("message.chat.id", True),
    "chat id 2**53": _with("message.chat.id", BIG),
    "chat id -2**53": _with("message.chat.id", -BIG),
    "from id true": _with("message.from.id", True),
    "from id a float": _with("message.from.id", 501.0),
    "a replied-to message's sender": _with("message.reply_to_message", {
        "message_id": 3, "date": 1_800_000_000, "chat": {"id": ANN, "type": "private"},
        "from": {"id": True, "is_bot": False, "first_name": "B"}}),
    "sender_chat id 2**53": _with("message.sender_chat", {"id": BIG, "type": "channel", "title": "C"}),
    "a mentioned user in an entity": _with("message.entities", [
        {"type": "text_mention", "offset": 0, "length": 6, "user": {"id": True, "is_bot": False, "first_name": "B"}}]),
    "a poll voter": {"update_id": 2, "poll_answer": {"poll_id": "p", "option_ids": [0], "option_persistent_ids": ["a"],
                                                   "user": {"id": -BIG - 1, "is_bot": False, "first_name": "V"}}},
}


@pytest.mark.parametrize("body", REFUSED.values(), ids=REFUSED.keys())
async def test_ids_telegram_never_sends_are_refused_before_decoding(env, hook, body):
    assert await _post(hook, body) == 400
    assert await env.db.scalar("SELECT COUNT(*) FROM processed_updates") == 0  # nothing claimed


async def test_the_largest_ids_telegram_may_send_are_taken(env, hook):
    env.api.group(-(BIG - 1), "Team")
    body = _with("message.chat", {"id": -(BIG - 1), "type": "supergroup", "title": "Team"})
    body["update_id"] = BIG - 1
    assert await _post(hook, body) == 200
    assert await handled_by(env.app, timeout=10)(BIG - 1)


async def test_an_update_whose_claim_fails_gets_500_so_telegram_sends_it_again(env, hook):
    ann = env.api.user(ANN, "Ann", language_code="en")
    await env.db.run_write(lambda c: c.execute("ALTER TABLE processed_updates RENAME TO gone"))
    assert await _post(hook, _start(3)) == 500
    assert [m for m in ann.chat() if m.from_bot] == []  # nothing ran unclaimed
    await env.db.run_write(lambda c: c.execute("ALTER TABLE gone RENAME TO processed_updates"))
    assert await _post(hook, _start(3)) == 200  # Telegram's next try
    assert (await ann.wait_message()).text.startswith("Hi Ann")
    assert await handled_by(env.app, timeout=10)(3)
