"""The desk over HTTP, served by the real bot's process against the fake Bot API: sign-in, the
same leaderboard numbers as /leaderboard, reviewing, the role on every request, CSRF, escaping,
headers, and no secret in a URL or a log."""

import logging
import re

import pytest

from bank.paper_store import get_question, load_paper
from proctor.exams import service as attempts
from proctor.people.users import ensure_user
from proctor.teams import audit
from proctor.teams.curation import set_exam_only
from tests.bot.test_leads_flow import ALPHA, ANN, BETA, BOB, LEAD_A, LEAD_B, crafted_teams, pending_exam, say
from tests.desk_helpers import DESK_URL, DeskClient, DeskEnv, init_data, table_rows
from tests.harness import TOKEN
from tests.papers_fixture import small_paper
from tests.reads import answers_in, dispute_status, paper_id, question_ids, reviewer_of

ADMIN = 1


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    for uid, name in ((ADMIN, "Boss"), (LEAD_A, "Lea"), (LEAD_B, "Leb"), (ANN, "Ann"), (BOB, "Bob")):
        e.api.user(uid, name)  # people Telegram knows (the fake server answers getChatMember for them)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


@pytest.fixture
async def browser(env):
    clients = []

    def make():
        clients.append(DeskClient(env))
        return clients[-1]

    yield make
    for c in clients:
        await c.close()


async def test_sign_in_with_init_data_sets_a_strict_cookie_and_refuses_forged_stale_and_replayed(env, browser):
    await crafted_teams(env)
    lea = browser()
    raw = init_data(env, LEAD_A)
    assert await lea.login_with(raw) == 200
    cookie = lea.set_cookie.lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" in cookie and "path=/desk" in cookie
    status, html, _ = await lea.get("/desk/team")
    assert status == 200 and "Alpha" in html
    assert await browser().login_with(raw) == 403  # the same initData again: a replay
    assert await browser().login_with(init_data(env, LEAD_A, age=3601)) == 403  # stale
    forged = init_data(env, LEAD_B).replace(f"%22id%22%3A+{LEAD_B}", f"%22id%22%3A+{LEAD_A}")
    assert forged != init_data(env, LEAD_B)
    assert await browser().login_with(forged) == 403
    assert await browser().login_with("") == 403
    nobody = browser()
    status, _, headers = await nobody.get("/desk/team")
    assert status == 303 and headers["Location"] == "/desk/"
    # a session lasts an hour
    env.clock.advance(3601)
    assert (await lea.get("/desk/team"))[0] == 303


async def test_http_desk_url_gives_cookies_without_secure(tmp_path):
    env = DeskEnv(tmp_path, desk_url="http://127.0.0.1:8080")
    await env.start()
    c = DeskClient(env)
    try:
        assert await c.login(ADMIN) == 200
        assert "secure" not in c.set_cookie.lower() and "samesite=strict" in c.set_cookie.lower()
    finally:
        await c.close()
        await env.close()


def chat_rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if re.match(r"^\d+\. ", ln)]


@pytest.mark.parametrize("period", ["today", "week", "month", "all"])
async def test_team_leaderboard_has_the_same_numbers_as_the_chats_leaderboard(env, browser, period):
    await crafted_teams(env)
    lea = browser()
    await lea.login(LEAD_A)
    status, html, _ = await lea.get("/desk/team", team=str(ALPHA), period=period)
    assert status == 200
    desk = [f"{rank}. {name} — {points} pts · {acc} · 🔥{streak}"
            for rank, name, points, acc, _answers, streak, _live, _trend in table_rows(html, "board")]
    chat = await say(env, env.api.user(ANN, "Ann"), f"/leaderboard {period}", chat=ALPHA)
    assert desk == chat_rows(chat.text)
    assert len(desk) == 3
    assert 'id="idle-none"' in html  # all three answered this week
    # the day's points as a server-rendered chart: one bar, the team's 4 points (2 + 2 + 0)
    chart = re.search(r'<figure id="days-chart">(.*?)</figure>', html, re.S).group(1)
    assert chart.count('<rect class="bar"') == 1 and "<title>2027-01-15: 4</title>" in chart
    assert "<script" not in chart and "style=" not in chart
    # a trend line per member, and the topic-by-member heatmap (share of points earned)
    assert all('<svg class="spark"' in row for row in re.findall(r'<td class="trend">(.*?)</td>', html, re.S))
    heat = {row[0]: row[1:] for row in table_rows(html, "heatmap")}
    assert heat == {"Lea": ["0%"], "Ann": ["100%"], "Bob": ["100%"]}  # one topic: none (no subject, no topics)
    assert '<th data-type="num">(no topic)</th>' in html and "单项选择题" not in html  # never a section's heading


async def test_team_page_names_who_has_not_practised_this_week(env, browser):
    c = await crafted_teams(env)
    await c.member(ALPHA, 77)  # joined, never answered
    await c.roster(ALPHA, 77)  # and on the team's roster
    env.in_group(ALPHA, (77, "Ida"))
    await ensure_user(env.db, 77, "Idle <i>Ida</i>", None, env.clock.now())
    lea = browser()
    await lea.login(LEAD_A)
    _, html, _ = await lea.get("/desk/team", team=str(ALPHA), period="today")
    assert "Not practised this week: 1" in html
    assert re.search(r'<ul id="idle"><li><a [^>]*>(.*?)</a></li></ul>', html).group(1) == "Idle &lt;i&gt;Ida&lt;/i&gt;"


async def test_paper_board_has_the_same_numbers_as_the_chats_leaderboard(env, browser):
    c = await crafted_teams(env)
    pid = await paper_id(env.db, "demo")
    q = await question_ids(env.db, "demo", "single")
    await c.exam(ANN, pid, [(q[0], 2, 2, 1), (q[1], 0, 2, 1)], 1_800_000_000, 1_800_000_300)
    await c.exam(BOB, pid, [(q[0], 2, 2, 1), (q[1], 2, 2, 1)], 1_800_000_000, 1_800_000_065)
    lea = browser()
    await lea.login(LEAD_A)
    _, html, _ = await lea.get("/desk/team", team=str(ALPHA), paper="demo")
    desk = [f"{rank}. {name} — {score} · {time}" for rank, name, score, time in table_rows(html, "paperboard")]
    chat = await say(env, env.api.user(ANN, "Ann"), "/leaderboard paper demo", chat=ALPHA)
    assert desk == chat_rows(chat.text) == ["1. Bob — 4/4 · 1:05", "2. Ann — 2/4 · 5:00"]
    status, body, headers = await lea.get("/desk/team.csv", team=str(ALPHA), paper="demo")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert body.lstrip("\ufeff").splitlines()[1].startswith("1,40,Bob,4.0,4.0,65")


@pytest.mark.parametrize("path", ["/desk/team", "/desk/review", "/desk/audit", "/desk/team.csv", "/desk/audit.csv"])
async def test_every_page_checks_the_role_on_every_request(env, browser, path):
    await crafted_teams(env)
    ann = browser()  # a plain member
    await ann.login(ANN, "Ann")
    status, html, _ = await ann.get(path)
    assert status == 403 and "Only team leads can use the desk." in html
    leb = browser()  # Beta's lead, asking for Alpha
    await leb.login(LEAD_B, "Leb")
    status, html, _ = await leb.get(path, team=str(ALPHA))
    assert status == 403 and "You don&#39;t lead that team." in html
    assert (await leb.get(path, team="all"))[0] == 403  # every team: configured admins only
    assert (await leb.get(path, team=str(BETA)))[0] == 200
    admin = browser()
    await admin.login(ADMIN, "Boss")
    assert (await admin.get(path, team=str(ALPHA)))[0] == 200
    # Lea stops being Alpha's administrator: refused on her next request once the cached list expires
    lea = browser()
    await lea.login(LEAD_A)
    assert (await lea.get(path, team=str(ALPHA)))[0] == 200
    env.api.group(ALPHA).set_admins([])
    env.clock.advance(301)
    assert (await lea.get(path, team=str(ALPHA)))[0] == 403


async def test_review_scores_the_answer_and_the_candidate_is_told_in_the_chat(env, browser):
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    lea = browser()
    await lea.login(LEAD_A)
    status, html, _ = await lea.get("/desk/review", team=str(ALPHA))
    assert status == 200 and re.search(r'id="candidate"[^>]*>Ann</a>', html) and "my answer 1" in html
    assert "Provisional score: 2/5" in html and 'data-key="4"' in html
    form = {"team": str(ALPHA), "attempt": str(attempt), "pos": "1", "skip": "0", "score": "4.5"}
    # no CSRF token, a wrong one, another session's: refused, nothing changes
    assert (await lea.post("/desk/review", form, csrf=None))[0] == 403
    assert (await lea.post("/desk/review", form, csrf="forged"))[0] == 403
    other = browser()
    await other.login(LEAD_B, "Leb")
    assert (await lea.post("/desk/review", form, csrf=await other.csrf()))[0] == 403
    # another team's lead with their own token, acting for Alpha
    assert (await other.post("/desk/review", form))[0] == 403
    assert [p for p, a in (await answers_in(env.db, attempt)).items() if not a.final] == [1]
    status, location = await lea.post("/desk/review", form)
    assert status == 303 and location.startswith("/desk/review?")
    ann = env.api.user(ANN, "Ann")
    told = await ann.wait_message(lambda m: "was reviewed" in (m.text or ""))
    assert "4.5/5" in told.text and "Attempt score: 6.5/7 — final." in told.text
    answer = (await answers_in(env.db, attempt))[1]
    assert (answer.final, answer.score) == (True, 4.5)
    assert await reviewer_of(env.db, attempt, 1) == LEAD_A
    _, html, _ = await lea.get(location)
    assert "Final score saved; the candidate was told." in html and "Nothing awaits review" in html
    # the same answer again (a double submit) counts once
    status, html = await lea.post("/desk/review", form)
    assert "already reviewed" in html
    assert len(await audit.recent(env.db, action="review")) == 1
    # the audit log shows it, filterable
    _, html, _ = await lea.get("/desk/audit", team=str(ALPHA), action="review")
    assert [r[3] for r in table_rows(html, "audit")] == ["answer scored"]  # the action in words
    _, html, _ = await lea.get("/desk/audit", team=str(ALPHA), action="retire")
    assert "No entries." in html
    _, html, _ = await lea.get("/desk/audit", team=str(ALPHA), actor=str(ADMIN))
    assert "No entries." in html
    status, text, _ = await lea.get("/desk/audit", team=str(ALPHA), action="reviwe")  # no such action: said so
    assert (status, text) == (400, "action: one of the audit log's actions")


async def test_nobody_scores_their_own_answer_at_the_desk(env, browser):
    c = await crafted_teams(env)
    await c.member(ALPHA, ADMIN)
    pid = await paper_id(env.db, "demo")
    short = (await question_ids(env.db, "demo", "short"))[0]
    attempt = await c.exam(ADMIN, pid, [(short, 2, 5, 0)], 1_800_000_000, 1_800_000_600)
    admin = browser()
    await admin.login(ADMIN, "Boss")
    status, html = await admin.post("/desk/review", {"team": "all", "attempt": str(attempt), "pos": "0",
                                                     "skip": "0", "score": "5"})
    assert status == 403 and "Nobody scores their own answers" in html
    assert not (await answers_in(env.db, attempt))[0].final


async def test_names_and_answers_are_escaped(env, browser):
    c = await crafted_teams(env)
    await pending_exam(env, c, responses=["my answer 0", "<img src=x onerror=alert(2)>"])
    evil = "<script>alert(1)</script>"
    await ensure_user(env.db, ANN, evil, None, env.clock.now())
    lea = browser()
    await lea.login(LEAD_A)
    for path, params in (("/desk/team", {"period": "all"}), ("/desk/review", {})):
        _, html, _ = await lea.get(path, team=str(ALPHA), **params)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert evil not in html and "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    # and a script tag as the first name in the initData itself
    other = browser()
    await other.login(LEAD_B, evil)
    _, html, _ = await other.get("/desk/audit")
    assert evil not in html


async def test_every_response_carries_a_csp_without_inline_scripts(env, browser):
    lea = browser()
    await lea.login(LEAD_A)
    ann = browser()
    await ann.login(ANN, "Ann")
    responses = [await browser().get("/desk/"), await lea.get("/desk/team"), await ann.get("/desk/team"),
                 await lea.get("/desk/static/desk.js"), await lea.get("/desk/nowhere")]
    for status, html, headers in responses:
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
        if status == 200 and "<html" in html:
            assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None  # no inline script
            assert not re.search(r"<[^>]+\son[a-z]+=", html)  # no inline event handlers


async def test_desk_command_gives_leads_a_mini_app_button_and_a_one_time_link(env, browser, caplog):
    caplog.set_level(logging.DEBUG)
    await crafted_teams(env)
    lea = env.api.user(LEAD_A, "Lea")
    assert (await say(env, lea, "/desk", chat=ALPHA)).text == "📬 Sent to you in a private chat."
    card = await env.api.wait_for(lambda: lea.last_message())
    assert card.web_app_urls == [f"{DESK_URL}/desk/"]
    ann = env.api.user(ANN, "Ann")
    assert (await say(env, ann, "/desk", chat=ALPHA)).text.startswith("Only team leads can do that.")
    await lea.send("/desk link", chat=ALPHA)
    msg = await env.api.wait_for(lambda: next((m for m in lea.chat() if "one-time" in (m.text or "")), None))
    url = re.search(r"https://\S+", msg.text).group(0)
    assert url.startswith(f"{DESK_URL}/desk/link#")
    token = url.split("#", 1)[1]
    client = browser()
    assert await client.login_with(token, "/desk/link", "token") == 200
    assert (await client.get("/desk/team", team=str(ALPHA)))[0] == 200
    assert await browser().login_with(token, "/desk/link", "token") == 403  # once
    late = browser()
    await lea.send("/desk link", chat=ALPHA)
    msgs = await env.api.wait_for(lambda: [m for m in lea.chat() if "one-time" in (m.text or "")][1:] or None)
    env.clock.advance(601)
    assert await late.login_with(msgs[0].text.split("#", 1)[1].split()[0], "/desk/link", "token") == 403
    # no secret in any log line: the link's token, the session, the CSRF token, the bot token
    raw = init_data(env, LEAD_A)
    signer = browser()
    assert await signer.login_with(raw) == 200
    await signer.get("/desk/review", team=str(ALPHA))
    # what the process logs at its level (INFO; httpx is quietened and the token redacted by
    # bot.logging_setup), and everything the desk and its web server log at any level
    desk_lines = [r.getMessage() for r in caplog.records if r.name.startswith(("desk", "aiohttp"))]
    logged = "\n".join(desk_lines + [r.getMessage() for r in caplog.records
                                      if r.levelno >= logging.INFO and not r.name.startswith("httpx")])
    hash_ = raw.rsplit("hash=", 1)[1]
    for secret in (token, client.sid, await client.csrf(), signer.sid, hash_, TOKEN.split(":")[1]):
        assert secret not in logged
    assert "desk session opened for user 10" in logged
    # and none in a URL the desk links to
    _, html, _ = await signer.get("/desk/review", team=str(ALPHA))
    for href in re.findall(r'(?:href|action|src)="([^"]*)"', html):
        assert signer.sid not in href and await signer.csrf() not in href


async def test_items_admins_retire_and_restore_and_settle_disputes_group_admins_only_look(env, browser):
    from proctor.daily.candidates import candidates
    from proctor.teams.disputes import raise_dispute

    await crafted_teams(env)
    qid = (await question_ids(env.db, "demo", "single"))[0]
    assert qid in {c.id for c in await candidates(env.db)}
    dispute = await raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ALPHA, reason="<b>key wrong</b>",
                                  now=env.clock.now())
    lea = browser()
    await lea.login(LEAD_A)
    status, html, _ = await lea.get("/desk/items", team=str(ALPHA))
    assert status == 200 and 'id="look-only"' in html and 'value="retire"' not in html
    assert "&lt;b&gt;key wrong&lt;/b&gt;" in html
    assert (await lea.post("/desk/items", {"action": "retire", "target": str(qid)}))[0] == 403
    admin = browser()
    await admin.login(ADMIN, "Boss")
    assert (await admin.post("/desk/items", {"action": "retire", "target": str(qid)}, csrf=None))[0] == 403
    assert not (await get_question(env.db, qid)).retired
    status, location = await admin.post("/desk/items", {"action": "retire", "target": str(qid)})
    assert status == 303 and "done=d_it_retired" in location
    assert qid not in {c.id for c in await candidates(env.db)}  # left the daily pool
    _, html, _ = await admin.get(location)
    assert "Question retired" in html and 'value="restore"' in html
    await admin.post("/desk/items", {"action": "restore", "target": str(qid)})
    assert qid in {c.id for c in await candidates(env.db)}
    status, _ = await admin.post("/desk/items", {"action": "uphold", "target": str(dispute)})
    assert status == 303
    assert await dispute_status(env.db, dispute) == "upheld"
    logged = [(e.actor_id, e.action) for e in reversed(await audit.recent(env.db))]
    assert logged == [(ADMIN, "retire"), (ADMIN, "restore"), (ADMIN, "dispute_upheld")]
    # a paper's exam-only switch: out of the daily pool, audited
    pid = await paper_id(env.db, "demo")
    _, html, _ = await lea.get("/desk/items", paper="demo")
    assert "used for practice" in html and 'value="exam_only_on"' not in html
    assert (await lea.post("/desk/items", {"action": "exam_only_on", "target": str(pid)}))[0] == 403
    status, location = await admin.post("/desk/items", {"action": "exam_only_on", "target": str(pid),
                                                        "paper": "demo"})
    assert status == 303 and "paper=demo" in location
    assert (await load_paper(env.db, pid)).settings.exam_only
    assert await candidates(env.db) == []
    _, html, _ = await admin.get(location)
    assert "now exam-only" in html and 'value="exam_only_off"' in html
    read, entry = await audit.recent(env.db, limit=2)
    assert (entry.actor_id, entry.action, entry.target) == (ADMIN, "paper_settings", f"paper:{pid}")  # the one settings writer
    # the page then showed the upheld dispute's key ("Key now") of a paper now exam-only: a hiring key, read
    assert (read.actor_id, read.action, read.target) == (ADMIN, "key_read", f"paper:{pid}")
    status, body, _ = await admin.get("/desk/items.csv")
    assert status == 200 and body.lstrip("\ufeff").startswith("question_id,paper,section")
    # invite-only from the desk too (the hiring issue): only an invite opens the paper, audited
    assert (await lea.post("/desk/items", {"action": "invite_only_on", "target": str(pid)}))[0] == 403
    status, location = await admin.post("/desk/items", {"action": "invite_only_on", "target": str(pid),
                                                        "paper": "demo"})
    assert status == 303
    settings = (await load_paper(env.db, pid)).settings
    assert (settings.invite_only, settings.exam_only) == (True, True)
    _, html, _ = await admin.get(location)
    assert "now invite-only" in html and 'value="invite_only_off"' in html and 'id="invite-only"' in html
    await admin.post("/desk/items", {"action": "invite_only_off", "target": str(pid), "paper": "demo"})
    settings = (await load_paper(env.db, pid)).settings
    assert (settings.invite_only, settings.exam_only) == (False, True)


async def test_an_admin_before_any_team_group_is_told_how_to_start(env, browser):
    admin = browser()
    await admin.login(ADMIN, "Boss")
    status, html, _ = await admin.get("/desk/team")
    assert status == 200 and "No team groups yet" in html


async def test_candidate_page_shows_attempts_grid_answers_and_disputes_to_their_leads_only(env, browser):
    from proctor.teams.disputes import raise_dispute

    c = await crafted_teams(env)
    attempt = await pending_exam(env, c, responses=[None, "<script>x()</script>"])  # an unanswered item, markup
    qid = (await attempts.load_sheet(env.db, attempt)).items[0].question_id
    await raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ALPHA, reason="two keys fit", now=env.clock.now())
    lea = browser()
    await lea.login(LEAD_A)
    status, html, _ = await lea.get("/desk/candidate", team=str(ALPHA), user=str(ANN))
    assert status == 200 and '<h1 id="candidate-name">Ann</h1>' in html
    assert re.findall(r'<li class="cell (\w+)"', html) == ["unanswered", "awaiting"]
    assert "Time 10:00" in html and "&lt;script&gt;x()&lt;/script&gt;" in html and "<script>x()" not in html
    assert "two keys fit" in html
    # not on Lea's team: refused; Beta's lead sees Ann (she is on Beta too), not Bob
    assert (await lea.get("/desk/candidate", team=str(ALPHA), user=str(LEAD_B)))[0] == 403
    leb = browser()
    await leb.login(LEAD_B, "Leb")
    assert (await leb.get("/desk/candidate", team=str(BETA), user=str(ANN)))[0] == 200
    assert (await leb.get("/desk/candidate", team=str(BETA), user=str(BOB)))[0] == 403
    assert (await browser().get("/desk/candidate", user=str(ANN)))[0] == 303  # no session
    # hiring papers: configured admins only
    await set_exam_only(env.db, await paper_id(env.db, "demo"), True, lead=ADMIN, chat_id=None, now=env.clock.now())
    _, html, _ = await lea.get("/desk/candidate", team=str(ALPHA), user=str(ANN))
    assert "No finished attempts yet." in html and "my answer" not in html
    admin = browser()
    await admin.login(ADMIN, "Boss")
    _, html, _ = await admin.get("/desk/candidate", team="all", user=str(ANN))
    assert f'id="attempt-{attempt}"' in html


async def test_candidate_page_shows_similar_answers_side_by_side_naming_only_whom_the_lead_may_see(env, browser):
    from tests.proctor.test_integrity_signals import COPIED, WRITTEN, sit_exam

    await crafted_teams(env)
    zed = 99  # on nobody's roster
    await ensure_user(env.db, zed, "Zed", None, env.clock.now())
    pid, start = await paper_id(env.db, "demo"), env.clock.now() + 60
    ann = await sit_exam(env.db, pid, ANN, short=WRITTEN, start=start, step=60)
    await sit_exam(env.db, pid, BOB, short=COPIED, start=start, step=60)
    await sit_exam(env.db, pid, zed, short=WRITTEN, start=start, step=0.5)  # and every right answer at once
    lea = browser()
    await lea.login(LEAD_A)
    status, html, _ = await lea.get("/desk/candidate", team=str(ALPHA), user=str(ANN))
    assert status == 200 and f'id="signals-{ann}"' in html
    pairs = re.findall(r'<table class="side-by-side"><thead><tr><th>This candidate</th><th>([^<]+)</th>.*?'
                       r'<td class="response">([^<]+)</td><td class="response">([^<]+)</td>', html, re.S)
    # Bob is on Alpha's roster: named, his answer beside hers; Zed is on no roster of Alpha: "another
    # candidate", the ratio only
    assert pairs == [("Bob", WRITTEN, COPIED)]
    assert "Zed" not in html and "to another candidate&#39;s" in html
    leb = browser()  # Beta has Ann but not Bob
    await leb.login(LEAD_B, "Leb")
    _, html, _ = await leb.get("/desk/candidate", team=str(BETA), user=str(ANN))
    assert "Bob" not in html and "Zed" not in html and html.count("another candidate&#39;s") == 2
    admin = browser()  # the configured admins see everyone
    await admin.login(ADMIN, "Boss")
    _, html, _ = await admin.get("/desk/candidate", team="all", user=str(ANN))
    assert "to Bob&#39;s" in html and "to Zed&#39;s" in html
    _, html, _ = await admin.get("/desk/candidate", team="all", user=str(zed))  # the timings
    fast = re.findall(r"right in ([\d.]+)s \(shown ([\d:]+) UTC, answered ([\d:]+) UTC\); reading it takes at least "
                      r"([\d.]+)s", html)
    assert len(fast) == 6 and all(float(taken) == 0.5 < float(floor) for taken, _, _, floor in fast)
