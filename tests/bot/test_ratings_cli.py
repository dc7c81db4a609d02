"""`proctor ratings recompute|replay`: the record's ratings rebuilt, and a response log replayed with the
same rule; the record's own events, replayed from a log, give the ratings the bot holds."""

from __future__ import annotations

import asyncio
import csv

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from bot.cli import main
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from tests.answering import answer
from tests.papers_fixture import save_paper
from tests.reads import rating_events

T0 = 1_800_000_000.0


def _typed_paper() -> Paper:
    """Fill-ins alike (no label, the same points, no guessing): what a log's items are to the rule."""
    questions = [Question(number=i + 1, kind=Kind.fill, stem=f"{i} + {i} = ______", answer=[[str(2 * i)]], points=1)
                 for i in range(6)]
    return Paper(slug="sums", title="Sums", sections=[Section(kind=Kind.fill, title="填空题", questions=questions)])


def _record(path) -> list[tuple[int, int, float, float]]:
    """Four people answer the paper, some wrong, one of them twice; the record's events as a log's rows."""

    async def run() -> list[tuple[int, int, float, float]]:
        db = await Database.open(path)
        try:
            paper = await save_paper(db, _typed_paper(), T0)
            for user, wrong in ((1, {0}), (2, {1, 2, 3}), (3, set()), (4, {0, 1, 2, 3, 4, 5}), (1, {5})):
                await ensure_user(db, user, f"u{user}", None, T0)
                a = await attempts.start_attempt(db, user_id=user, chat_id=user, paper_id=paper,
                                                 mode=AttemptMode.exam, now=T0 + 1000 * user, shuffle=False)
                for pos in range(6):
                    await answer(db, a.id, pos, "x" if pos in wrong else str(2 * pos), T0 + 1000 * user + pos)
                await attempts.finish_attempt(db, a.id, T0 + 1000 * user + 100, FinishReason.submitted)
            return [(e.user_id, e.question_id, e.correct, e.at) for e in await rating_events(db)]
        finally:
            await db.close()

    return asyncio.run(run())


def _rows(path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_replaying_the_records_events_from_a_log_gives_the_ratings_the_bot_holds(tmp_path, monkeypatch, capsys,
                                                                                  db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    db = db_location
    events = _record(db)
    assert len(events) == 24  # the fifth sitting repeats the first person's: nothing of it counts
    log = tmp_path / "log.csv"
    with open(log, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["user", "item", "correct", "at", "note"])
        w.writerows((*e, "x") for e in events)  # by sequence number; one hand-in's answers share a time
    held, held_items = tmp_path / "held.csv", tmp_path / "held_items.csv"
    assert main(["--db", str(db), "ratings", "recompute", "--out", str(held), "--items", str(held_items)]) == 0
    assert "24 counted answers (0 added, 0 regraded); people rated: 4, questions measured: 6" in capsys.readouterr().out
    out, items = tmp_path / "replayed.csv", tmp_path / "items.csv"
    assert main(["ratings", "replay", str(log), "--out", str(out), "--items", str(items)]) == 0
    assert "replayed 24 answers (24 first answers); people rated: 4, items measured: 6" in capsys.readouterr().out
    replayed = _rows(out)
    assert list(replayed[0]) == ["user", "rating", "uncertainty", "answers", "provisional"]
    assert [(r["user"], r["rating"], r["answers"]) for r in replayed] == [
        (r["user"], r["rating"], r["answers"]) for r in _rows(held)]
    assert [r["user"] for r in replayed] == ["3", "1", "2", "4"]  # best first
    assert _rows(items) == _rows(held_items)


def test_a_log_is_replayed_in_time_order_and_a_bad_one_is_one_line(tmp_path, capsys):
    log = tmp_path / "log.csv"
    log.write_text("at,user,item,correct\n20,ann,q1,0\n10,bob,q1,1\n30,ann,q1,1\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    assert main(["ratings", "replay", str(log), "--out", str(out)]) == 0
    rows = _rows(out)
    assert [(r["user"], r["answers"]) for r in rows] == [("bob", "1"), ("ann", "1")]  # ann's repeat never counts
    log.write_text("user,item,correct,at\nann,q1,2,10\n", encoding="utf-8")
    assert main(["ratings", "replay", str(log), "--out", str(out)]) == 1
    assert capsys.readouterr().err.strip().endswith("line 2: correct must be between 0 and 1, at a Unix time")
    assert main(["ratings", "replay", str(tmp_path / "none.csv"), "--out", str(out)]) == 1
    assert "cannot read it" in capsys.readouterr().err
