"""The matrix's drivers of the desk's routes and the command line's subcommands.

Every viewer signs in to the desk as the Mini App does (a session each, kept for the whole run: a
team's verification revoked meanwhile must show at its next request) and asks every page and
download with every team it might name and every paper and candidate the page takes; a form posted
is followed to the page it leads to. The command line runs in-process for the machine's owner (the
operator, who may read everything): its routes are driven so that a new subcommand must be
classified, and a few of its outputs must show what they exist to show."""

from __future__ import annotations

import asyncio
import contextlib
import io
from itertools import product
from pathlib import Path

from bot.cli import main
from desk.web import PREFIX
from tests.visibility_chat_routes import LEADS, QUESTION_FILE
from tests.visibility_drive import OPERATOR, Matrix, Reading, file_text
from tests.visibility_world import GROUPS, PEOPLE, SLUGS, PaperKind, Who

UNUSED_TEAM = -1009  # a group nobody is in: the command line verifies and unverifies it


TEAMS: list[str | None] = [None, "all", *(str(g.chat_id) for g in GROUPS)]  # none, every team, each group


def _variants(path: str, who: Who) -> list[dict[str, str]]:
    """The query strings a page is asked with: every combination of what it takes. A viewer who
    leads no team gets one request per page (the desk refuses them before it reads a parameter)."""
    if who not in LEADS:
        return [{"team": str(GROUPS[0].chat_id), "paper": SLUGS[PaperKind.exam_only],
                 "user": str(PEOPLE[Who.stranger].user_id)}]
    teams = TEAMS
    papers: list[str | None] = [None, *SLUGS.values()]
    users = [str(PEOPLE[w].user_id) for w in (Who.member, Who.stranger)]
    axes: dict[str, list] = {
        "/": [], "/link": [],
        "/team": [teams, [None, "all"]],
        "/team.csv": [teams, [None, "mastery", "idle", "ratings"], [None, *SLUGS.values()]],
        "/candidate": [teams, users],
        "/candidate.csv": [teams, users, [None, "disputes"]],
        "/review": [teams],
        "/items": [teams, papers],
        "/items.csv": [teams, papers],
        "/disputes.csv": [teams],
        "/hiring": [teams],
        "/hiring.csv": [teams],
        "/audit": [teams],
        "/audit.csv": [teams],
    }[path]
    names = {"/team": ("team", "period"), "/team.csv": ("team", "table", "paper"),
             "/candidate": ("team", "user"), "/candidate.csv": ("team", "user", "table"),
             "/items": ("team", "paper"), "/items.csv": ("team", "paper")}.get(path, ("team",))
    if not axes:
        return [{}]
    return [{n: v for n, v in zip(names, combo, strict=False) if v is not None} for combo in product(*axes)]


async def _read(m: Matrix, who: Who, method: str, path: str, text: str, query: dict | None = None) -> None:
    shown = "&".join(f"{k}={v}" for k, v in (query or {}).items())
    m.read.append(Reading(who, f"desk {method} {path}" + (f"?{shown}" if shown else ""), text))


def desk_get(path: str):
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            client = await m.desk(who)
            for query in _variants(path, who):
                status, text, _ = await client.get(PREFIX + path, **query)
                await _read(m, who, "GET", path, text, query)

        await m.each(act)

    return drive


def desk_post(path: str, forms):
    """Every viewer posts each form `forms(m, who)` gives, and reads the page it leads to."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            client = await m.desk(who)
            for form in forms(m, who):
                status, where = await client.post(PREFIX + path, form)
                await _read(m, who, "POST", path, where, form)
                if status in (302, 303) and where.startswith(PREFIX):
                    _, text, _ = await client.get(where)
                    await _read(m, who, "GET", where, text)

        await m.each(act)

    return drive


async def desk_sign_in(m: Matrix) -> None:
    """Every viewer signs in (their answer read); a session each for the rest of the run."""
    async def act(who: Who) -> None:
        await m.desk(who)
        async with m.desks[who].http.post(m.env.desk_base + PREFIX + "/auth",
                                          data={"init_data": "user=%7B%7D&hash=00"}) as r:
            await _read(m, who, "POST", "/auth", await r.text())

    await m.each(act)


def review_forms(m: Matrix, who: Who) -> list[dict[str, str]]:
    return [{"team": team or "", "attempt": str(m.sat[Who.stranger, k]), "pos": str(m.written_pos[Who.stranger, k]),
             "score": "2", "skip": "0"} for k in PaperKind for team in TEAMS]


def item_forms(m: Matrix, who: Who) -> list[dict[str, str]]:
    q, p = str(m.decoy_question), str(m.decoy)
    return [{"action": "retire", "target": q}, {"action": "restore", "target": q},
            {"action": "exam_only_on", "target": p}, {"action": "exam_only_off", "target": p}]


def hiring_forms(m: Matrix, who: Who) -> list[dict[str, str]]:
    return [{"action": "verify", "team": str(UNUSED_TEAM)}, {"action": "unverify", "team": str(UNUSED_TEAM)}]


async def desk_logout(m: Matrix) -> None:
    await desk_post("/logout", lambda m, who: [{}])(m)
    for client in m.desks.values():  # a session ended: the next page signs in again
        await client.close()
    m.desks.clear()


# ---- the command line ----------------------------------------------------------------------------

def _run_cli(argv: list[str], out: io.StringIO) -> None:
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(argv)


def cli(*argvs: list[str]):
    """The operator runs `proctor <argv>` for each argv, in-process, against the bot's database; what
    it prints and the files it writes are read."""
    async def drive(m: Matrix) -> None:
        names = m.names()
        question_file(m)
        for argv in argvs:
            words = [a.format(**names) for a in argv]
            out = io.StringIO()
            await asyncio.to_thread(_run_cli, ["--db", str(m.env.db_path), *words], out)
            text = out.getvalue()
            for word in words:
                if word.endswith(".xlsx") and Path(word).exists():
                    text += "\n" + file_text(Path(word).read_bytes())
                elif word.endswith(".csv") and Path(word).exists():
                    text += "\n" + Path(word).read_text(encoding="utf-8")
            m.read.append(Reading(OPERATOR, "cli proctor " + " ".join(argv), text))

    return drive


def question_file(m: Matrix) -> Path:
    path = m.env.db_path.parent / "questions.txt"
    path.write_text(QUESTION_FILE, encoding="utf-8")
    # a response log for `proctor ratings replay` (another system's answers: no fact of a paper)
    (m.env.db_path.parent / "log.csv").write_text("user,item,correct,at\nu1,i1,1,100\nu2,i1,0,101\n", encoding="utf-8")
    return path
