"""Composing a paper: /newpaper through the fake Bot API (Back, Cancel, a preview, Create), the paper
taken end to end by two candidates who get the same questions, a per-candidate paper drawing anew,
quarantined and retired questions never drawn, a shortfall refused by name; the CLI's twin."""

import asyncio

import pytest

from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_store import list_papers, load_paper
from bot.cli import main
from proctor.exams import blueprint as bp
from proctor.exams import compose
from proctor.exams import service as attempts
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.authoring import get_session
from proctor.teams.curation import set_retired
from tests.harness import T0, BotEnv, at_place, attempt_message, pick_paper, rules_card
from tests.papers_fixture import save_paper
from tests.reads import attempts_of
from tests.stored import shown_ref

LEAD, ANN, BOB = 10, 30, 40


def bank_paper(slug: str = "pool", n: int = 8, *, exam_only: bool = False) -> Paper:
    singles = [Question(number=i, kind=Kind.single, stem=f"{slug} single {i}?", options=["a", "b", "c"], answer="A",
                        points=1, topic="alpha" if i % 2 else "beta") for i in range(1, n + 1)]
    tfs = [Question(number=i, kind=Kind.truefalse, stem=f"{slug} statement {i}.", answer=True, points=1)
           for i in range(1, n + 1)]
    return Paper(slug=slug, title=f"Pool {slug}", settings=PaperSettings(exam_only=exam_only), sections=[
        Section(kind=Kind.single, title="单项选择题", questions=singles),
        Section(kind=Kind.truefalse, title="判断题", questions=tfs)])


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(bank_paper(), bank_paper("hire", 4, exam_only=True))
    await e.start()
    yield e
    await e.close()


async def _wait_edit(env, message, text: str):
    return await env.api.wait_for(lambda: message if text in (message.text or "") else None, what=text)


async def take(env, user, title: str) -> list[int]:
    """/exam → the paper → Start, then True / A for every question and finish; returns the questions."""
    await user.send("/exam")
    await pick_paper(user, title)
    rules = await env.api.wait_for(lambda: rules_card(user.chat()), what="rules card")
    await user.press(rules, "▶️ Start")
    await env.api.wait_for(lambda: attempt_message(user.chat()), what="attempt message")
    running = await attempts.running_attempt(env.db, user.id)
    sheet = await attempts.load_sheet(env.db, running.id, positions="all")
    for n, item in enumerate(sheet.items, start=1):
        await env.api.wait_for(lambda n=n: at_place(attempt_message(user.chat()).text, n, len(sheet.items)),
                               what=f"question {n}")
        # a composed paper's question is named by its home paper's reference, beside the sitting's place
        home = await shown_ref(env.db, item.question_id)
        assert attempt_message(user.chat()).text.startswith(f"{home} · {n} of {len(sheet.items)} · ")
        kind = sheet.question(item).kind
        await user.press(attempt_message(user.chat()), "A" if kind == Kind.single else "✔ True")
    confirm = await env.api.wait_for(
        lambda: next((m for m in user.chat() if "Yes, finish" in m.button_texts and not m.deleted), None),
        what="the finish question")
    await user.press(confirm, "Yes, finish")
    await user.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()
    return [i.question_id for i in sheet.items]


async def test_newpaper_builds_a_frozen_paper_two_candidates_take_the_same(env):
    lead, ann, bob = env.api.user(LEAD, "Lea"), env.api.user(ANN, "Ann"), env.api.user(BOB, "Bob")
    await ann.send("/newpaper")
    assert "admin" in (await ann.wait_message()).text
    await lead.send("/newpaper")
    ask = await lead.wait_message(lambda m: "Send its title" in (m.text or ""))
    assert ask.button_texts == ["✖ Cancel"]
    await lead.send("Week 3 check")
    minutes = await lead.wait_message(lambda m: "time limit" in (m.text or ""))
    await lead.press(minutes, "◀ Back")  # back to the title
    await _wait_edit(env, minutes, "Send its title")
    await lead.send("Week 3 check")
    minutes = await lead.wait_message(lambda m: "time limit" in (m.text or ""))
    await lead.press(minutes, "30 min")
    parts = await _wait_edit(env, minutes, "Send the blueprint")
    assert "single 8" in parts.text and "truefalse 8" in parts.text  # the practice pool, not the hiring paper
    await lead.send("single 3 2\nbogus line")
    assert "expected kind count" in (await lead.wait_message()).text
    await lead.send("single 20")
    short = await lead.wait_message(lambda m: "Not enough" in (m.text or ""))
    assert "Single choice 20 wanted, 8 available" in short.text
    await lead.send("single 3 2 topic:alpha\ntruefalse 2")
    preview = await lead.wait_message(lambda m: "Preview" in (m.text or ""))
    assert "5 questions (Single choice 3, True / false 2), 8 points, 30 minutes" in preview.text
    assert "drawn once, the same for every candidate" in preview.text and "Exam and practice" in preview.text
    await lead.press(preview, "Exam only: off")
    await _wait_edit(env, preview, "Exam only (no practice)")
    assert [p for p in await list_papers(env.db, composed=True) if p.blueprint is not None] == []  # nothing yet
    await lead.press(preview, "✅ Create")
    await _wait_edit(env, preview, "is ready")
    paper = next(p for p in await list_papers(env.db, composed=True) if p.title == "Week 3 check")
    assert paper.settings.time_limit_min == 30 and paper.settings.exam_only and not paper.per_candidate
    assert [q.topic for q in paper.questions() if q.kind == Kind.single] == ["alpha"] * 3
    assert paper.max_score == 8
    assert len(await audit.recent(env.db, action="paper_compose", actor=LEAD)) == 1

    ann_questions = await take(env, ann, "Week 3 check")
    bob_questions = await take(env, bob, "Week 3 check")
    assert sorted(ann_questions) == sorted(bob_questions) == sorted(q.id for q in paper.questions())
    scores = sorted((a.user_id, a.score, a.max_score) for a in await attempts_of(env.db)
                    if a.paper_id == paper.id)
    assert scores == [(ANN, 8, 8), (BOB, 8, 8)]


async def test_newpaper_cancel_writes_nothing(env):
    lead = env.api.user(LEAD, "Lea")
    await lead.send("/newpaper")
    ask = await lead.wait_message(lambda m: "Send its title" in (m.text or ""))
    await lead.press(ask, "✖ Cancel")
    await _wait_edit(env, ask, "Cancelled")
    await lead.send("Not a title any more")  # the builder is closed: the text is no title
    assert "Cancelled" not in (await lead.wait_message()).text
    assert await get_session(env.db, LEAD) is None


async def test_per_candidate_paper_draws_anew_and_never_quarantined_or_retired(env):
    by_stem = {q.stem: q.id for p in await list_papers(env.db) for q in p.questions()}
    await set_retired(env.db, by_stem["pool single 1?"], True, lead=LEAD, chat_id=None, now=T0)

    def transaction(conn):  # no writer holds a key by hand: import holds one whose key is in doubt
        conn.execute("UPDATE question_checks SET held='key' WHERE question_id=?", (by_stem["pool single 2?"],))

    await env.db.run_write(transaction)
    with pytest.raises(bp.Shortfall, match="single: 7 wanted, 6 available"):
        await compose.preview(env.db, compose.Draft("Drill", 20, bp.parse_lines("single 7", {})))
    draft = compose.Draft("Drill", 20, bp.parse_lines("single 3", {}), per_candidate=True)
    made = await compose.compose_paper(env.db, draft, actor=LEAD, now=T0)
    draws = []
    for user in range(100, 106):
        await ensure_user(env.db, user, "x", None, 0)
        a = await attempts.start_attempt(env.db, user_id=user, chat_id=user, paper_id=made.paper_id, mode="exam",
                                         now=T0, shuffle=False)
        sheet = await attempts.load_sheet(env.db, a.id, positions="all")
        stems = {sheet.question(i).stem for i in sheet.items}
        assert len(stems) == 3 and not stems & {"pool single 1?", "pool single 2?"}
        draws.append(frozenset(stems))
    # 3 of 6 askable: 20 possible draws; six candidates all drawing one is a chance of 1 in 3.2 million
    assert len(set(draws)) > 1


async def test_a_practice_paper_never_draws_from_an_exam_only_one(env):
    hire = await load_paper(env.db, "hire")
    ids = {"hire": hire.id}
    with pytest.raises(bp.Shortfall, match="truefalse: 2 wanted, 0 available"):
        await compose.preview(env.db, compose.Draft("Hire mix", 20, bp.parse_lines("truefalse 2 paper:hire", ids)))
    p = await compose.preview(env.db, compose.Draft("Hire mix", 20, bp.parse_lines("truefalse 2 paper:hire", ids),
                                                    exam_only=True))
    assert p.questions == 2
    with pytest.raises(bp.BadBlueprint, match="no paper 'nope'"):
        bp.parse_lines("single 2 paper:nope", ids)
    with pytest.raises(compose.BadPaper, match="already called"):
        await compose.compose_paper(env.db, compose.Draft("Pool pool", 20, bp.parse_lines("single 1", {})),
                                    actor=LEAD, now=T0)
    # composed papers stay out of exports, lint and statistics
    assert "Pool pool" in [p.title for p in await list_papers(env.db)]
    await compose.compose_paper(env.db, compose.Draft("Mixed", 20, bp.parse_lines("single 1", {})), actor=LEAD, now=T0)
    assert "Mixed" not in [p.title for p in await list_papers(env.db)]
    assert "Mixed" in [p.title for p in await list_papers(env.db, composed=True)]


async def test_newpaper_checks_title_and_minutes_as_compose_does(env):
    lead = env.api.user(LEAD, "Lea")
    await lead.send("/newpaper")
    await lead.wait_message(lambda m: "Send its title" in (m.text or ""))
    await lead.send("x" * (compose.MAX_TITLE + 1))
    assert "a title of 1 to 80 characters" in (await lead.wait_message(lambda m: "fit" in (m.text or ""))).text
    await lead.send("Week 4 check")
    await lead.wait_message(lambda m: "time limit" in (m.text or ""))
    for bad in ("²", "0", "601"):  # "²" is a digit to str.isdigit, yet no number to int()
        await lead.send(bad)
        assert "a time limit of 1 to 600 minutes" in (await lead.wait_message(lambda m: "fit" in (m.text or ""))).text
    await lead.send("45")
    await lead.wait_message(lambda m: "Send the blueprint" in (m.text or ""))
    assert (await get_session(env.db, LEAD)).minutes == 45


async def test_a_composed_paper_takes_a_slug_no_paper_has(env):
    await save_paper(env.db, bank_paper("composed-4", 2), T0)  # paper 3, from a file named composed-4
    made = await compose.compose_paper(env.db, compose.Draft("Fresh", 20, bp.parse_lines("single 1", {})),
                                       actor=LEAD, now=T0)
    assert made.slug == "composed-4-2"
    assert (await load_paper(env.db, made.paper_id)).title == "Fresh"


# ---- the CLI ----------------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def dbfile(tmp_path, monkeypatch):
    """A database as `proctor run` makes it before its first update (the CLI's commands other than import
    refuse a missing file; without papers, they take the bundled bank first)."""
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    path = tmp_path / "cli.db"

    async def make() -> None:
        await (await Database.open(path)).close()

    asyncio.run(make())
    return str(path)


def test_cli_compose_from_options_and_from_a_toml_file(capsys, dbfile, tmp_path):
    code, out, err = run(capsys, "--db", dbfile, "paper", "compose", "--title", "Quick", "--minutes", "20",
                         "--part", "single 3 2", "--part", "truefalse 2 1", "--dry-run")
    assert code == 0 and "would compose Quick: 5 questions (single 3, truefalse 2), 8 points, 20 min" in out
    code, out, _ = run(capsys, "--db", dbfile, "paper", "compose", "--title", "Quick", "--minutes", "20",
                       "--part", "single 3 2", "--part", "truefalse 2 1")
    assert code == 0 and out.startswith("composed composed-") and "the same for everyone" in out
    toml = tmp_path / "drill.toml"
    toml.write_text('title = "Drill"\nminutes = 15\nper_candidate = true\nexam_only = true\n\n'
                    '[[part]]\nkind = "multi"\ncount = 2\npoints = 3\n', encoding="utf-8")
    code, out, _ = run(capsys, "--db", dbfile, "paper", "compose", "--file", str(toml))
    assert code == 0 and "Drill: 2 questions (multi 2), 6 points, 15 min, drawn per candidate, exam only" in out
    code, _, err = run(capsys, "--db", dbfile, "paper", "compose", "--title", "Huge", "--part", "single 400")
    assert code == 1 and "not enough questions: single: 400 wanted" in err
    code, _, err = run(capsys, "--db", dbfile, "paper", "compose", "--title", "Bad", "--part", "sing 4")
    assert code == 1 and "expected kind count" in err
    code, out, _ = run(capsys, "--db", dbfile, "bank", "stats")
    assert "Quick" not in out and "Drill" not in out


def test_cli_edit_a_key_with_regrade_and_a_stem(capsys, dbfile):
    run(capsys, "--db", dbfile, "bank", "stats")  # the bundled bank
    qid = 11  # the first single-choice question of the first bundled paper
    code, out, _ = run(capsys, "--db", dbfile, "bank", "show", str(qid))
    assert "single" in out
    code, out, err = run(capsys, "--db", dbfile, "bank", "edit", str(qid), "--key", "Z")
    assert code == 1 and "doesn't fit" not in err and "letters among" in err
    code, out, _ = run(capsys, "--db", dbfile, "bank", "edit", str(qid), "--key", "A", "--regrade")
    assert code == 0 and "P1 · Q11: version 2 (key); No past answer to regrade, no score changed." in out
    code, out, _ = run(capsys, "--db", dbfile, "bank", "edit", str(qid), "--option", "b", "A better option")
    assert code == 0 and "version 3 (option:1)" in out
    code, out, _ = run(capsys, "--db", dbfile, "bank", "show", str(qid))
    assert "B. A better option" in out and "Answer: A" in out
    code, _, err = run(capsys, "--db", dbfile, "bank", "edit", str(qid), "--stem", "x", "--regrade")
    assert code == 1 and "--regrade goes with --key" in err
    code, _, err = run(capsys, "--db", dbfile, "bank", "edit", "99999", "--stem", "x")
    assert code == 1 and "no question 99999" in err
