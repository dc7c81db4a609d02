"""Button presses: answerCallbackQuery and its toast limit."""

from __future__ import annotations

from typing import Any

from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.params import require
from sandbox.fakeapi.methods.registry import Api, method

MAX_TOAST = 200


@method("answerCallbackQuery")
def answer_callback_query(api: Api, p: dict[str, Any]) -> bool:
    record = api.state.callbacks.get(str(require(p, "callback_query_id")))
    if record is None or record.answered:
        raise ApiError.query_too_old()
    text = p.get("text")
    if text and len(text) > MAX_TOAST:
        raise ApiError.bad_request("MESSAGE_TOO_LONG")
    record.answered, record.text = True, text or None
    record.show_alert, record.url = bool(p.get("show_alert")), p.get("url")
    return True
