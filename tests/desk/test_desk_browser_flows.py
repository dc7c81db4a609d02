"""The desk in a real browser (headless Chromium, Playwright on the system browser), continued:
from /desk to a reviewed answer in under 5 clicks on a 390-px phone, Telegram's live theme change,
the language following the lead's /lang in the chat, and injected markup shown as text.

With DESK_SCREENSHOTS=1 the tests also write the main pages to docs/screenshots/*.png (README)."""

import os
from pathlib import Path

import pytest

from proctor.people.users import ensure_user, find_prefs
from proctor.teams.disputes import raise_dispute
from tests.bot.test_leads_flow import ALPHA, ANN, BETA, BOB, LEAD_A, LEAD_B, crafted_teams, pending_exam, say
from tests.desk.test_desk_browser import ADMIN, DARK, chromium, mini_app_url  # noqa: F401 (the browser fixture)
from tests.desk_helpers import DeskEnv
from tests.papers_fixture import small_paper
from tests.reads import answers_in, question_ids

LIGHT = {"bg_color": "#ffffff", "text_color": "#222222", "hint_color": "#999999", "link_color": "#2678b6",
         "button_color": "#50a8eb", "button_text_color": "#ffffff", "secondary_bg_color": "#efeff3"}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


async def shot(page, name: str) -> None:
    """The page as a phone shows it, into docs/screenshots when DESK_SCREENSHOTS=1."""
    if os.environ.get("DESK_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


class Clicks:
    """Every click the lead makes, counted (keyboard scoring counts as one click too)."""

    def __init__(self, page):
        self.page, self.n = page, 0

    async def click(self, selector: str) -> None:
        self.n += 1
        async with self.page.expect_navigation():
            await self.page.click(selector)


@pytest.fixture
async def env(tmp_path):
    """The desk behind an HTTPS URL, as Telegram requires for a Mini App button (the browser talks
    to the local port; Chromium keeps Secure cookies for 127.0.0.1)."""
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    for uid, name in ((ADMIN, "Boss"), (LEAD_A, "Lea"), (LEAD_B, "Leb"), (ANN, "Ann"), (BOB, "Bob")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


async def test_from_desk_to_a_reviewed_answer_in_under_five_clicks_on_a_phone(env, chromium):  # noqa: F811
    c = await crafted_teams(env)
    # a written answer that covers some of the key terms
    attempt = await pending_exam(env, c, responses=["my answer 0", "每次前向传播后先不更新参数，把梯度累积起来"])
    lead = env.api.user(LEAD_A, "Lea")
    # /desk in the chat: a Mini App button; Telegram opens its URL with the signed launch data
    await say(env, lead, "/desk", chat=ALPHA)
    card = await env.api.wait_for(lambda: lead.last_message())
    assert card.web_app_urls == [f"{env.desk_url}/desk/"]
    context = await chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                         is_mobile=True, has_touch=True)
    page = await context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    clicks = Clicks(page)
    await page.goto(mini_app_url(env, LEAD_A, LIGHT))  # pressing the button: counted below
    clicks.n += 1
    await page.wait_for_url("**/desk/team")
    await shot(page, "team")
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    await clicks.click("header nav >> text=Review")
    await page.wait_for_selector("#review-card")
    assert "梯度" in await page.inner_text("#terms .found >> nth=0")
    await shot(page, "review")
    score = page.locator(".scores button[value='4.0'], .scores button[value='4']").first
    box = await score.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390  # reachable without scrolling sideways
    clicks.n += 1
    async with page.expect_navigation():
        await score.click()
    assert "the candidate was told" in await page.inner_text("#notice")
    assert clicks.n < 5, clicks.n
    assert (await answers_in(env.db, attempt))[1].final
    told = await env.api.user(ANN, "Ann").wait_message(lambda m: "was reviewed" in (m.text or ""))
    assert "4/5" in told.text
    # the candidate page and the audit log, for the README
    await page.goto(f"{env.desk_base}/desk/candidate?team={ALPHA}&user={ANN}")
    await shot(page, "candidate")
    await page.goto(f"{env.desk_base}/desk/audit?team={ALPHA}")
    assert "answer scored" in await page.inner_text("#audit")
    await shot(page, "audit")
    assert problems == []
    await context.close()


async def test_live_theme_change_and_the_language_of_the_leads_lang(env, chromium):  # noqa: F811
    await crafted_teams(env)
    context = await chromium.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    await page.goto(mini_app_url(env, LEAD_A, DARK))
    await page.wait_for_url("**/desk/team")
    background = "getComputedStyle(document.body).backgroundColor"
    assert await page.evaluate(background) == "rgb(30, 30, 46)"
    # the user switches Telegram to its light theme: the app calls the page's event receiver
    await page.evaluate("p => window.Telegram.WebView.receiveEvent('theme_changed', {theme_params: p})", LIGHT)
    assert await page.evaluate(background) == "rgb(255, 255, 255)"
    assert await page.evaluate("getComputedStyle(document.body).color") == "rgb(34, 34, 34)"
    await page.click("header nav >> text=Items")  # and the next page keeps it
    await page.wait_for_selector("#items")
    # desk.js is deferred: it paints after the page is parsed, before DOMContentLoaded (#items may be
    # in the DOM first; the fresh-clone CI run read the background before the paint once)
    await page.wait_for_load_state("domcontentloaded")
    assert await page.evaluate(background) == "rgb(255, 255, 255)"
    # ... and back to dark through the older entry point
    await page.evaluate("p => window.TelegramGameProxy.receiveEvent('theme_changed', {theme_params: p})", DARK)
    assert await page.evaluate(background) == "rgb(30, 30, 46)"
    assert await page.evaluate("document.documentElement.dataset.scheme") == "dark"
    # a message from a frame that is not Telegram's changes nothing
    await page.evaluate("p => window.postMessage(JSON.stringify({eventType: 'theme_changed', "
                        "eventData: {theme_params: p}}), '*')", LIGHT)
    await page.wait_for_timeout(50)  # let the posted message be delivered (it must be ignored)
    assert await page.evaluate(background) == "rgb(30, 30, 46)"

    # /lang zh in the chat: the desk follows on the next page
    reply = await say(env, env.api.user(LEAD_A, "Lea"), "/lang zh")
    assert reply.text
    await page.reload()
    assert await page.inner_text("header nav a[aria-current=page]") == "题目"
    assert await page.inner_text("#lang-zh") == "中文"
    # switching at the desk is the same /lang: the chat answers in English again
    async with page.expect_navigation():
        await page.click("#lang-en")
    assert await page.inner_text("header nav a[aria-current=page]") == "Items"
    prefs = await find_prefs(env.db, LEAD_A)
    assert prefs is not None and prefs.language == "en"
    assert problems == []
    await context.close()


async def test_an_admin_sees_items_and_markup_in_a_first_name_stays_text(env, chromium):  # noqa: F811
    c = await crafted_teams(env)
    await pending_exam(env, c)
    qid = min(await question_ids(env.db, "demo", "single"))
    await raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ALPHA, reason="the key is B",
                        now=env.clock.now())
    await ensure_user(env.db, ANN, "<script>window.pwned=1</script><img src=x onerror=window.pwned=2>", None,
                      env.clock.now())  # Ann renamed herself in Telegram: a first name that is a script
    context = await chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = await context.new_page()
    await page.goto(mini_app_url(env, ADMIN, LIGHT))
    await page.wait_for_url("**/desk/team")
    await page.goto(f"{env.desk_base}/desk/team?team={ALPHA}&period=all")
    assert "<script>window.pwned=1</script>" in await page.inner_text("#board")  # shown as text
    await page.goto(f"{env.desk_base}/desk/review?team=all")
    assert "<script>" in await page.inner_text("#candidate")
    assert await page.evaluate("window.pwned === undefined")
    await page.goto(f"{env.desk_base}/desk/items?paper=demo")
    await page.wait_for_selector("#disputes")
    await shot(page, "items")
    await context.close()
