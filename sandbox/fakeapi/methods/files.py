"""Documents and photos: uploads, file ids and URLs, sendDocument, sendPhoto and getFile."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlparse

from sandbox.fakeapi.methods.chats import writable_chat
from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.formatting import caption_mode, checked_caption
from sandbox.fakeapi.methods.messages import post
from sandbox.fakeapi.methods.params import UploadedPart, require
from sandbox.fakeapi.methods.registry import Api, method
from sandbox.fakeapi.state import BotState, StoredFile


def _uploaded(state: BotState, p: dict[str, Any], name: str) -> StoredFile:
    value = require(p, name)
    if isinstance(value, str) and value.startswith("attach://"):
        value = require(p, value.removeprefix("attach://"))
    if isinstance(value, UploadedPart):
        return state.store_file(value.data, value.filename, value.content_type)
    if isinstance(value, str) and value in state.files:
        return state.files[value]
    if isinstance(value, str) and urlparse(value).scheme in ("http", "https"):
        return state.store_file(b"", value.rsplit("/", 1)[-1] or None, None)
    raise ApiError.bad_request("wrong file identifier/HTTP URL specified")


def _send_file(api: Api, p: dict[str, Any], kind: Literal["document", "photo"]) -> dict[str, Any]:
    """`kind` names the Bot API's field the file travels in, and its message carries."""
    state = api.state
    chat = writable_chat(state, p)
    stored = _uploaded(state, p, kind)
    if kind == "photo" and not _looks_like_image(stored.data):
        raise ApiError.bad_request("IMAGE_PROCESS_FAILED")
    mode = caption_mode(p)
    raw_caption, caption = checked_caption(p, mode)
    return post(api, chat, p, caption=caption, raw_text=raw_caption, parse_mode=mode, **{kind: stored})


def _looks_like_image(data: bytes) -> bool:
    return data.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")) or data[8:12] == b"WEBP"


@method("sendDocument")
def send_document(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return _send_file(api, p, "document")


@method("sendPhoto")
def send_photo(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return _send_file(api, p, "photo")


MAX_DOWNLOAD = 20 * 1024 * 1024  # what a bot may fetch with getFile (Bot API: "up to 20 MB")


@method("getFile")
def get_file(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    stored = api.state.files.get(require(p, "file_id"))
    if stored is None:
        raise ApiError.bad_request("invalid file_id")
    if len(stored.data) > MAX_DOWNLOAD:
        raise ApiError.bad_request("file is too big")
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data),
        "file_path": stored.file_path,
    }
