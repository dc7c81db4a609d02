"""Request parameters: multipart file parts, form strings decoded to JSON values, required fields."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sandbox.fakeapi.methods.errors import ApiError


@dataclass(frozen=True)
class UploadedPart:
    """A file part of a multipart request."""

    filename: str | None
    content_type: str | None
    data: bytes


def names(text: str) -> frozenset[str]:
    return frozenset(text.split())


_INT_FIELDS = names(
    "message_id user_id offset limit timeout reply_to_message_id cache_time max_connections "
    "message_thread_id correct_option_id open_period from_chat_id"
)
_BOOL_FIELDS = names(
    "protect_content disable_notification show_alert drop_pending_updates "
    "disable_web_page_preview is_anonymous allows_multiple_answers allow_sending_without_reply "
    "is_closed has_spoiler allows_revoting members_only disable_content_type_detection allow_paid_broadcast for_channels"
)
_JSON_FIELDS = names(
    "reply_markup reply_parameters link_preview_options entities caption_entities commands "
    "scope allowed_updates options message_ids menu_button rights explanation_entities "
    "question_entities correct_option_ids"
)


def decode_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Turns form strings into the values a JSON body would carry (PTB JSON-encodes non-strings)."""
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if isinstance(value, str):
            value = _decode_field(name, value)
        params[name] = value
    return params


def _decode_field(name: str, value: str) -> Any:
    if name == "chat_id":
        return int(value) if value.lstrip("-").isdigit() else value
    if name in _INT_FIELDS:
        try:
            return int(value)
        except ValueError:
            raise ApiError.bad_request(f"invalid {name} specified") from None
    if name in _BOOL_FIELDS:
        return value.lower() in ("true", "1")
    if name in _JSON_FIELDS:
        try:
            return json.loads(value)
        except ValueError:
            what = "reply keyboard markup" if name == "reply_markup" else name
            raise ApiError.bad_request(f"can't parse {what} JSON object") from None
    return value


def require(p: dict[str, Any], name: str) -> Any:
    value = p.get(name)
    if value is None or value == "":
        raise ApiError.bad_request(f"{name} is empty")
    return value
