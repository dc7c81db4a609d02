"""Spreadsheets: Chinese or English headers, every kind's key, errors by sheet, row and column."""

import io
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from bank.errors import ImportFailed
from bank.formats.files import FileFormat, template
from bank.formats.sheet import parse_csv, parse_xlsx
from bank.formats.sheet_export import to_csv
from bank.import_notes import english_note
from bank.kinds import Flag, Kind


def xlsx(rows, title="题库") -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = title
    for r in rows:
        ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_template_reads_back_one_question_per_kind():
    parsed = parse_xlsx(template(FileFormat.xlsx), file="t.xlsx")
    kinds = [it.question.kind for it in parsed.items]
    assert kinds == [Kind.single, Kind.multi, Kind.truefalse, Kind.fill, Kind.numerical, Kind.matching,
                     Kind.short, Kind.discussion, Kind.case]
    by = {it.question.kind: it for it in parsed.items}
    assert by[Kind.single].question.answer == "A" and by[Kind.single].question.points == 2.0
    assert by[Kind.truefalse].question.answer is True
    assert by[Kind.fill].question.answer == [["FP16", "BF16"], ["FP32"]]
    assert by[Kind.numerical].question.answer == [["14", "0.5"]]
    assert by[Kind.matching].question.answer[0] == ["数据并行", "数据"]
    assert by[Kind.single].paper == "示例试卷" and by[Kind.single].section == "一、单项选择题"
    assert by[Kind.single].question.difficulty == "易" and by[Kind.single].question.topic == "混合精度"
    assert parse_csv(template(FileFormat.csv).decode() if isinstance(template(FileFormat.csv), bytes) else template(FileFormat.csv),
                     file="t.csv").items[3].question.answer == [["FP16", "BF16"], ["FP32"]]


def test_english_headers_and_key_spellings():
    rows = [["type", "stem", "option_a", "option_b", "option_c", "answer", "points"],
            ["multi", "Pick two", "x", "y", "z", "A, C", 2],
            ["truefalse", "Sky is blue", None, None, None, "正确", None],
            ["truefalse", "Fire is cold", None, None, None, "F", None],
            ["numerical", "Pi?", None, None, None, "3.14:0.01|1..5", None]]
    items = parse_xlsx(xlsx(rows), file="e.xlsx").items
    assert [it.question.answer for it in items] == ["AC", True, False, [["3.14", "0.01"], ["3", "2"]]]
    assert items[0].question.points == 2.0 and items[0].place == "sheet 题库, row 2"


def test_key_naming_a_missing_option_is_a_warning():
    parsed = parse_csv("题型,题干,选项A,选项B,答案\n单选,Q,x,y,E\n", file="w.csv")
    q = parsed.items[0].question
    assert Flag.no_answer in q.flags and not q.askable
    assert [english_note(n) for n in parsed.notes] == ["row 2: the key E: option E is not there; kept, never asked"]


@pytest.mark.parametrize("row, column, problem", [
    (["单选", "Q", "x", "y", "AB"], "答案", "expected one letter"),
    (["判断", "Q", "", "", "maybe"], "答案", "expected 对/错"),
    (["怪题", "Q", "", "", "A"], "题型", "unknown type"),
    (["单选", "", "x", "y", "A"], "题干", "expected the question's text"),
    (["数值", "Q", "", "", "abc"], "答案", "expected a number"),
])
def test_errors_name_sheet_row_and_column(row, column, problem):
    data = xlsx([["题型", "题干", "选项A", "选项B", "答案"], ["单选", "ok", "x", "y", "A"], row])
    with pytest.raises(ImportFailed) as e:
        parse_xlsx(data, file="bad.xlsx")
    assert e.value.place == f"sheet 题库, row 3, column {column}" and problem in e.value.problem


def test_zip_bomb_is_refused(monkeypatch):
    import bank.formats.sheet as sheet

    monkeypatch.setattr(sheet, "MAX_XLSX_UNPACKED", 1000)
    with pytest.raises(ImportFailed, match="unpacks to"):
        parse_xlsx(xlsx([["题干"], ["Q" * 5000]]), file="big.xlsx")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/bomb.xml", "0" * 5_000_000)
    monkeypatch.setattr(sheet, "MAX_XLSX_UNPACKED", 10**9)
    with pytest.raises(ImportFailed, match="unpacks to"):
        parse_xlsx(buf.getvalue(), file="bomb.xlsx")


def test_written_cells_never_run_as_formulas():
    csv_text = to_csv([["题干", "答案"], ['=HYPERLINK("http://x")', "-2"]])
    assert "'=HYPERLINK" in csv_text and csv_text.rstrip().endswith(",-2")  # a number stays a number
    # and they read back as written
    parsed = parse_csv("题型,题干,答案\n数值,'=cmd,'-2\n", file="x.csv")
    assert (parsed.items[0].question.stem, parsed.items[0].question.answer) == ("=cmd", [["-2", "0"]])
    from bank.formats.sheet_export import to_xlsx
    ws = load_workbook(io.BytesIO(to_xlsx([["题干"], ["=1+1"]]))).active
    assert ws["A2"].data_type == "s" and ws["A2"].value == "=1+1"


def test_csv_saved_by_chinese_excel_as_gbk(tmp_path):
    from bank.formats.files import parse_any

    path = tmp_path / "gbk.csv"
    path.write_bytes("题型,题干,选项A,选项B,答案\n单选,哪个对？,甲,乙,B\n".encode("gbk"))
    assert parse_any(path)[0].questions()[0].options == ["甲", "乙"]
