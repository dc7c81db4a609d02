"""`proctor backup` against the real bot process while exams run and answers arrive, and
`proctor restore` on the stopped bot: the exam resumes from the backup (issue 25)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sandbox.fakeapi import FakeBotApi
from tests.harness import at_place, attempt_message
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows, start_paper

FILL_INS = 10
LAST = 20  # a candidate stops answering after this question


async def _proctor(tmp_path: Path, api: FakeBotApi | None, db: Path, *args: str) -> ProctorProcess:
    return await ProctorProcess.start(["--db", str(db), *args], env=child_env(tmp_path, api), cwd=tmp_path)


async def _answer(api: FakeBotApi, user, q: int) -> None:
    """Answers question `q` (typed or pressed, as it asks) and waits for the screen to show the next."""
    if q <= FILL_INS:
        await user.send("批量大小")
    else:
        await user.press(attempt_message(user.chat()), "A")
    await api.wait_for(lambda: (m := attempt_message(user.chat())) is not None
                       and at_place(m.text, q + 1), what=f"user {user.id}'s Q {q + 1}",
                       timeout=STARTUP)  # a loaded machine: the bot and the backup share it


def _answers(path: Path) -> set[tuple]:
    return {tuple(r) for r in db_rows(path, "SELECT attempt_id, pos, response, answered_at FROM answers")}


def _checks(path: Path) -> tuple[list, list]:
    con = sqlite3.connect(path)
    try:
        return (con.execute("PRAGMA integrity_check").fetchall(), con.execute("PRAGMA foreign_key_check").fetchall())
    finally:
        con.close()


async def test_backup_while_answers_arrive_holds_every_committed_one_and_restore_resumes_the_exam(tmp_path, api):
    db, copy = tmp_path / "p.db", tmp_path / "backup.db"
    users = [api.user(3001 + i, name, language_code="en") for i, name in enumerate(["Ann", "Bob", "Cy", "Di"])]
    bot = await _proctor(tmp_path, api, db, "run")
    again = None
    try:
        await asyncio.gather(*(start_paper(api, u) for u in users))
        await asyncio.gather(*(_answer(api, u, 1) for u in users))
        progress = dict.fromkeys(users, 2)

        async def keep_answering(user) -> None:
            while progress[user] <= LAST:
                await _answer(api, user, progress[user])
                progress[user] += 1

        answering = [asyncio.create_task(keep_answering(u)) for u in users]
        committed = _answers(db)  # every answer here was committed before the backup started
        backup = await _proctor(tmp_path, None, db, "backup", str(copy))
        assert await backup.wait(timeout=30) == 0, backup.stderr
        at_end = _answers(db)
        await asyncio.gather(*answering)
        live = _answers(db)

        assert backup.stdout.startswith(f"backed up {db} to {copy}: ") and backup.stderr == ""
        assert committed < at_end, "answers were committed while the backup ran: it ran under writes"
        copied = _answers(copy)
        assert committed <= copied <= at_end, "the copy holds every committed answer, and only committed ones"
        assert _checks(copy) == ([("ok",)], [])

        refused = await _proctor(tmp_path, None, db, "restore", str(copy))
        assert await refused.wait(timeout=30) == 1
        assert refused.stderr == f"proctor: {db} is open in another process: stop the bot first, then restore\n"
        assert _answers(db) == live and not list(tmp_path.glob("p.db.before-restore-*"))

        assert await bot.stop() == 0
        restore = await _proctor(tmp_path, None, db, "restore", str(copy))
        assert await restore.wait(timeout=30) == 0, restore.stderr
        assert _answers(db) == copied
        [kept] = tmp_path.glob("p.db.before-restore-*")
        assert _answers(kept) == live, "the replaced database is kept whole"

        again = await _proctor(tmp_path, api, db, "run")
        # the answers the backup caught claimed but unfinished are handled first, from their stored bodies
        await api.wait_for(lambda: not db_rows(db, "SELECT 1 FROM processed_updates WHERE body IS NOT NULL"),
                           timeout=STARTUP, what="the updates in flight at the backup handled")
        ann = users[0]
        [(attempt, done)] = db_rows(db, "SELECT a.id, COUNT(n.pos) FROM attempts a JOIN answers n ON n.attempt_id = a.id"
                                        " WHERE a.user_id = ? GROUP BY a.id", ann.id)
        await ann.send("/resume")
        await ann.wait_message(lambda m: at_place(m.text, done + 1, 40), timeout=STARTUP)
        await _answer(api, ann, done + 1)
        assert db_rows(db, "SELECT COUNT(*) FROM answers WHERE attempt_id = ?", attempt)[0][0] == done + 1
        assert await again.stop() == 0
    finally:
        await bot.cleanup()
        if again is not None:
            await again.cleanup()
