"""Every desk parameter is read once into a bounded type (desk/params.py): a number out of SQLite's
range, a negative id, text where a number goes, or no number at all gets a 4xx or an empty page,
never a 500 (issue 21, item 7)."""

import logging

import pytest

from tests.desk_helpers import DeskClient, DeskEnv
from tests.papers_fixture import small_paper

ADMIN = 1
HUGE = "99999999999999999999"
BAD = [HUGE, "-" + HUGE, "-1", "0", "1e3", "x", " 7", "٣"]

GETS = [("/desk/candidate", "user"), ("/desk/candidate.csv", "user"), ("/desk/items", "paper"),
        ("/desk/items.csv", "paper"), ("/desk/team", "paper"), ("/desk/team.csv", "paper"),
        ("/desk/audit", "actor"), ("/desk/audit.csv", "actor"), ("/desk/review", "skip"),
        ("/desk/team", "team"), ("/desk/review", "team"), ("/desk/items", "team")]
POSTS = [("/desk/review", {"attempt": "{}", "pos": "0", "score": "1"}),
         ("/desk/review", {"attempt": "1", "pos": "{}", "score": "1"}),
         ("/desk/review", {"attempt": "1", "pos": "0", "score": "1", "skip": "{}"}),
         ("/desk/review", {"attempt": "1", "pos": "0", "score": "{}"}),
         *[("/desk/items", {"action": action, "target": "{}"})
           for action in ("retire", "restore", "confirm_key", "uphold", "dismiss", "key_fix", "exam_only_on",
                          "invite_only_on")]]


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    e.api.user(ADMIN, "Boss")
    e.api.group(-100, "Alpha").set_admins([ADMIN])
    yield e
    await e.close()


@pytest.fixture
async def browser(env):
    client = DeskClient(env)
    assert await client.login(ADMIN, "Boss") == 200
    yield client
    await client.close()


@pytest.mark.parametrize("path,name", GETS, ids=[f"{p}?{n}" for p, n in GETS])
async def test_a_bad_query_parameter_is_a_4xx_or_an_empty_page(env, browser, caplog, path, name):
    caplog.set_level(logging.ERROR)
    for value in BAD:
        status, _, _ = await browser.get(path, **{name: value})
        assert status < 500 and status != 303, (value, status)
    assert "Traceback" not in caplog.text and "Error" not in caplog.text, caplog.text


@pytest.mark.parametrize("path,form", POSTS, ids=[f"{p}:{'/'.join(f)}" for p, f in POSTS])
async def test_a_bad_form_field_is_a_4xx(env, browser, caplog, path, form):
    caplog.set_level(logging.ERROR)
    for value in [*BAD, "nan", "inf", "-inf", "1e400"]:
        status, _ = await browser.post(path, {k: v.format(value) for k, v in form.items()})
        assert status < 500, (value, status)
    assert "Traceback" not in caplog.text and "Error" not in caplog.text, caplog.text
