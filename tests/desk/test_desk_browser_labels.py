"""The desk in a real browser (headless Chromium, Playwright on the system browser): the team page's
"Accuracy by paper" names every paper by its code and title, whole or cut at its end with "…", inside
the chart on a 390-px phone and a 1280-px desktop; its paper links name papers by their codes."""

import pytest

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from tests.bot.test_leads_flow import ALPHA, ANN, BOB, LEAD_A, crafted_teams
from tests.desk.test_desk_browser import ADMIN, chromium, mini_app_url  # noqa: F401 (the browser fixture)
from tests.desk.test_desk_browser_flows import LIGHT
from tests.desk_helpers import DeskEnv
from tests.harness import T0
from tests.papers_fixture import small_paper
from tests.reads import question_ids

LONG = "大模型分布式训练中的梯度累积、混合精度与数值稳定性综合能力测评试卷（第一套，含参考答案与详细解析）"
MID = "Mixed precision and numerical stability in practice"

# each label of the papers chart: its text, the whole name (its bar's tooltip), and how far it stays
# inside the chart on the left and on the right (negative: it spills out and is cut off)
LABELS = """() => {
  const svg = document.querySelector('#papers-chart svg');
  const box = svg.getBoundingClientRect();
  const named = [...svg.querySelectorAll('text')].filter(t => t.nextElementSibling?.matches('rect.bar'));
  return named.map(t => {
    const r = t.getBoundingClientRect();
    const whole = t.nextElementSibling.querySelector('title').textContent;
    return {text: t.textContent, whole: whole.slice(0, whole.lastIndexOf(': ')),
            left: r.left - box.left, right: box.right - r.right};
  });
}"""


def _paper(slug: str, title: str) -> Paper:
    return Paper(slug=slug, title=title, sections=[Section(kind=Kind.single, title="单项选择题", questions=[
        Question(number=1, kind=Kind.single, stem=f"{slug}?", options=["a", "b"], answer="A", points=1)])])


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, desk_url="http://127.0.0.1:8080", admins=(ADMIN,))
    await e.seed(small_paper(), _paper("long", LONG), _paper("mid", MID))
    await e.start()
    for uid, name in ((ADMIN, "Boss"), (LEAD_A, "Lea"), (ANN, "Ann"), (BOB, "Bob")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


@pytest.mark.parametrize("width", [390, 1280])
async def test_accuracy_by_paper_names_each_paper_whole_or_cut_at_its_end(env, chromium, width):  # noqa: F811
    c = await crafted_teams(env)  # Alpha's quiz asked the demo paper
    asked = [(await question_ids(env.db, slug))[0] for slug in ("long", "mid")]
    await c.daily(ALPHA, "2027-01-14", asked, [(ANN, 0, 1, T0 - 90_000), (BOB, 1, 0, T0 - 90_000)])
    context = await chromium.new_context(viewport={"width": width, "height": 900})
    page = await context.new_page()
    await page.goto(mini_app_url(env, LEAD_A, LIGHT))
    await page.wait_for_url("**/desk/team")
    await page.goto(f"{env.desk_base}/desk/team?team={ALPHA}&period=all")
    labels = await page.evaluate(LABELS)
    assert [x["whole"] for x in labels] == ["P1 · Demo paper demo", f"P2 · {LONG}", f"P3 · {MID}"]
    for x in labels:
        assert x["left"] >= -0.5 and x["right"] >= -0.5, x  # inside the chart
        assert x["text"] == x["whole"] or (x["text"].endswith("…") and x["whole"].startswith(x["text"][:-1])), x
    assert [x["text"] == x["whole"] for x in labels] == [True, False, True]  # the long title is cut at its end
    # the paper links name the papers by code, and open them by code
    links = page.locator("nav.tabs a.paper")
    assert await links.all_inner_texts() == ["Paper: P1 Demo paper demo", f"Paper: P2 {LONG}", f"Paper: P3 {MID}"]
    assert await links.first.get_attribute("href") == f"?team={ALPHA}&paper=P1"
    await context.close()
