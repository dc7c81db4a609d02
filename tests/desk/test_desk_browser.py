"""The desk in a real browser (headless Chromium driven by Playwright) against the real bot:
sign in with a signed initData as Telegram opens a Mini App, see /leaderboard's numbers, review an
answer with the keyboard and see the candidate told in the chat, switch language, follow the theme.

Skipped, with the reason, only where no browser is installed."""

import json
import os
from urllib.parse import quote

import pytest

from proctor.people.users import find_prefs
from proctor.teams import audit
from tests.bot.test_leads_flow import ALPHA, ANN, BETA, BOB, LEAD_A, LEAD_B, crafted_teams, pending_exam, say
from tests.desk_helpers import DeskEnv, init_data
from tests.papers_fixture import small_paper
from tests.reads import answers_in, question_ids

CHROMIUM = os.environ.get("PROCTOR_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ADMIN = 1
DARK = {"bg_color": "#1e1e2e", "text_color": "#f5f5f5", "hint_color": "#888888", "link_color": "#89b4fa",
        "button_color": "#3d59a1", "button_text_color": "#ffffff", "secondary_bg_color": "#2b2b3c"}


@pytest.fixture
async def chromium():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no browser: {CHROMIUM} is missing (apt-get install chromium chromium-driver)")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("no browser driver: pip install playwright (the system Chromium is used; "
                    "no `playwright install`)")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        await browser.close()


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, desk_url="http://127.0.0.1:8080", admins=(ADMIN,))  # plain http: no Secure cookie
    await e.seed(small_paper())
    await e.start()
    for uid, name in ((ADMIN, "Boss"), (LEAD_A, "Lea"), (LEAD_B, "Leb"), (ANN, "Ann"), (BOB, "Bob")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


def mini_app_url(env, user_id: int, theme: dict) -> str:
    """The URL Telegram opens for a Mini App: launch parameters in the fragment."""
    fragment = (f"tgWebAppData={quote(init_data(env, user_id), safe='')}&tgWebAppVersion=8.0"
                f"&tgWebAppPlatform=android&tgWebAppThemeParams={quote(json.dumps(theme), safe='')}")
    return f"{env.desk_base}/desk/#{fragment}"


async def test_a_lead_signs_in_sees_the_leaderboard_and_reviews_with_the_keyboard(env, chromium):
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    context = await chromium.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = await context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    await page.goto(mini_app_url(env, LEAD_A, DARK))
    await page.wait_for_url("**/desk/team")
    assert "#" not in page.url and "tgWebAppData" not in page.url  # the secret left the address bar
    cookies = await context.cookies()
    assert [(k["name"], k["httpOnly"], k["sameSite"]) for k in cookies] == [("proctor_desk", True, "Strict")]

    # the leaderboard: the week's numbers, as /leaderboard says them in the chat
    rows = await page.locator("#board tbody tr").all()
    cells = [[await td.inner_text() for td in await row.locator("td").all()] for row in rows]
    desk = [f"{r[0]}. {r[1]} — {r[2]} pts · {r[3]} · 🔥{r[5]}" for r in cells]
    chat = await say(env, env.api.user(ANN, "Ann"), "/leaderboard", chat=ALPHA)
    assert desk == [ln for ln in chat.text.splitlines() if ln[:2] in ("1.", "2.", "3.")]
    # Telegram's theme colours (dark) are applied
    background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(30, 30, 46)"
    # sorting by name puts Ann first; the filter hides the others
    await page.click("#board th:nth-child(2)")
    assert await page.locator("#board tbody tr td.name").first.inner_text() == "Ann"
    await page.fill("input[data-filter-for=board]", "bob")
    assert await page.locator("#board tbody tr:visible").count() == 1

    # the review queue: press 4 for a final score of 4
    await page.click("text=Review")
    await page.wait_for_selector("#review-card")
    await page.wait_for_load_state("domcontentloaded")  # desk.js (deferred) has bound the keys
    assert await page.inner_text("#candidate") == "Ann"
    assert "my answer 1" in await page.inner_text("#answer")
    async with page.expect_navigation():
        await page.keyboard.press("4")
    await page.wait_for_selector("#notice")
    assert "the candidate was told" in await page.inner_text("#notice")
    assert await page.inner_text("#queue-empty") == "Nothing awaits review. 🎉"
    told = await env.api.user(ANN, "Ann").wait_message(lambda m: "was reviewed" in (m.text or ""))
    assert "4/5" in told.text and "Attempt score: 6/7 — final." in told.text
    assert (await answers_in(env.db, attempt))[1].score == 4

    # the language follows /lang: switching here is the lead's /lang, and the theme stays
    await page.click("#lang-zh")
    await page.wait_for_selector("text=复核队列")
    assert await page.inner_text("header nav a[aria-current=page]") == "复核"
    assert (await find_prefs(env.db, LEAD_A)).language == "zh"
    assert await page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(30, 30, 46)"
    assert problems == []  # no script error, no Content-Security-Policy violation
    await context.close()


async def test_a_light_theme_a_plain_member_and_a_used_init_data(env, chromium):
    await crafted_teams(env)
    context = await chromium.new_context()
    page = await context.new_page()
    await page.goto(mini_app_url(env, ANN, {"bg_color": "#ffffff", "text_color": "#000000"}))
    await page.wait_for_selector("#refused")
    assert await page.inner_text("#refused") == "Only team leads can use the desk."
    assert await page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    # the very same launch data opened again elsewhere: a replay, refused
    url = mini_app_url(env, LEAD_A, DARK)
    await page.goto(url)
    await page.wait_for_url("**/desk/team")
    other = await chromium.new_context()
    thief = await other.new_page()
    await thief.goto(url)
    await thief.wait_for_selector("#login-failed")
    assert "expired or was already used" in await thief.inner_text("#login-failed")
    await other.close()
    await context.close()


async def test_an_admin_retires_a_question_and_it_leaves_the_daily_pool(env, chromium):
    from proctor.daily.candidates import candidates

    await crafted_teams(env)
    qid = (await question_ids(env.db, "demo", "single"))[0]
    assert qid in {c.id for c in await candidates(env.db)}
    context = await chromium.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    await page.goto(mini_app_url(env, ADMIN, DARK))
    await page.wait_for_url("**/desk/team")
    await page.click("text=Items")
    await page.wait_for_selector(f"#q{qid}")
    async with page.expect_navigation():
        await page.click(f"#q{qid} button[value=retire]")
    assert await page.inner_text("#notice") == "Question retired: it is never asked again."
    assert (await page.inner_text(f"#q{qid} td.status")).split() == ["retired", "Restore"]
    assert qid not in {c.id for c in await candidates(env.db)}
    [entry] = await audit.recent(env.db)
    assert (entry.actor_id, entry.action, entry.target) == (ADMIN, "retire", f"question:{qid}")
    await context.close()
