"""The desk in tests: the real bot (BotEnv) serving its desk on a free port, and an HTTP client
that signs in the way Telegram's Mini App page does."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from urllib.parse import urlencode

import aiohttp

from bot.desk_bridge import desk_runner
from desk.web import COOKIE, CTX
from tests.harness import TOKEN, BotEnv

DESK_URL = "https://desk.example"


class DeskEnv(BotEnv):
    """A BotEnv whose bot serves the desk (PROCTOR_DESK_URL set) on an ephemeral local port."""

    def __init__(self, tmp_path, *, desk_url: str = DESK_URL, **kw):
        super().__init__(tmp_path, **kw)
        self.desk_url = desk_url

    def settings(self):
        return super().settings().model_copy(update={"desk_url": self.desk_url, "desk_port": 0})

    @property
    def desk_context(self):
        return desk_runner(self.app).app[CTX]

    @property
    def desk_base(self) -> str:
        runner = desk_runner(self.app)
        return f"http://127.0.0.1:{runner.addresses[0][1]}"


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """The query string Telegram hands a Mini App page for `fields`, signed as its documentation says
    (core.telegram.org/bots/webapps), written here apart from the desk's check so the two agree by
    following the same page, not by sharing code."""
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    return urlencode({**fields, "hash": hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()})


def init_data(env: BotEnv, user_id: int, name: str = "Lea", lang: str = "en", age: float = 0) -> str:
    """initData as Telegram signs it for this bot, `age` seconds old by the test's clock."""
    user = json.dumps({"id": user_id, "first_name": name, "language_code": lang})
    return sign_init_data({"query_id": f"q{user_id}", "user": user,
                           "auth_date": str(int(env.clock.now() - age))}, TOKEN)


class DeskClient:
    """One browser: keeps the session cookie itself (it is Secure, and the test server is http)."""

    def __init__(self, env: DeskEnv):
        self.env = env
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        self.sid: str | None = None
        self.set_cookie = ""

    async def close(self) -> None:
        await self.http.close()

    def _headers(self) -> dict:
        return {"Cookie": f"{COOKIE}={self.sid}"} if self.sid else {}

    async def login(self, user_id: int, name: str = "Lea", **kw) -> int:
        return await self.login_with(init_data(self.env, user_id, name, **kw))

    async def login_with(self, raw: str, path: str = "/desk/auth", field: str = "init_data") -> int:
        async with self.http.post(self.env.desk_base + path, data={field: raw}) as r:
            if r.status == 200:
                self.set_cookie = r.headers["Set-Cookie"]
                self.sid = re.search(rf"{COOKIE}=([^;]+)", self.set_cookie).group(1)
            return r.status

    async def get(self, path: str, **params) -> tuple[int, str, aiohttp.typedefs.LooseHeaders]:
        async with self.http.get(self.env.desk_base + path, params=params, headers=self._headers(),
                                 allow_redirects=False) as r:
            return r.status, await r.text(), r.headers

    async def post(self, path: str, data: dict, *, csrf: str | None = "page") -> tuple[int, str]:
        if csrf == "page":
            csrf = await self.csrf()
        body = dict(data, **({"csrf": csrf} if csrf else {}))
        async with self.http.post(self.env.desk_base + path, data=body, headers=self._headers(),
                                  allow_redirects=False) as r:
            return r.status, r.headers.get("Location", "") or await r.text()

    async def csrf(self) -> str:
        """The session's CSRF token (what the server put in the page's forms)."""
        return self.env.desk_context.sessions.get(self.sid, self.env.clock.now()).csrf


def table_rows(html: str, table_id: str) -> list[list[str]]:
    """The text of each body row's cells of table `table_id`."""
    body = re.search(rf'<table id="{table_id}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]
