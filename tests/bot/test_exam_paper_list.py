"""/papers, /exam and /practice render from paper summaries (bank/paper_list.py) exactly what they
rendered from the papers loaded whole: the old renderers are kept here as they were, and both paths
render the bundled bank, hand-made papers (odd points, flagged, hiring, invite-only) and composed
papers, in both languages and every script."""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.models import Paper
from bank.paper_list import offered_papers, paper_summary
from bank.paper_store import list_papers
from bank.script import to_script
from bot.exam import callbacks as cb
from bot.exam import render
from bot.i18n import t, tn
from bot.text_limits import clip
from proctor.exams.sittings import Sittings
from proctor.storage.bootstrap import open_database
from tests.bank.test_paper_list import varied_bank
from tests.harness import BotEnv
from tests.postgres_fixtures import sqlite_only
from tests.round_trips import RoundTrips

# ---- the renderers and the filter as they were before the summaries (papers loaded whole) ----


def _old_offered(papers: list[Paper], practice: bool) -> list[Paper]:
    return [p for p in papers if any(q.askable for q in p.questions()) and not (practice and p.settings.exam_only)
            and not p.settings.invite_only]


def _old_paper_list(papers: list[Paper], lang: str, script: str = "orig") -> str:
    if not papers:
        return t("no_papers", lang)
    lines = [t("papers_header", lang), ""]
    for p in papers:  # each with its code (issue 22: one reference everywhere)
        n = sum(1 for q in p.questions() if q.askable)
        lines.append(t("paper_line", lang, code=p.code, title=to_script(p.title, script), questions=tn("n_question", n, lang),
                       max=render.points(p.max_score, lang),
                       minutes=p.settings.time_limit_min))
    return clip("\n".join(lines))


def _old_paper_chooser(papers: list[Paper], mode: str, lang: str, script: str = "orig") -> tuple[str, Keyboard]:
    rows = [[Button(clip(f"{p.code} · {to_script(p.title, script)}", 64), callback_data=cb.pick(p.id, mode, start=mode == "practice"))]
            for p in papers]
    rows.append([Button(t("random_button", lang), callback_data=cb.pick(None, mode, start=mode == "practice"))])
    return t("choose_exam" if mode == "exam" else "choose_practice", lang), Keyboard(rows)


def _old_rules_card(paper: Paper, used: int, lang: str, script: str = "orig") -> tuple[str, Keyboard | None]:
    n = sum(1 for q in paper.questions() if q.askable)
    allowed = paper.settings.attempts_allowed
    attempts = t("attempts_left", lang, used=used, allowed=allowed) if allowed is not None else ""
    text = t("rules_card", lang, title=to_script(paper.title, script), questions=tn("n_question", n, lang),
             max=render.points(paper.max_score, lang),
             minutes=paper.settings.time_limit_min, attempts=attempts, rules=t("exam_rules", lang))
    if allowed is not None and used >= allowed:
        return text + "\n\n" + t("rules_no_attempts", lang, allowed=allowed,
                                  unit="attempt" if allowed == 1 else "attempts"), None
    kb = Keyboard([[Button(t("start_button", lang), callback_data=cb.pick(paper.id, "exam", start=True))]])
    return text, kb


# ----


@pytest.fixture
async def bank(tmp_path):
    db = await open_database(tmp_path / "bank.db")
    await varied_bank(db)
    yield db
    await db.close()


@pytest.mark.parametrize("script", ["orig", "hans", "hant"])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_list_chooser_and_rules_cards_render_as_from_the_whole_papers(bank, lang, script):
    whole = await list_papers(bank, composed=True)
    for practice in (False, True):
        old, new = _old_offered(whole, practice), await offered_papers(bank, practice=practice)
        assert [p.id for p in new] == [p.id for p in old]
        mode = "practice" if practice else "exam"
        assert render.paper_chooser(new, mode, lang, script) == _old_paper_chooser(old, mode, lang, script)
        assert render.paper_list(new, lang, script) == _old_paper_list(old, lang, script)
    old, new = _old_offered(whole, False), await offered_papers(bank)
    assert len(new) == 9  # five bundled, odd points, hiring, both composed (not flagged nor invited)
    for o, n in zip(old, new, strict=True):
        for used in (0, 1, 2, 5):
            sat = Sittings(used, o.settings.attempts_allowed, False)  # a paper's own limit
            assert render.rules_card(n, sat, lang, script) == _old_rules_card(o, used, lang, script)
            # a pick (bot.exam.buttons) renders the summary `paper_summary` reads
            assert render.rules_card(await paper_summary(bank, o.id), sat, lang, script) == \
                _old_rules_card(o, used, lang, script)


# the most round trips to the database each listing command may take: its claim (the user's record
# read with it), the running-attempt check (/exam), the one summary query, marking it done; /exam
# <paper> also counts the candidate's attempts at it. Loading every bundled paper whole (3 reads a
# paper) took 18, 19 and 20. (/practice lists nothing: it starts a practice at once.)
LIST_LIMITS = {"/papers": 3, "/exam": 4, "/exam <paper>": 5}


@sqlite_only  # SQLite only: it counts hops to aiosqlite's thread (tests/round_trips.py)
async def test_listing_papers_costs_few_round_trips(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location)
    await env.start()  # an empty database: the five bundled papers are imported at start-up
    try:
        ann = env.api.user(3001, "Ann", language_code="en")
        await ann.send("/start")
        await ann.wait_message()
        await env.idle()
        trips = RoundTrips(env.app)
        for command, reply in [("/papers", "📚 Papers"), ("/exam", "for a timed exam"), ("/exam 2", "📝")]:
            await ann.send(command)
            await ann.wait_message(lambda m, reply=reply: reply in (m.text or ""))
            await env.idle()
        print("\n" + "\n".join(f"{s.kind:10} {s.hops} {s.calls}" for s in trips.steps))
        assert [s.kind for s in trips.steps] == ["/papers", "/exam", "/exam"]
        for step, (command, limit) in zip(trips.steps, LIST_LIMITS.items(), strict=True):
            assert step.hops <= limit, (command, step.hops, step.calls)
    finally:
        await env.close()
