"""The desk's sign-in: Telegram's initData rule (valid, forged, stale, replayed), one-time login
links that survive a restart, sessions and CSRF tokens."""

import hashlib
import hmac
import json
from urllib.parse import quote

import pytest

from desk.auth import BadInitData, Sessions, check_init_data, csrf_ok
from proctor.storage.db import Database
from proctor.teams import desk_tokens
from tests.desk_helpers import sign_init_data

TOKEN = "123456:TEST-fake-token-for-the-harness"
NOW = 1_800_000_000


def telegram_signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData signed by the recipe in Telegram's docs, written out here independently of desk.auth."""
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    signature = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in fields.items()) + f"&hash={signature}"


def fields(user_id=10, name="Lea", auth_date=NOW, **extra):
    return {"query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
            "user": json.dumps({"id": user_id, "first_name": name, "language_code": "zh"}),
            "auth_date": str(auth_date), **extra}


def test_valid_init_data_gives_the_signed_user():
    data = check_init_data(telegram_signed(fields()), TOKEN, NOW + 5)
    assert (data.user_id, data.first_name, data.language_code, data.auth_date) == (10, "Lea", "zh", NOW)
    # Telegram's newer `signature` field is simply part of the data-check-string
    assert check_init_data(telegram_signed(fields(signature="abc")), TOKEN, NOW).user_id == 10
    # our own signer (used by the sandbox and the browser tests) agrees with the docs' recipe
    assert check_init_data(sign_init_data(fields(), TOKEN), TOKEN, NOW).user_id == 10


@pytest.mark.parametrize("tamper", [
    "other token", "other user", "hash removed", "hash changed", "field added", "field twice", "empty", "junk",
])
def test_forged_init_data_is_refused(tamper):
    good = telegram_signed(fields())
    raw = {
        "other token": telegram_signed(fields(), token="654321:SOME-other-bots-token-000000"),
        "other user": good.replace(quote('"id": 10', safe=""), quote('"id": 1', safe="")),
        "hash removed": good.rsplit("&hash=", 1)[0],
        "hash changed": good[:-1] + ("0" if good[-1] != "0" else "1"),
        "field added": good + "&chat_type=private",
        "field twice": good + "&auth_date=" + str(NOW),
        "empty": "",
        "junk": "%%%&&==",
    }[tamper]
    assert raw != good
    with pytest.raises(BadInitData):
        check_init_data(raw, TOKEN, NOW)


def test_stale_or_future_init_data_is_refused():
    raw = telegram_signed(fields())
    assert check_init_data(raw, TOKEN, NOW + 3600).user_id == 10
    with pytest.raises(BadInitData, match="stale"):
        check_init_data(raw, TOKEN, NOW + 3601)
    with pytest.raises(BadInitData, match="stale"):
        check_init_data(raw, TOKEN, NOW - 3600)  # signed an hour in the future


async def test_a_replayed_init_data_is_refused_even_after_a_restart(db_location):
    db = await Database.open(db_location)
    data = check_init_data(telegram_signed(fields()), TOKEN, NOW)
    assert await desk_tokens.spend_once(db, data.hash, 10, NOW, NOW + 3600)
    await db.close()
    db = await Database.open(db_location)
    assert not await desk_tokens.spend_once(db, data.hash, 10, NOW + 60, NOW + 3600)
    # the schema itself: only a digest is stored, never the signature
    assert await db.scalar("SELECT COUNT(*) FROM desk_tokens WHERE digest=?", (data.hash,)) == 0
    await db.close()


async def test_login_links_work_once_for_ten_minutes_and_survive_a_restart(db_location):
    db = await Database.open(db_location)
    token = await desk_tokens.issue_link(db, 10, NOW)
    late = await desk_tokens.issue_link(db, 20, NOW)
    stored = [r[0] for r in await db.fetchall("SELECT digest FROM desk_tokens")]  # the schema: digests only
    assert token not in stored and late not in stored
    await db.close()
    db = await Database.open(db_location)
    assert await desk_tokens.redeem_link(db, "not-a-token", NOW) is None
    assert await desk_tokens.redeem_link(db, token, NOW + 599) == 10
    assert await desk_tokens.redeem_link(db, token, NOW + 599) is None  # once
    assert await desk_tokens.redeem_link(db, late, NOW + 600) is None  # ten minutes
    await db.close()


def test_sessions_expire_and_csrf_tokens_are_per_session():
    sessions = Sessions(ttl=3600)
    a, b = sessions.create(10, NOW), sessions.create(20, NOW)
    assert a.sid != b.sid and a.csrf != b.csrf
    assert sessions.get(a.sid, NOW + 3599) is a
    assert sessions.get(a.sid, NOW + 3600) is None
    assert sessions.get("forged", NOW) is None and sessions.get(None, NOW) is None
    assert csrf_ok(b, b.csrf) and not csrf_ok(b, a.csrf) and not csrf_ok(b, None) and not csrf_ok(b, "")
