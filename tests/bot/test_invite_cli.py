"""`proctor invite create` without --bot asks Telegram for the bot's username (getMe, over real HTTP to
the fake Bot API), and without a token says which flag or setting gives it."""

import asyncio
import re
from pathlib import Path

import pytest

from bot.cli import main
from sandbox.fakeapi import FakeBotApi

SEED = sorted((Path(__file__).resolve().parents[2] / "bank" / "seeds").glob("000_*.txt"))[0]
TOKEN = "424242:INVITE-cli-token-for-the-fake-api"


@pytest.fixture
def dbfile(tmp_path, monkeypatch, capsys, db_location):
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    for name in ("PROCTOR_DB", "TELEGRAM_BOT_TOKEN", "PROCTOR_BOT_API_URL"):
        monkeypatch.delenv(name, raising=False)
    db = db_location
    assert main(["--db", db, "import", str(SEED)]) == 0
    capsys.readouterr()
    return db


def _no_invites(dbfile, capsys) -> bool:
    assert main(["--db", dbfile, "invite", "list"]) == 0
    return capsys.readouterr().out == "no invites\n"


def test_without_bot_or_token_it_says_what_gives_the_username(dbfile, capsys):
    """Before: it asked for PROCTOR_BOT_USERNAME, a setting no table listed."""
    assert main(["--db", dbfile, "invite", "create", "--paper", SEED.stem]) == 1
    err = capsys.readouterr().err
    assert err == ("proctor: the links need the bot's username: give --bot NAME, or set TELEGRAM_BOT_TOKEN and it "
                   "is asked from Telegram\n")
    assert _no_invites(dbfile, capsys)


async def test_with_a_token_the_username_comes_from_get_me(dbfile, capsys, monkeypatch):
    async with FakeBotApi(TOKEN, bot_username="hiring_desk_bot") as api:
        monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
        monkeypatch.setenv("PROCTOR_BOT_API_URL", api.base_url)
        code = await asyncio.to_thread(main, ["--db", dbfile, "invite", "create", "--paper", SEED.stem,
                                              "--count", "2"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert [c.method for c in api.calls] == ["getMe"]
    links = out.split()
    assert len(links) == 2
    assert all(re.fullmatch(r"https://t\.me/hiring_desk_bot\?start=inv_[A-Za-z0-9_-]{22}", u) for u in links)


async def test_a_rejected_token_is_one_line_and_creates_no_invite(dbfile, capsys, monkeypatch):
    async with FakeBotApi("999999:ANOTHER-token-the-server-knows") as api:
        monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
        monkeypatch.setenv("PROCTOR_BOT_API_URL", api.base_url)
        code = await asyncio.to_thread(main, ["--db", dbfile, "invite", "create", "--paper", SEED.stem])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "rejected TELEGRAM_BOT_TOKEN" in err and "--bot NAME" in err
    assert TOKEN not in err and TOKEN.split(":")[1] not in err
    assert await asyncio.to_thread(_no_invites, dbfile, capsys)


@pytest.mark.parametrize("argv, says", [
    (["--count", "0"], "--count 0: a batch holds 1 to 500 invites"),
    (["--count", "501", "--bot", "b"], "--count 501: a batch holds 1 to 500 invites"),
    (["--attempts", "0"], "--attempts 0: attempts are 1x to "),
    (["--window", "5x"], "--window 5x: “5x” is not a duration like 90m, 48h or 3d"),
    (["--window", "90d"], "--window 90d: the window is at most "),
    (["--extra", "soon"], "--extra soon: “soon” is not a duration like 90m, 48h or 3d"),
])
def test_a_bad_option_is_named_alone_before_anything_else_is_asked(dbfile, capsys, argv, says):
    """Before: `--count 0` without --bot was told about the bot's username, and with it a batch rule
    that named no option."""
    assert main(["--db", dbfile, "invite", "create", "--paper", SEED.stem, *argv]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"proctor: {says}"), line
    assert "--bot" not in line and "username" not in line
    assert _no_invites(dbfile, capsys)
