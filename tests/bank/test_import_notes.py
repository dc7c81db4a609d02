"""A reader's notes are codes with parameters, stored as such, said in English at a terminal and in the
chat's language in a chat (bot/lint_lines.py); notes an older release stored as English still show."""

import ast
import json
from pathlib import Path

import pytest

from bank.formats.aiken import parse_aiken
from bank.formats.files import parse_any
from bank.formats.gift import parse_gift
from bank.formats.moodle_xml import parse_moodle_xml
from bank.formats.sheet import parse_csv
from bank.import_notes import english_note, place_params
from bank.importer import import_files
from bank.lint import lint
from bank.lint_messages import ENGLISH
from bank.paper_store import list_papers
from bot.i18n import CATALOGUE
from bot.lint_lines import lint_line, lint_text


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "formats_fixtures"


def test_each_reader_notes_a_code_with_its_place_and_parameters():
    gift = parse_gift("::d:: Just a description\n\n::q:: 1+1? {~1 ~3}\n", file="g.gift")
    assert [(n.code, n.params) for n in gift.notes] == [("description_skipped", {"line": 1}),
                                                        ("no_credit_skipped", {"line": 3})]
    aiken = parse_aiken("Q?\nA. x\nB. y\nANSWER: E\n", file="a.txt")
    assert [(n.code, n.params) for n in aiken.notes] == [("key_no_option", {"line": 1, "key": "E"})]
    sheet = parse_csv("题型,题干,选项A,选项B,答案\n判断,Q,x,y,对\n单选,Q,x,y,E\n", file="w.csv")
    assert [(n.code, n.params) for n in sheet.notes] == [
        ("options_ignored", {"row": 2, "kind": "truefalse"}), ("key_option_missing", {"row": 3, "key": "E", "option": "E"})]
    xml = parse_moodle_xml((FIXTURES / "moodle_quiz.xml").read_text(encoding="utf-8"), file="q.xml")
    assert [n.code for n in xml.notes] == ["xml_description_skipped", "type_skipped", "type_skipped"]
    assert xml.notes[1].params == {"line": 67, "type": "cloze"}


@pytest.mark.parametrize("place,params", [
    ("line 12", {"line": 12}), ("row 5", {"row": 5}), ("sheet 题库, row 5", {"sheet": "题库", "row": 5}),
    ("section 一", {"section": "一"}), ("section 二, question 3", {"section": "二", "question": 3}),
    ("question 4", {"question": 4}), ("somewhere else", {"at": "somewhere else"}), ("", {})])
def test_places_as_the_readers_write_them_become_parameters(place, params):
    assert place_params(place) == params


def test_a_note_reads_in_english_at_a_terminal_and_in_chinese_in_a_chat():
    paper = parse_any(FIXTURES / "moodle_gift_docs.gift")[0]
    [item] = [i for i in lint([paper]) if i.code == "note"]
    assert lint_line(item, "zh") == f"{paper.title}: 第 64 行：没有答案块 {{…}}，是说明文字而不是题目；已跳过"
    assert lint_line(item, "en") == f"{paper.title}: line 64: no answer block {{…}}: a description, not a question; skipped"


async def test_notes_are_stored_as_codes_and_english_notes_of_older_releases_still_show(db, tmp_path):
    path = tmp_path / "docs.gift"
    path.write_bytes((FIXTURES / "moodle_gift_docs.gift").read_bytes())
    [paper] = await import_files(db, [path], 1.0, parse=parse_any)
    stored = json.loads(await db.scalar("SELECT notes FROM papers WHERE id=?", (paper.id,)))
    assert stored == [{"code": "description_skipped", "params": {"line": 64}}]
    # a database an older release wrote: its notes are English text (no writer of today makes one)

    def transaction(conn):
        conn.execute("UPDATE papers SET notes=? WHERE id=?",
                     (json.dumps(["line 9: something the old reader said"]), paper.id))

    await db.run_write(transaction)
    [old] = await list_papers(db)
    [item] = [i for i in lint([old]) if i.code == "note"]
    assert english_note(old.notes[0]) == lint_text(item, "en") == "line 9: something the old reader said"
    assert lint_line(item, "zh") == f"{old.title}: 导入说明：line 9: something the old reader said"


def _codes_written() -> set[str]:
    """Every code a reader passes to bank.import_notes.note, read from the source."""
    codes = set()
    for path in (ROOT / "bank").rglob("*.py"):
        for call in ast.walk(ast.parse(path.read_text())):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "note":
                first = call.args[0]
                assert isinstance(first, ast.Constant), f"{path}: a note's code is a literal ({ast.unparse(first)})"
                codes.add(first.value)
    return codes


def test_every_note_a_reader_writes_is_said_in_both_languages():
    codes = _codes_written()
    assert {"description_skipped", "type_skipped", "kept_edit", "fill_parts", "no_stem_column"} <= codes
    for code in codes:
        assert code in ENGLISH, code
        assert {"en", "zh"} <= CATALOGUE[f"lint_{code}"].keys(), code
