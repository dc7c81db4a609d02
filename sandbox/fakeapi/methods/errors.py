"""The error answer every method raises: Telegram's status codes and description texts."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


class ApiError(Exception):
    """An error answer: HTTP status, description and optional response parameters."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    @classmethod
    def bad_request(cls, text: str) -> ApiError:
        return cls(400, f"Bad Request: {text}")

    @classmethod
    def retry_after(cls, seconds: int = 1) -> ApiError:
        return cls(429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds})

    @classmethod
    def blocked(cls) -> ApiError:
        return cls(403, "Forbidden: bot was blocked by the user")

    @classmethod
    def kicked(cls) -> ApiError:
        return cls(403, "Forbidden: bot was kicked from the group chat")

    @classmethod
    def chat_not_found(cls) -> ApiError:
        return cls.bad_request("chat not found")

    @classmethod
    def query_too_old(cls) -> ApiError:
        return cls.bad_request("query is too old and response timeout expired or query ID is invalid")

    @classmethod
    def server_error(cls, code: int = 500) -> ApiError:
        return cls(code, HTTPStatus(code).phrase)

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            data["parameters"] = self.parameters
        return data
