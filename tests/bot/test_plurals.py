"""Issue 22 (rough edges): counted texts read right at 0, 1 and many, in English and Chinese, through one
helper (bot/i18n.py: `{n:one|other}` and `{n:zero|one|other}`). The command line's counts are read from a
record on SQLite and on PostgreSQL (`db_location`)."""

import asyncio
import re
from pathlib import Path

import pytest

from bank.kinds import Kind
from bank.models import Question
from bank.paper_list import find_paper
from bank.question_ref import QuestionRef
from bot.bank_cli import render_question
from bot.cli import main
from bot.i18n import CATALOGUE, t, tn
from proctor.invites import store
from proctor.storage.db import Database
from proctor.storage.location import parse_location
from proctor.teams.curation import update_settings
from tests.stored import stored
from tests.template_pg import with_bundled_bank

T0 = 1_800_000_000.0


@pytest.mark.parametrize(("answers", "changed", "en", "zh"), [
    (0, 0, "No past answer to regrade, no score changed.", "没有需要重新评分的作答，没有分数变化。"),
    (1, 1, "1 answer regraded, 1 score changed; that candidate is told.", "已重新评分 1 份作答，1 个分数有变化；已通知该考生。"),
    (3, 0, "3 answers regraded, no score changed.", "已重新评分 3 份作答，没有分数变化。"),
    (3, 2, "3 answers regraded, 2 scores changed; those candidates are told.",
     "已重新评分 3 份作答，2 个分数有变化；已通知相关考生。"),
])
def test_a_regrade_says_who_is_told_only_when_someone_is(answers, changed, en, zh):
    """Was "0 answers regraded, 0 scores changed; those candidates are told"."""
    assert t("eq_regraded", "en", answers=answers, changed=changed) == en
    assert t("eq_regraded", "zh", answers=answers, changed=changed) == zh
    fixed = t("l_kf_done", "en", question=QuestionRef("P1", 7), version=2, answers=answers, changed=changed)
    assert ("told" in fixed) == bool(changed), fixed


def test_one_point_is_one_point():
    """Was "1 points" (`proctor bank show`)."""
    q = stored(Question(id=3, number=1, kind=Kind.fill, stem="1+1=____", answer=[["2"]], points=1), 3)
    assert " · 1 point" in render_question(q) and "1 points" not in render_question(q)
    assert tn("n_point", 1.5, "en") == "1.5 points" and tn("n_point", 1, "zh") == "1 分"
    assert t("n_pt", "en", n=0) == "0 pts" and t("n_pt", "en", n="1") == "1 pt"


COUNTED = re.compile(r"\{(\w+)\} (?:answers?|questions?|points?|pts|scores?|candidates?|minutes?|members?|rows?|"
                     r"warnings?|papers?|attempts?)\b")


def test_every_counted_english_text_uses_the_plural_helper():
    """The sweep: a count before a noun in English has its forms (`{n} {n:answer|answers}`)."""
    bare = [(key, m.group(0)) for key, texts in CATALOGUE.items() for m in COUNTED.finditer(texts["en"])
            if "{" + m.group(1) + ":" not in texts["en"]]
    assert bare == []


CLI_SOURCES = ["bot/cli.py", "bot/bank_cli.py", "bot/backup_cli.py", "bot/authoring_cli.py", "bot/invite_cli.py",
               "bot/team_cli.py", "sandbox/session.py"]
OWN_PLURAL = re.compile(r"""\(s\)|['"]s['"] if|if \w+ == 1 else ['"]s['"]|if \w+ != 1 else ['"]""")


def test_the_command_line_has_no_plural_of_its_own():
    """The sweep: "1 verification(s) undone", "1 questions", "{ran} due job{'s' if ...}" were the CLI's own."""
    root = Path(__file__).resolve().parents[2]
    own = [(name, m.group(0)) for name in CLI_SOURCES
           for m in OWN_PLURAL.finditer((root / name).read_text(encoding="utf-8"))]
    assert own == []


def test_the_command_line_counts_one_and_many(db_location, capsys, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    db = ["--db", db_location]
    asyncio.run(with_bundled_bank(parse_location(db_location), T0))
    assert main([*db, "bank", "add", "--kind", "truefalse", "--stem", "One?", "--key", "T", "--new-paper", "Solo"]) == 0
    capsys.readouterr()
    assert main([*db, "bank", "list"]) == 0
    listed = capsys.readouterr().out
    assert "Solo · 1 question · " in listed and "· 40 questions · " in listed

    async def invites() -> None:
        database = await Database.open(db_location)
        try:
            await update_settings(database, "Solo", actor=0, now=T0, invite_only=True)
            await store.create(database, paper_id=(await find_paper(database, "Solo")).id, team=-100, lead=10,
                               now=T0, window=3600, count=2, admin=True)
        finally:
            await database.close()

    asyncio.run(invites())
    assert main([*db, "team", "list"]) == 0
    assert " holds 2 invites to P6 Solo " in capsys.readouterr().out
    assert main([*db, "team", "verify", "-100", "--papers", "P6"]) == 0
    assert main([*db, "team", "unverify", "-100", "--papers", "P6"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "team -100: 1 verification undone"
    assert tn("n_due_job", 1, "en") == "1 due job" and tn("n_item", 0, "en") == "0 items"
