"""Questions whose key is in doubt are held out until a lead confirms it; same-paper duplicates are asked once."""

from __future__ import annotations

import asyncio

import pytest

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from bank.paper_store import load_paper
from bank.question_checks import fill_missing, held_questions
from bot.cli import main
from proctor.daily.candidates import candidates
from proctor.exams import service as attempts
from proctor.people.users import ensure_user
from proctor.storage.bootstrap import open_database
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.curation import confirm_key
from tests.harness import BotEnv
from tests.papers_fixture import save_paper
from tests.proctor.test_upgrade import RELEASES, load_release

ADMIN, LEAD_A, ALPHA = 1, 10, -100
DOUBT = "梯度累积（A）、混合精度（B）和检查点（C）都可以节省显存。"  # speaks for C, the key says AB


def doubtful_paper(key: str = "AB", explanation: str = DOUBT) -> Paper:
    single = [Question(number=n, kind=Kind.single, stem=stem, options=["甲", "乙", "丙", "丁"], answer="A",
                       points=1) for n, stem in [(1, "哪个对（）"), (2, "哪个错（）"), (3, "哪个对（ ）。")]]
    return Paper(slug="held", title="Held paper", sections=[
        Section(kind=Kind.single, title="单项选择题", questions=single),
        Section(kind=Kind.multi, title="多项选择题", questions=[
            Question(number=1, kind=Kind.multi, stem="哪些能节省显存（）", options=["梯度累积", "混合精度", "检查点", "更大批次"],
                     answer=key, explanation=explanation, points=2),
            Question(number=2, kind=Kind.multi, stem="哪些是优化器（）", options=["Adam", "SGD", "ReLU", "Dropout"],
                     answer="AB", points=2)]),
    ])


async def _ids(db) -> dict[str, int]:
    paper = await load_paper(db, "held", include_retired=True)
    return {f"s{pos}q{q.number}": q.id for pos, s in enumerate(paper.sections, 1) for q in s.questions}


async def _asked(db, user_id: int, **kw) -> set[int]:
    a = await attempts.start_attempt(db, user_id=user_id, chat_id=user_id, now=0, shuffle=True, **kw)
    await attempts.finish_attempt(db, a.id, 1, "cancelled")
    return {i.question_id for i in (await attempts.load_sheet(db, a.id)).items}


async def test_held_questions_are_not_asked_until_a_lead_confirms_the_key(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    try:
        pid = await save_paper(db, doubtful_paper(), 0)
        await ensure_user(db, 7, "Ann", None, 0)
        q = await _ids(db)
        held = {h.question_id: h for h in await held_questions(db)}
        assert set(held) == {q["s1q3"], q["s2q1"]}
        assert held[q["s1q3"]].held == "duplicate" and held[q["s1q3"]].duplicate_of == q["s1q1"]
        assert "speaks for C" in held[q["s2q1"]].key_doubt
        every = set(q.values())
        for kw in ({"paper_id": pid, "mode": "exam"}, {"paper_id": pid, "mode": "practice"},
                   {"paper_id": None, "mode": "exam", "blueprint": {Kind.single: 5, Kind.multi: 5}}):
            assert await _asked(db, 7, **kw) == every - set(held), kw
        assert {c.id for c in await candidates(db)} == every - set(held)

        # a lead confirms: asked again everywhere, and audited
        assert await confirm_key(db, q["s2q1"], actor=ADMIN, now=5) is True
        assert await confirm_key(db, q["s2q1"], actor=ADMIN, now=6) is False  # once
        assert await confirm_key(db, q["s1q3"], actor=ADMIN, now=6) is False  # a duplicate stays asked once
        entries = [(e.actor_id, e.action, e.target) for e in await audit.recent(db)]
        assert entries == [(ADMIN, "confirm_key", f"question {q['s2q1']}")]
        assert await _asked(db, 7, paper_id=pid, mode="exam") == every - {q["s1q3"]}
        assert q["s2q1"] in {c.id for c in await candidates(db)}

        # a re-import of the same text keeps the confirmation; another doubtful key is held again
        await save_paper(db, doubtful_paper(), 10)
        assert [h.question_id for h in await held_questions(db)] == [q["s1q3"]]
        await save_paper(db, doubtful_paper(key="AD"), 20)
        assert [h.question_id for h in await held_questions(db)] == [q["s1q3"], q["s2q1"]]
        # fixing the key (it now agrees with its explanation) releases it
        await save_paper(db, doubtful_paper(key="ABC"), 30)
        assert [h.question_id for h in await held_questions(db)] == [q["s1q3"]]
        # retiring the first of two same stems lets the repeat be asked instead
        from proctor.teams.curation import set_retired
        await set_retired(db, q["s1q1"], True, lead=ADMIN, chat_id=None, now=40)
        assert await held_questions(db) == []
        await set_retired(db, q["s1q1"], False, lead=ADMIN, chat_id=None, now=50)
        assert [h.question_id for h in await held_questions(db)] == [q["s1q3"]]
    finally:
        await db.close()


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_lint_lists_quarantined_questions_and_the_cli_confirms(capsys, tmp_path, monkeypatch, seed_files):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    dbfile = str(tmp_path / "cli.db")
    assert _run(capsys, "--db", dbfile, "import", *map(str, seed_files))[0] == 0
    code, out, _ = _run(capsys, "--db", dbfile, "bank", "lint")
    assert code == 0
    lines = [line for line in out.splitlines() if ": quarantined: " in line]
    # each named by its reference, its paper and section beside it
    assert any(line.startswith("P3 · Q17 (") and ": quarantined: held out" in line
               and "proctor bank confirm P3 · Q17" in line for line in lines)
    assert any(line.startswith("P3 · Q11 (") and ": quarantined: repeats an earlier question" in line for line in lines)
    assert any(line.startswith("P5 · Q14 (") and ": quarantined: repeats" in line for line in lines)
    assert "pinned_options" in out and "letter_refs" in out
    assert _run(capsys, "--db", dbfile, "bank", "confirm", "P3", "·", "Q17") == (0, "P3 · Q17: key confirmed, asked again\n", "")
    code, _, err = _run(capsys, "--db", dbfile, "bank", "confirm", "P3", "Q17")
    assert code == 1 and "not held for its key" in err
    assert not [line for line in _run(capsys, "--db", dbfile, "bank", "lint")[1].splitlines()
                if line.startswith("P3 · Q17 (") and ": quarantined: " in line]

    async def logged() -> tuple[list[tuple[str, str]], int]:
        db = await Database.open(dbfile)
        try:
            qid = await db.scalar("SELECT q.id FROM questions q JOIN papers p ON p.id = q.paper_id "
                                  "WHERE p.code='P3' AND q.seq=17")
            return [(e.action, e.target) for e in await audit.recent(db)], qid
        finally:
            await db.close()

    entries, qid = asyncio.run(logged())
    assert entries == [("confirm_key", f"question {qid}")]  # the record keeps the bank id


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(doubtful_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


async def test_bankstats_lists_held_questions_and_an_admin_confirms_with_one_tap(env):
    q = await _ids(env.db)
    lead = env.api.user(LEAD_A, "Lea", language_code="en")
    await lead.send("/bankstats", chat=ALPHA)
    seen = await lead.wait_message(lambda m: "Held paper" in (m.text or ""))  # privately: a doubt names a key
    # people see the paper's title, the section's name and the question's number (issue 22), not "held s2 q1"
    # each question named by its reference (the paper's full order: s1's three, then s2's first is Q4)
    assert "P1 · Q4 (Held paper · 多项选择题): key in doubt (key AB, but the explanation speaks for C, in the bank's letters)" \
        in seen.text
    assert "P1 · Q3 (Held paper · 单项选择题): same stem as P1 · Q1" in seen.text
    assert not any(t.startswith("Key of") for t in seen.button_texts)  # the bank is shared: admins only
    admin = env.api.user(ADMIN, "Boss", language_code="en")
    await admin.send("/bankstats")
    own = await admin.wait_message()
    button = "Key of P1 · Q4 is right"
    assert button in own.button_texts
    # a team lead cannot use the admin's button
    refused = await (await lead.press(own, button)).wait()
    assert "lead" in refused.lower()
    assert {h.question_id: h.held for h in await held_questions(env.db)}.get(q["s2q1"]) == "key"
    assert (await (await admin.press(own, button)).wait()) == "Key of P1 · Q4 confirmed: it is asked again."
    await env.idle()
    assert q["s2q1"] not in {h.question_id for h in await held_questions(env.db)}
    [entry] = await audit.recent(env.db, limit=1)
    assert (entry.actor_id, entry.action) == (ADMIN, "confirm_key")


async def test_an_upgraded_bank_gets_its_checks_at_start_up(tmp_path):
    dump, _ = RELEASES["0.1.0"]
    path = tmp_path / "proctor.db"
    load_release(dump, path)
    db = await open_database(path)  # the bot's and the CLI's start-up path
    try:
        # the schema itself: a checks row for every question the old release stored
        missing = await db.scalar("SELECT COUNT(*) FROM questions q LEFT JOIN question_checks c "
                                  "ON c.question_id = q.id WHERE c.question_id IS NULL")
        assert missing == 0 and await db.scalar("SELECT COUNT(*) FROM question_checks") > 0
        # the start-up step runs once: a second open finds nothing to do
        assert await fill_missing(db) == 0
    finally:
        await db.close()



async def test_chinese_bankstats_says_a_key_in_doubt_in_chinese(env):
    """Issue 22: 答案存疑（key ABCD, but the explanation speaks for E） had English inside."""
    lead = env.api.user(LEAD_A, "Lea", language_code="zh")
    await lead.send("/bankstats", chat=ALPHA)
    seen = await lead.wait_message(lambda m: "Held paper" in (m.text or ""))  # privately
    assert "P1 · 第4题（Held paper · 多项选择题）：答案存疑（答案为 AB，但解析支持 C，按题库中的选项字母）" in seen.text
    assert "explanation" not in seen.text and " s2 q1" not in seen.text
