"""Delivering updates: long polling with getUpdates, and the webhook settings."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlparse

from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.registry import Api, method


@method("getUpdates")
async def get_updates(api: Api, p: dict[str, Any]) -> list[dict[str, Any]]:
    state, queue = api.state, api.state.updates
    if state.webhook.url:
        raise ApiError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first",
        )
    offset = p.get("offset")
    limit = min(max(int(p.get("limit") or 100), 1), 100)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0.0, float(p.get("timeout") or 0))
    generation = queue.new_poller()
    while True:
        if not queue.is_current(generation):
            raise ApiError(
                409,
                "Conflict: terminated by other getUpdates request; "
                "make sure that only one bot instance is running",
            )
        if offset is not None:
            queue.confirm(offset)
        batch = queue.take(limit)
        remaining = deadline - loop.time()
        if batch or state.closing or remaining <= 0:
            return batch
        await queue.wait(remaining)


def _is_local_url(url: str) -> bool:
    return urlparse(url).hostname in ("127.0.0.1", "localhost", "::1")


@method("setWebhook")
def set_webhook(api: Api, p: dict[str, Any]) -> bool:
    state = api.state
    url = p.get("url") or ""
    if url and not (url.startswith("https://") or _is_local_url(url)):
        raise ApiError.bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if p.get("drop_pending_updates"):
        state.updates.clear()
    state.webhook.url = url
    state.webhook.secret_token = p.get("secret_token")
    state.webhook.max_connections = p.get("max_connections") or 40
    state.webhook.allowed_updates = p.get("allowed_updates")
    state.updates.wake()
    return True


@method("deleteWebhook")
def delete_webhook(api: Api, p: dict[str, Any]) -> bool:
    if p.get("drop_pending_updates"):
        api.state.updates.clear()
    api.state.webhook.url = ""
    return True


@method("getWebhookInfo")
def get_webhook_info(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    hook = api.state.webhook
    info: dict[str, Any] = {
        "url": hook.url,
        "has_custom_certificate": False,
        "pending_update_count": len(api.state.updates),
    }
    if hook.url:
        info["max_connections"] = hook.max_connections
        if hook.allowed_updates is not None:
            info["allowed_updates"] = hook.allowed_updates
    return info
