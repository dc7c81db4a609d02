"""Malformed files import nothing, and the error names the file and the place."""

import json

import pytest

from bank.errors import ImportFailed
from bank.importer import import_files, parse_file
from bank.paper_store import paper_count


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

GOOD = """示例试卷
一、单项选择题（每题2分，共4分）
1.以下哪个是框架（）
A.PyTorchB.NumPyC.ExcelD.Word
答案：A
2.以下哪个是GPU厂商（）
A.英伟达B.微软
C.甲骨文D.红帽
答案：A
二、判断题（每题2分，共2分）
1.梯度累积可以模拟大批次。（√）
"""


def write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_a_small_good_paper_parses_complete(tmp_path):
    [paper] = parse_file(write(tmp_path, "good.txt", GOOD))
    assert paper.title == "示例试卷" and paper.slug == "good"
    assert [len(s.questions) for s in paper.sections] == [2, 1]
    assert paper.sections[0].questions[1].options == ["英伟达", "微软", "甲骨文", "红帽"]
    last = paper.questions()[-1]
    assert last.answer is True and last.flags == []  # a complete file has nothing truncated
    assert paper.notes == []


@pytest.mark.parametrize("name,content,place,words", [
    ("empty.txt", "", "line 1", "empty"),
    ("blank.txt", "\n\n  \n", "line 1", "empty"),
    ("prose.txt", "Hello, this is a shopping list.\nMilk, eggs, bread.\n", "line 1", "no section header"),
    ("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "byte 1", "binary"),
    ("gbk.txt", "试卷\n一、判断题\n1.对吗（√）".encode("gbk"), "byte", "UTF-8"),
    ("notitle.txt", "一、单项选择题（每题2分，共2分）\n1.问（）\nA.甲B.乙\n答案：A\n", "line 1", "no title"),
    ("hollow.txt", "试卷\n一、单项选择题（每题2分，共2分）\n二、判断题（每题2分，共2分）\n1.对吗（√）\n",
     "section 一", "no questions"),
    ("hollow_end.txt", "试卷\n一、单项选择题（每题2分，共2分）\n", "section 一", "no questions"),
    ("nokey.txt", "试卷\n一、单项选择题\n1.问（）\nA.甲B.乙\n2.问二（）\nA.甲B.乙\n二、判断题\n1.对吗（√）\n",
     "section 一, question 1", "no key"),
    ("badkey.txt", "试卷\n一、单项选择题\n1.问（）\nA.甲B.乙\n答案：E\n二、判断题\n1.对吗（√）\n",
     "section 一, question 1", "names an option"),
    ("tfkey.txt", "试卷\n一、判断题\n1.对吗\n答案：也许\n二、简答题\n1.说说\n答案：好。\n",
     "section 一, question 1", "true/false"),
    ("gap.txt", "试卷\n一、填空题\n1.甲____\n答案：甲\n3.丙____\n答案：丙\n", "section 一, question 2", "numbered 2"),
    ("bad.json", '{"papers": [ {"slug": "x", ', "line 1", "not valid JSON"),
    ("shape.json", json.dumps({"papers": [{"slug": "x", "title": "T", "sections": [{"kind": "single", "title": "S",
     "questions": [{"number": 1, "kind": "single", "stem": "?", "options": ["a", "b"], "answer": "Z"}]}]}]}),
     "papers[0].sections[0].questions[0]", "does not fit"),
    ("noslug.json", json.dumps({"papers": [{"title": "T", "sections": []}]}), "papers[0]", ""),
])
def test_malformed_file_names_file_and_place(tmp_path, name, content, place, words):
    path = write(tmp_path, name, content)
    with pytest.raises(ImportFailed) as e:
        parse_file(path)
    assert e.value.file.endswith(name)
    assert e.value.place.startswith(place), e.value.place
    assert words in e.value.problem
    assert name in str(e.value)


def test_missing_file(tmp_path):
    with pytest.raises(ImportFailed) as e:
        parse_file(tmp_path / "nope.txt")
    assert "cannot read" in e.value.problem


async def test_failure_in_second_file_writes_nothing(db, tmp_path, seed_files):
    bad = write(tmp_path, "bad.txt", "试卷\n一、单项选择题\n1.问（）\nA.甲B.乙\n答案：E\n二、判断题\n1.对吗（√）\n")
    with pytest.raises(ImportFailed) as e:
        await import_files(db, [seed_files[0], bad], now=1.0)
    assert e.value.file.endswith("bad.txt")
    assert await paper_count(db) == 0
    assert await db.scalar("SELECT COUNT(*) FROM questions") == 0  # the schema itself: not one orphan row


async def test_same_paper_twice_in_one_import_is_refused(db, seed_files):
    with pytest.raises(ImportFailed) as e:
        await import_files(db, [seed_files[0], seed_files[0]], now=1.0)
    assert "also comes from" in e.value.problem
    assert await paper_count(db) == 0


def test_any_cut_of_a_seed_parses_or_fails_cleanly(seed_files):
    """Cut every seed at many places: a paper (last question flagged if incomplete) or ImportFailed."""
    from bank.importer import parse_text

    for path in seed_files:
        text = path.read_text(encoding="utf-8")
        full = len(parse_text(text, file=path.name, stem=path.stem)[0].questions())
        for cut in range(len(text) // 3, len(text), max(1, len(text) // 40)):
            try:
                [paper] = parse_text(text[:cut], file=path.name, stem=path.stem)
            except ImportFailed as e:
                assert e.file == path.name and e.place and e.problem
                continue
            assert len(paper.questions()) <= full
