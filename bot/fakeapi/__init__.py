"""A fake Telegram Bot API server for integration tests, benchmarks and the sandbox."""

from bot.fakeapi.driver import DEFAULT_TOKEN, FakeBotApi, FakeGroup, FakeUser, Toast
from bot.fakeapi.limits import RateLimits, SendStats
from bot.fakeapi.methods import ApiError
from bot.fakeapi.state import Button, Call, StoredFile, StoredMessage

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
