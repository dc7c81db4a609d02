"""The real bot process keeps jieba out: key terms are stored with the questions, never segmented there.

A bank imported before key terms were stored (its terms NULL, as migration 010 leaves it) is filled at
start-up by a one-off child process; the bot then grades a written answer from the stored terms.
The child's sys.modules is written at exit by a wrapper around `bot.cli.main` (no hook in the bot).
Every feature's handlers load at start-up (bot/feature.py); through /exam, a typed answer and the
hand-in, the heavy libraries nobody used stay unloaded (each is imported inside the function that
uses it: pyproject.toml's heavy-imports).
"""

from __future__ import annotations

import asyncio
import sys
import tomllib
from pathlib import Path

from bank.grading import grade
from bank.kinds import Kind
from bank.models import Paper, Question, Section
from proctor.storage.db import Database
from tests.harness import at_place, attempt_message
from tests.papers_fixture import save_paper
from tests.process_helpers import ProctorProcess, child_env, db_rows, start_paper

ROOT = Path(__file__).resolve().parents[2]
STARTUP = 30.0
TITLE = "Lean paper"
# Not a bundled reference: its terms can only come from jieba.
REFERENCE = "张量并行把每层的权重矩阵切分到多个设备上，前向时各设备计算部分结果，再通过全归约通信合并输出。"
TYPED = "把权重矩阵切分到多个设备，各自计算后全归约合并"
DUMP = ("import atexit, collections, os, sys\n"
        "failed = collections.Counter()\n"
        "class Missing:  # last on sys.meta_path: asked only for a module no finder has\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        failed[name] += 1\n"
        "sys.meta_path.append(Missing())\n"
        "def dump():\n"
        "    open(os.environ['MODULES_OUT'], 'w').write('\\n'.join(sorted(sys.modules)))\n"
        "    open(os.environ['MODULES_OUT'] + '.failed', 'w').write(\n"
        "        '\\n'.join(f'{n} {c}' for n, c in failed.items()))\n"
        "atexit.register(dump)\n"
        "from bot.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n")


def _paper() -> Paper:
    short = Question(number=1, kind=Kind.short, stem="简述张量并行。", answer=REFERENCE, points=5)
    single = Question(number=1, kind=Kind.single, stem="选一个", options=["甲", "乙"], answer="A")
    return Paper(slug="lean", title=TITLE, sections=[
        Section(kind=Kind.short, title="简答题", questions=[short]),
        Section(kind=Kind.single, title="单选题", questions=[single])])


async def _old_bank(path: Path) -> None:
    """A bank as it stood before key terms were stored: the column is NULL."""
    db = await Database.open(path)
    try:
        await save_paper(db, _paper(), now=1.0)

        def transaction(conn):  # no writer clears key terms: the NULL column an older bank had
            conn.execute("UPDATE questions SET key_terms = NULL")

        await db.run_write(transaction)
    finally:
        await db.close()



async def test_bot_process_fills_key_terms_and_grades_a_written_answer_without_jieba(tmp_path, api):
    db, modules = tmp_path / "p.db", tmp_path / "modules.txt"
    await _old_bank(db)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", DUMP, "--db", str(db), "run",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=child_env(tmp_path, api, MODULES_OUT=str(modules), PROCTOR_ADMINS="4242"), cwd=tmp_path)
    bot = ProctorProcess(proc)
    ann = api.user(1001, "Ann", language_code="en")
    try:
        await start_paper(api, ann, TITLE)
        await ann.send(TYPED)
        # a written answer stays on screen for more of it: once it shows, Next
        shown = await api.wait_for(lambda: (m := attempt_message(ann.chat())) is not None
                                   and TYPED[:8] in (m.text or "") and m, what="the answer on screen")
        await ann.press(shown, "Next ▶")
        await api.wait_for(lambda: (m := attempt_message(ann.chat())) is not None and at_place(m.text, 2),
                           what="the screen moves to Q 2")
        # the hand-in: the result card through the outbox, and daily practice's release job (armed by
        # every hand-in) finding no private quiz held back
        await ann.press(attempt_message(ann.chat()), "Finish")
        confirm = await api.wait_for(lambda: next((m for m in reversed(ann.chat()) if "Yes, finish" in m.button_texts),
                                                  None), what="finish confirmation")
        await ann.press(confirm, "Yes, finish")
        await ann.wait_message(lambda m: "Score:" in (m.text or ""), timeout=10)
        await api.wait_idle(timeout=10)
        assert await bot.stop() == 0, bot.stderr
    finally:
        await bot.cleanup()

    [stored] = db_rows(db, "SELECT key_terms FROM questions WHERE kind = 'short'")
    assert stored["key_terms"] is not None
    [answer] = db_rows(db, "SELECT score, verdict FROM answers")
    expected = grade(Question(number=1, kind=Kind.short, stem="", answer=REFERENCE, points=5), TYPED)
    assert (answer["score"], answer["verdict"]) == (expected.score, "needs_review")
    assert 0 < expected.score < 5
    loaded = modules.read_text().split()
    assert "bot.app" in loaded and "bank.grading.terms" in loaded  # the dump is the bot's
    assert "jieba" not in loaded and "matplotlib" not in loaded  # nobody asked for a chart
    # the heavy libraries (pyproject.toml's heavy-imports) load when first needed, and nobody needed them:
    # sympy (no LaTeX key), openpyxl and python-calamine (no workbook), segno (no invite's QR code),
    # matplotlib (no chart), jieba (terms were segmented in a child), psycopg (the record is a SQLite file);
    # OpenCC grades (script folding)
    heavy = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["proctor"]["heavy-imports"])
    assert {"sympy", "openpyxl", "python_calamine", "segno", "matplotlib", "jieba", "opencc", "psycopg"} == heavy
    assert (heavy - {"opencc"}).isdisjoint(loaded), sorted((heavy - {"opencc"}) & set(loaded))
    # every feature's handlers are loaded: imported at the top of their package (no loaders)
    assert {"bot.daily.answering", "bot.leads.review", "bot.invites.commands", "bot.authoring.upload",
            "bot.live.commands", "proctor.teams.charts"} <= set(loaded)
    # a library that retries a missing optional import on every call (httpcore and sniffio) shows
    # as a module that failed to import once per request
    failed = dict(line.rsplit(" ", 1) for line in Path(f"{modules}.failed").read_text().splitlines())
    assert {name: n for name, n in failed.items() if int(n) > 2} == {}
