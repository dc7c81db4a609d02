"""The bot's profile: getMe, commands per scope and language, descriptions, name, menu button."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from sandbox.fakeapi.methods.chats import find_chat
from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.params import names, require
from sandbox.fakeapi.methods.registry import Api, Handler, method


@method("getMe")
def get_me(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return {
        **api.state.bot.to_api(),
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


_SCOPES = names(
    "default all_private_chats all_group_chats all_chat_administrators chat chat_administrators chat_member"
)
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def _commands_key(api: Api, p: dict[str, Any]) -> tuple[str, str]:
    scope = p.get("scope") or {"type": "default"}
    if scope.get("type") not in _SCOPES:
        raise ApiError.bad_request("BOT_COMMAND_SCOPE_INVALID")
    if "chat_id" in scope:
        find_chat(api.state, scope["chat_id"])
    return json.dumps(scope, sort_keys=True), p.get("language_code") or ""


@method("setMyCommands")
def set_my_commands(api: Api, p: dict[str, Any]) -> bool:
    commands = require(p, "commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise ApiError.bad_request("too many commands")
    for command in commands:
        if not _COMMAND_NAME.match(str(command.get("command", ""))):
            raise ApiError.bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(str(command.get("description", ""))) <= 256:
            raise ApiError.bad_request("command description is empty")
    api.state.commands[_commands_key(api, p)] = [
        {"command": c["command"], "description": c["description"]} for c in commands
    ]
    return True


@method("getMyCommands")
def get_my_commands(api: Api, p: dict[str, Any]) -> list[dict[str, str]]:
    return api.state.commands.get(_commands_key(api, p), [])


@method("deleteMyCommands")
def delete_my_commands(api: Api, p: dict[str, Any]) -> bool:
    api.state.commands.pop(_commands_key(api, p), None)
    return True


ProfileText = Literal["description", "short_description", "name"]  # the Bot API's field names
_PROFILE_TEXTS: dict[ProfileText, int] = {"description": 512, "short_description": 120, "name": 64}


def _profile_setter(kind: ProfileText) -> Handler:
    def set_text(api: Api, p: dict[str, Any]) -> bool:
        text = p.get(kind) or ""
        if len(text) > _PROFILE_TEXTS[kind]:
            raise ApiError.bad_request(f"{kind.upper()}_INVALID")
        api.state.bot_texts[(kind, p.get("language_code") or "")] = text
        return True

    return set_text


def _profile_getter(kind: ProfileText) -> Handler:
    def get_text(api: Api, p: dict[str, Any]) -> dict[str, str]:
        return {kind: api.state.bot_texts.get((kind, p.get("language_code") or ""), "")}

    return get_text


_PROFILE_METHODS: tuple[tuple[ProfileText, str], ...] = (
    ("description", "Description"),
    ("short_description", "ShortDescription"),
    ("name", "Name"),
)
for _kind, _suffix in _PROFILE_METHODS:
    method(f"setMy{_suffix}")(_profile_setter(_kind))
    method(f"getMy{_suffix}")(_profile_getter(_kind))


@method("setChatMenuButton")
def set_chat_menu_button(api: Api, p: dict[str, Any]) -> bool:
    api.state.menu_buttons[p.get("chat_id")] = p.get("menu_button") or {"type": "default"}
    return True


@method("getChatMenuButton")
def get_chat_menu_button(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return api.state.menu_buttons.get(p.get("chat_id"), {"type": "commands"})
