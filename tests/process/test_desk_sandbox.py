"""`proctor sandbox` serves the desk too and prints a one-time login link for the sandbox lead."""

import re
import socket

import aiohttp

from tests.process_helpers import ProctorProcess, child_env, free_port

STARTUP = 60


async def test_sandbox_prints_a_login_link_that_opens_the_desk_once(tmp_path):
    port = free_port()
    env = child_env(tmp_path, PROCTOR_DB=str(tmp_path / "sandbox.db"), PROCTOR_DESK_PORT=str(port),
                    PYTHONUNBUFFERED=None)
    sandbox = await ProctorProcess.start(["sandbox"], env=env, cwd=tmp_path, stdin=True)
    try:
        at = await sandbox.wait_output("in a browser (one-time link", timeout=STARTUP)
        await sandbox.write_line("team: /leaderboard")  # the bot meets the sandbox's team group
        await sandbox.wait_output("team bot [#", after=at)
        url = re.search(r"open (http://\S+) in a browser", sandbox.stdout).group(1)
        base, token = url.split("/desk/link#")
        assert base == f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{base}/desk/link", data={"token": token}) as r:
                assert r.status == 200
            async with http.get(f"{base}/desk/team") as r:  # the cookie jar sends the session
                assert r.status == 200 and "Sandbox team" in await r.text()
        async with aiohttp.ClientSession() as other, other.post(f"{base}/desk/link", data={"token": token}) as r:
            assert r.status == 403  # once
        await sandbox.close_stdin()
        assert await sandbox.wait(timeout=10) == 0
    finally:
        await sandbox.cleanup()
    assert "Traceback" not in sandbox.stderr, sandbox.stderr


async def test_sandbox_says_which_port_the_desk_needs_and_how_to_pick_another(tmp_path):
    """Issue 22 (rough edges): with port 8080 taken the sandbox said only "set PROCTOR_DESK_PORT"."""
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        env = child_env(tmp_path, PROCTOR_DB=str(tmp_path / "sandbox.db"), PROCTOR_DESK_PORT=str(port),
                        PYTHONUNBUFFERED=None)
        sandbox = await ProctorProcess.start(["sandbox"], env=env, cwd=tmp_path, stdin=True)
        try:
            await sandbox.wait_output("The lead's desk needs port", timeout=STARTUP)
            await sandbox.close_stdin()
            assert await sandbox.wait(timeout=10) == 0
        finally:
            await sandbox.cleanup()
    assert f"needs port {port}, which is taken" in sandbox.stdout, sandbox.stdout
    assert "PROCTOR_DESK_PORT=8081 proctor sandbox" in sandbox.stdout, sandbox.stdout
    assert str(port) not in sandbox.stderr, sandbox.stderr  # said once: before, the bridge logged it too


async def test_a_bad_setting_stops_the_sandbox_with_one_line(tmp_path):
    """Before: PROCTOR_DESK_PORT=abc ended `proctor sandbox` in pydantic's traceback."""
    env = child_env(tmp_path, PROCTOR_DB=str(tmp_path / "sandbox.db"), PROCTOR_DESK_PORT="abc",
                    PYTHONUNBUFFERED=None)
    sandbox = await ProctorProcess.start(["sandbox"], env=env, cwd=tmp_path, stdin=True)
    try:
        await sandbox.close_stdin()
        assert await sandbox.wait(timeout=STARTUP) == 2
    finally:
        await sandbox.cleanup()
    assert sandbox.stderr.splitlines() == [
        "proctor: bad setting: PROCTOR_DESK_PORT: Input should be a valid integer, unable to parse string as an integer"]
    assert "Sandbox:" not in sandbox.stdout  # nothing started
