"""Every surface that counts a paper's questions says what bank/paper_counts.py counts, paper by paper:
`proctor import` (after the write, and its dry run), `bank stats`, `bank list`, every export's summary,
/papers, /bankstats, an upload's preview and its import reply, and the desk's Items page (its counts and
each question's status: a question never asked says so, not "in use"). Before: the import said P3 had 49
askable questions, `bank stats` and /papers 42, an upload 49, the desk "in use" for a question nobody
was ever asked. On SQLite and on PostgreSQL (`db_location`)."""

from __future__ import annotations

import asyncio
import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from bank.formats import EXPORT_FORMATS, FileFormat
from bank.formats.files import export
from bank.paper_counts import Standing, Tally
from bank.paper_list import paper_summaries
from bank.paper_store import list_papers
from bot.cli import main
from bot.paper_counts import flags_text, tally_text
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from proctor.teams.curation import set_retired
from proctor.teams.paper_counts import paper_tallies
from tests.desk_helpers import DeskClient, DeskEnv, table_rows

ADMIN, ANN = 1, 30
SEEDS = Path(__file__).parents[2] / "bank" / "seeds"


async def _counted(db: Database) -> dict[str, tuple[str, Tally]]:
    """code -> (title, tally) of every paper, as the bank counts it."""
    tallies = await paper_tallies(db)
    return {p.code: (p.title, tallies[p.id]) for p in await paper_summaries(db, composed=True)}


def _run(capsys, *argv) -> tuple[str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def _stored(location: str) -> dict[str, tuple[str, Tally]]:
    async def read():
        db = await Database.open(location)
        try:
            return await _counted(db)
        finally:
            await db.close()
    return asyncio.run(read())


def test_the_command_line_counts_each_paper_as_the_bank_does(capsys, tmp_path, monkeypatch, db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    seeds = sorted(SEEDS.glob("*.txt"))
    db = db_location
    preview, _ = _run(capsys, "--db", db, "import", "--dry-run", *seeds)  # nothing written
    imported, _ = _run(capsys, "--db", db, "import", *seeds)
    counted = _stored(db)
    assert len(counted) == 5 and counted["P3"][1].askable == 42 and counted["P3"][1].held == 7
    stats, _ = _run(capsys, "--db", db, "bank", "stats")
    listed, _ = _run(capsys, "--db", db, "bank", "list")
    for code, (title, c) in counted.items():
        line = tally_text(c, "en")
        assert f"imported {code} {title} ({line})" in imported.splitlines()
        assert f"• {title}: {c.total} — " in preview and f"\n  {line}\n" in preview
        block = stats.split(f"{code} {title}\n")[1].split("\n\n")[0]
        assert block.splitlines()[-1] == f"  {line}"
        assert block.splitlines()[-2].split() == ["all", *map(str, (c.total, c.askable, c.held, c.unaskable, c.retired,
                                                                  c.repaired, c.no_explanation, c.not_yet_asked))]
        assert f"{code:<5} {title} · {c.askable} questions · " in listed
    total = sum((c for _, c in counted.values()), Tally(not_yet_asked=0))
    assert stats.endswith(f"5 papers, {tally_text(total, 'en')}\n")
    for fmt in EXPORT_FORMATS:  # each paper: written and left out, the questions it holds
        out, err = _run(capsys, "--db", db, "bank", "export", "--format", fmt.value, "-o", tmp_path / f"b.{fmt.value}")
        held = {code: int(n) for code, _, n in re.findall(r"(P\d+) (\d+) of (\d+)", out)}
        assert held and all(n == counted[code][1].total for code, n in held.items()), out
        left = re.search(r"never asked \(cut off, garbled or without a key\): (\d+) questions", err)
        assert (int(left.group(1)) if left else 0) == (0 if fmt is FileFormat.json else total.unaskable), err
        assert "Retired questions" not in err  # the bundled bank has none


@pytest.fixture
async def env(tmp_path, db_location):
    e = DeskEnv(tmp_path, admins=(ADMIN,), location=db_location)
    await e.start()
    yield e
    await e.close()


async def _reply(env, user, text: str) -> str:
    before = len(user.chat())
    await user.send(text)
    return (await env.api.wait_for(lambda: next((m for m in user.chat()[before:] if m.from_bot), None))).text


async def _upload(env, user, name: str, data: bytes) -> tuple[str, str]:
    """An upload's preview, then what its Import replied."""
    await user.send_document(data, name)
    preview = await user.wait_message(lambda m: "✅ Import" in m.button_texts, timeout=15)
    await user.press(preview, "✅ Import")
    done = await user.wait_message(lambda m: "Imported" in (m.text or ""), timeout=15)
    return preview.text, done.text


async def test_the_chat_and_the_desk_count_each_paper_as_the_bank_does(env):
    db = env.db
    admin = env.api.user(ADMIN, "Boss", language_code="en")
    # the bundled bank, uploaded back as a whole (updated in place) and one paper from its seed file
    counted = await _counted(db)
    bank = await list_papers(db, composed=True, include_retired=True)
    data, _ = export(bank, FileFormat.json)
    preview, done = await _upload(env, admin, "bank.json", data.encode())
    for title, c in counted.values():
        assert f"• {title}: {c.total} — " in preview and f"\n  {tally_text(c, 'en')}\n" in preview
    assert "updated in place: 0 changed" in done and "since the last import" not in done  # nothing moved
    title, p3 = counted["P3"]
    seed = next(SEEDS.glob("002_*.txt"))
    preview, done = await _upload(env, admin, seed.name, seed.read_bytes())
    assert f"• {title}: 51 — " in preview and f"\n  {tally_text(p3, 'en')}\n" in preview
    assert f"• {title}: 51 — " in done and done.endswith(f"\n  {tally_text(p3, 'en')}")
    assert await _counted(db) == counted

    # one question retired, one paper asked (a practice sheet): the counts move apart
    await set_retired(db, bank[0].questions()[0].id or 0, True, lead=ADMIN, chat_id=None, now=env.clock.now())
    await ensure_user(db, ANN, "Ann", None, 0)
    await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=bank[1].id, mode=AttemptMode.practice,
                                 now=env.clock.now(), shuffle=False)
    counted = await _counted(db)
    assert counted["P1"][1].retired == 1 and counted["P2"][1].not_yet_asked == 0 < counted["P3"][1].not_yet_asked

    papers = await _reply(env, admin, "/papers")
    listed = {code: int(n) for code, n in re.findall(r"^(P\d+) · .*\n\s+(\d+) questions?", papers, re.M)}
    assert listed == {code: c.askable for code, (_, c) in counted.items()}
    overview = await _reply(env, admin, "/bankstats")
    for code, (_, c) in counted.items():
        assert f"{code} · {tally_text(c, 'en')}" in overview.splitlines()
        one = await _reply(env, admin, f"/bankstats {code}")
        assert one.splitlines()[1:3] == [tally_text(c, "en"), flags_text(c, "en")]
        # nobody has answered yet: no row of dashes for each question, one line counting them
        assert "n=0" not in one and f"\n{c.total} questions not answered yet: no statistics until they are." in one

    desk = DeskClient(env)
    try:
        await desk.login(ADMIN, "Boss")
        _, html, _ = await desk.get("/desk/items")
        rows = {row[0].split(" · ")[0]: list(map(int, row[1:])) for row in table_rows(html, "counts")}
        assert rows == {code: [c.total, c.askable, c.held, c.unaskable, c.retired, c.not_yet_asked]
                        for code, (_, c) in counted.items()}
        for code, (_, c) in counted.items():
            _, html, _ = await desk.get("/desk/items", paper=code)
            standings = Counter(re.findall(r'<td class="status" data-standing="(\w+)">', html))
            assert standings == {s.value: c.of(s) for s in Standing if c.of(s)}, code
            statuses = [row[-1] for row in table_rows(html, "items")]
            assert sum(s.startswith("not yet asked") for s in statuses) == c.not_yet_asked
            assert sum(s.startswith("in use") for s in statuses) == c.askable - (c.not_yet_asked or 0)
    finally:
        await desk.close()


SUMS = ("题型,题干,选项A,选项B,选项C,答案,解析,试卷\n单选题,1+1=?,2,3,4,A,一加一等于二,Sums\n"
        "单选题,2+2=?,4,5,6,A,二加二等于四,Sums\n单选题,3+3=?,6,7,8,A,三加三等于六,Sums\n")


def _explain(path: Path, row: int, text: str) -> None:
    rows = list(csv.reader(path.open(encoding="utf-8-sig", newline="")))
    rows[row][rows[0].index("解析")] = text
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)


def test_an_edited_sheet_imported_again_says_what_it_held_each_time(capsys, tmp_path, monkeypatch, db_location):
    """An explanation that speaks for another option than the key holds the question until a lead
    confirms the key: each import of the edited file says so. Before: "updated … 1 changed" and nothing
    about the question no longer being asked."""
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    db, source, sheet = db_location, tmp_path / "sums.csv", tmp_path / "edited.csv"
    source.write_text(SUMS, encoding="utf-8")
    _run(capsys, "--db", db, "import", source)
    _run(capsys, "--db", db, "bank", "export", "--format", "csv", "-o", sheet)
    _explain(sheet, 1, "(B) 是对的。")
    out, _ = _run(capsys, "--db", db, "import", sheet)
    assert "  since the last import: 2 askable (−1) · 1 held (1 key in doubt) (+1)" in out.splitlines(), out
    _explain(sheet, 2, "(C) 是对的。")
    out, _ = _run(capsys, "--db", db, "import", sheet)
    assert "  since the last import: 1 askable (−1) · 2 held (2 key in doubt) (+1)" in out.splitlines(), out
    out, _ = _run(capsys, "--db", db, "import", sheet)
    assert "since the last import" not in out and "0 changed" in out  # nothing moved
    assert _stored(db)["P1"][1] == Tally(askable=1, held_key=2, not_yet_asked=1, points=1.0)
