"""Inline keyboards: button, callback_data and URL checks with Telegram's error texts."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.params import names

MAX_CALLBACK_DATA = 64

_BUTTON_ACTIONS = names(
    "callback_data url web_app login_url switch_inline_query switch_inline_query_current_chat "
    "switch_inline_query_chosen_chat copy_text callback_game pay"
)


def checked_markup(markup: Any) -> dict[str, Any] | None:
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise ApiError.bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup  # reply keyboard, remove keyboard or force reply: accepted as is
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise ApiError.bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays'
        )
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise ApiError.bad_request("BUTTON_TEXT_INVALID")
        if not any(key in button for key in _BUTTON_ACTIONS):
            raise ApiError.bad_request("text buttons are unallowed in the inline keyboard")
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                raise ApiError.bad_request("BUTTON_DATA_INVALID")
        if "url" in button and urlparse(str(button["url"])).scheme not in ("http", "https", "tg"):
            raise ApiError.bad_request("BUTTON_URL_INVALID")
        if "web_app" in button:
            url = str((button["web_app"] or {}).get("url", "")) if isinstance(button["web_app"], dict) else ""
            if urlparse(url).scheme != "https":
                raise ApiError.bad_request(f"inline keyboard button Web App URL '{url}' is invalid: "
                                           "Only HTTPS links are allowed")
    return markup
