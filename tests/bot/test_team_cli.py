"""`proctor team verify|unverify|list`: a configured admin verifies a team for hiring papers, sees what
they verified (and which teams hold invites they are not verified for), and undoes it; audited."""

from __future__ import annotations

import asyncio

from bot.cli import main
from proctor.invites import store
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.curation import update_settings
from tests.papers_fixture import save_paper, small_paper

T0 = 1_800_000_000.0
ALPHA = -100


def _bank(path) -> None:
    async def seed() -> None:
        db = await Database.open(path)
        try:
            hire = await save_paper(db, small_paper("hire"), T0)
            await save_paper(db, small_paper("other"), T0)
            await update_settings(db, "hire", actor=0, now=T0, invite_only=True)
            await store.create(db, paper_id=hire, team=ALPHA, lead=10, now=T0, window=3600, admin=True)
        finally:
            await db.close()

    asyncio.run(seed())


def _audit(path) -> list[tuple[str, int | None, dict]]:
    async def read():
        db = await Database.open(path)
        try:
            return [(e.action, e.actor_id, e.detail) for e in reversed(await audit.recent(db, limit=50))
                    if e.action.startswith("team_")]
        finally:
            await db.close()

    return asyncio.run(read())


def test_verify_list_and_unverify_from_the_command_line(capsys, tmp_path, monkeypatch, db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    path = db_location
    _bank(path)
    db = ["--db", str(path)]
    assert main([*db, "team", "list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "no team is verified for hiring papers",
        "not verified: -100 (not seen yet) holds 1 invite to P1 Demo paper hire (their sections and answers stay with the admins)"]
    assert main([*db, "team", "verify", "--papers", "P1", str(ALPHA), "--admin", "1"]) == 0  # as the chat says
    assert capsys.readouterr().out == "team -100: verified for papers P1\n"
    assert main([*db, "team", "verify", str(ALPHA), "--papers", "hire"]) == 0  # its slug still names it
    assert capsys.readouterr().out == "team -100: already verified\n"
    assert main([*db, "team", "verify", "-200"]) == 0
    capsys.readouterr()
    assert main([*db, "team", "list"]) == 0
    [beta, alpha] = capsys.readouterr().out.splitlines()  # by chat id; nothing left unverified
    assert beta.startswith("-200 (not seen yet) · every hiring paper · by the command line on ")
    # issue 22: the paper as people see it (its code, as --papers took it, and its title), not its slug
    assert alpha.startswith("-100 (not seen yet) · P1 Demo paper hire · by 1 on ")
    # one clear line for a bad request, nothing written
    assert main([*db, "team", "verify", str(ALPHA), "--papers", "nosuch"]) == 1
    assert "no paper 'nosuch'" in capsys.readouterr().err
    assert main([*db, "team", "verify", "42"]) == 1
    assert "42 is not a group" in capsys.readouterr().err
    # undoing: one paper of a team verified for every paper says how; the whole undoes it
    assert main([*db, "team", "unverify", "-200", "--papers", "other"]) == 0
    assert "verified for every hiring paper; undo that with `proctor team unverify -200`" in capsys.readouterr().out
    assert main([*db, "team", "unverify", "-200"]) == 0
    assert main([*db, "team", "unverify", str(ALPHA), "--papers", "hire"]) == 0
    assert capsys.readouterr().out.splitlines() == ["team -200: 1 verification undone",
                                                    "team -100: 1 verification undone"]
    assert [(a, actor) for a, actor, _ in _audit(path)] == [
        ("team_verify", 1), ("team_verify", 0), ("team_unverify", 0), ("team_unverify", 0)]


def test_verifying_a_paper_that_is_not_a_hiring_paper_warns(capsys, tmp_path, monkeypatch, db_location):
    """Before: `team verify --papers P2` of an ordinary paper said "verified" and nothing else."""
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    path = db_location
    _bank(path)
    db = ["--db", str(path)]
    assert main([*db, "team", "verify", str(ALPHA), "--papers", "P1,P2"]) == 0
    out, err = capsys.readouterr()
    assert err == ("warning: P2 Demo paper other is not a hiring paper (neither exam-only nor invite-only), so a "
                   "verification changes nothing for it until it is one (`proctor bank set P2 --exam-only on`)\n")
    assert out == "team -100: verified for papers P1,P2\n"
    assert main([*db, "team", "unverify", str(ALPHA), "--papers", "P2"]) == 0
    assert capsys.readouterr().err == ""  # undoing it needs no warning
