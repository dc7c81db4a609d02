"""A fake Telegram Bot API server for integration tests, benchmarks and the sandbox.

async with FakeBotApi() as api:
    app = ApplicationBuilder().token(api.token).base_url(api.base_url).build()
    ...  # add handlers, start polling (see tests/fakeapi_fixtures.py)
    ann = api.user(1001, "Ann")
    await ann.send("/start")
    menu = await ann.wait_message()
    toast = await ann.press(menu, "Start")
    assert await toast.wait() == "Good luck!"
    await api.wait_for(lambda: menu.text.startswith("Question 1"))
"""

from sandbox.fakeapi.driver import DEFAULT_TOKEN, FakeBotApi, FakeGroup, FakeUser, Toast
from sandbox.fakeapi.limits import RateLimits, SendStats
from sandbox.fakeapi.methods import ApiError
from sandbox.fakeapi.state import Button, Call, StoredFile, StoredMessage

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "Button",
    "Call",
    "FakeBotApi",
    "FakeGroup",
    "FakeUser",
    "RateLimits",
    "SendStats",
    "StoredFile",
    "StoredMessage",
    "Toast",
]
