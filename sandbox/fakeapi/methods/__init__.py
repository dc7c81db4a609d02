"""Bot API methods over BotState, with Telegram's validation rules and error texts.

METHODS maps a lower-case method name to (canonical name, handler); importing the feature modules
below fills it.
"""

from sandbox.fakeapi.methods import callbacks, chats, files, messages, polls, profile, updates
from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.params import UploadedPart, decode_params
from sandbox.fakeapi.methods.registry import METHODS, Api, Handler, method

__all__ = [
    "METHODS",
    "Api",
    "ApiError",
    "Handler",
    "UploadedPart",
    "callbacks",
    "chats",
    "decode_params",
    "files",
    "messages",
    "method",
    "polls",
    "profile",
    "updates",
]
