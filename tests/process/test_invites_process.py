"""kill -9 in the middle of an invited attempt: the real `proctor` process keeps the invite's deadline
(with its extra time), and the lead's card still arrives after the restart."""

from __future__ import annotations

import re
import time

from tests.harness import at_place, attempt_message
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows, wait_update_done

LINK = re.compile(r"https://t\.me/proctor_bot\?start=(inv_[A-Za-z0-9_-]{22})")



async def _proctor(tmp_path, api, db, *args) -> ProctorProcess:
    return await ProctorProcess.start(["--db", str(db), *args], env=child_env(tmp_path, api), cwd=tmp_path)


def _seconds_left(text: str) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d) left", text).groups()
    return int(minutes) * 60 + int(seconds)


async def test_sigkill_mid_invited_attempt_keeps_its_deadline_with_extra_time(tmp_path, api):
    db = tmp_path / "p.db"
    cid, lead = api.user(1001, "Cid"), api.user(2002, "Lea")
    first = await _proctor(tmp_path, api, db, "run")
    second = None
    try:
        await cid.send("/papers")
        await cid.wait_message(timeout=STARTUP)  # started, bundled bank imported
        cli = await _proctor(tmp_path, api, db, "invite", "create", "--paper", "1", "--extra", "15m",
                             "--bot", "proctor_bot", "--lead", str(lead.id))
        assert await cli.wait(STARTUP) == 0, cli.stderr
        payload = LINK.search(cli.stdout).group(1)
        await cid.send(f"/start {payload}")
        welcome = await cid.wait_message(lambda m: "▶️ Start" in m.button_texts)
        await cid.press(welcome, "▶️ Start")
        await api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
        await api.wait_idle(timeout=10)
        await wait_update_done(db, api)  # the Start press is done, not only shown: the kill lands after it
        [a] = db_rows(db, "SELECT a.id, a.started_at, a.deadline, p.time_limit_min FROM attempts a "
                          "JOIN papers p ON p.id = a.paper_id WHERE a.status = 'running'")
        assert a["deadline"] == a["started_at"] + (a["time_limit_min"] + 15) * 60

        assert await first.kill() == -9
        second = await _proctor(tmp_path, api, db, "run")
        await cid.send("/resume")
        screen = await cid.wait_message(lambda m: at_place(m.text, 1), timeout=STARTUP)
        left = _seconds_left(screen.text)
        assert abs(left - (a["deadline"] - time.time())) <= 3
        assert left > a["time_limit_min"] * 60  # the extra time survived the kill
        [after] = db_rows(db, "SELECT a.deadline, a.status, i.status AS invite FROM attempts a "
                              "JOIN invites i ON i.id = a.invite_id WHERE a.id = ?", a["id"])
        assert (after["deadline"], after["status"], after["invite"]) == (a["deadline"], "running", "started")

        await cid.press(attempt_message(cid.chat()), "Finish")
        confirm = await cid.wait_message(lambda m: "Yes, finish" in m.button_texts)
        await cid.press(confirm, "Yes, finish")
        card = await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished · Cid"),
                                       timeout=10)
        assert "Score: 0/" in card.text
        assert await second.stop() == 0
        assert payload.removeprefix("inv_") not in first.stderr + second.stderr  # never logged
    finally:
        await first.cleanup()
        if second is not None:
            await second.cleanup()
