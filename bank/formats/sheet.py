"""Spreadsheets (XLSX, CSV): one question a row under a header row, in English or Chinese.

Columns (any order; only the stem is required): 题型 type, 题干 stem, 选项A…选项H option_a…option_h,
答案 answer, 解析 explanation, 分值 points, 难度 difficulty, 知识点 topic, 试卷 paper, 章节 section,
试卷代码 paper_code, 科目 subject, 试卷设置 settings (the paper's: `time=45; attempts=2; …`,
bank/formats/paper_facts.py), 编号 ref (written by an export: the question's identity, bank/formats/ref.py).
Keys: single `A`; multi `ABD` (or `A,B,D`); true/false `对/错`, `正确/错误`, `T/F`, `true/false`,
`√/×`; fill-in blanks separated by `|`, accepted forms of one blank by `;`; numerical `3.14`,
`3.14±0.01`, `3.14:0.01` or `1..5`, several accepted values separated by `|`; matching
`left -> right` pairs separated by `|`; short, discussion and case the reference answer.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation

from bank.csv_safety import TRIGGERS
from bank.errors import ImportFailed
from bank.formats.build import Item, Parsed
from bank.formats.paper_facts import read_settings
from bank.formats.ref import read_ref
from bank.grading.choice import parse_truefalse
from bank.import_notes import note
from bank.kinds import CHOICE, Answer, Flag, Kind
from bank.models import Question
from bank.option_order import LETTERS

MAX_XLSX_UNPACKED = 200 * 1024 * 1024  # bytes a workbook may unpack to (zip bombs)
MAX_XLSX_RATIO = 200  # and how much more than its packed size

SHEET_OPTIONS = 8  # option columns the sheet template has (选项A…选项H); other formats take up to 26
OPTION_LETTERS = LETTERS[:SHEET_OPTIONS]
COLUMNS = {  # field: (Chinese header, English header)
    "type": ("题型", "type"), "stem": ("题干", "stem"),
    **{f"option_{c.lower()}": (f"选项{c}", f"option_{c.lower()}") for c in OPTION_LETTERS},
    "answer": ("答案", "answer"), "explanation": ("解析", "explanation"), "points": ("分值", "points"),
    "difficulty": ("难度", "difficulty"), "topic": ("知识点", "topic"), "paper": ("试卷", "paper"),
    "section": ("章节", "section"),
    # the paper's: its code and subject on each of its rows, its settings on its first
    "paper_code": ("试卷代码", "paper_code"), "subject": ("科目", "subject"), "settings": ("试卷设置", "settings"),
    "ref": ("编号", "ref"),  # an exported question's identity (bank/formats/ref.py); empty: a new question
}
_HEADER = {h.lower(): field for field, names in COLUMNS.items() for h in names}
_HEADER.update({c.lower(): f"option_{c.lower()}" for c in OPTION_LETTERS})  # a bare "A" column
TYPE_NAMES = {  # what a type cell may say; the first of each is written
    Kind.single: ("单选题", "单选", "单项选择题", "single"),
    Kind.multi: ("多选题", "多选", "多项选择题", "multi", "multiple"),
    Kind.truefalse: ("判断题", "判断", "truefalse", "true/false", "tf"),
    Kind.fill: ("填空题", "填空", "fill", "blank"),
    Kind.numerical: ("数值题", "数值", "计算题", "numerical", "number"),
    Kind.matching: ("匹配题", "匹配", "连线题", "matching"),
    Kind.short: ("简答题", "简答", "short", "essay"),
    Kind.discussion: ("论述题", "讨论题", "论述", "discussion"),
    Kind.case: ("案例分析题", "案例题", "案例", "case"),
}
_TYPE = {name.lower(): kind for kind, names in TYPE_NAMES.items() for name in names}
_NUMBER_SEPARATOR = re.compile(r"±|\+/-|:")


def read_xlsx_rows(data: bytes, *, file: str) -> Iterator[tuple[str, list[tuple[int, list[str]]]]]:
    """(sheet name, [(row number, cells)]) per sheet, read with python-calamine after a zip-bomb check."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            unpacked = sum(i.file_size for i in z.infolist())
    except zipfile.BadZipFile as e:
        raise ImportFailed(file, "file", "not an XLSX workbook (not a zip file)") from e
    if unpacked > MAX_XLSX_UNPACKED or unpacked > MAX_XLSX_RATIO * max(len(data), 1):
        raise ImportFailed(file, "file", f"the workbook unpacks to {unpacked // 1_000_000} MB; "
                                         f"expected at most {MAX_XLSX_UNPACKED // 1_000_000} MB")
    # python-calamine (a compiled reader) loads with the first workbook: the bot imports this module
    # for typed keys (parse_key) and reads workbooks only in a child process (bank.formats.child)
    from python_calamine import CalamineError, CalamineWorkbook

    try:
        wb = CalamineWorkbook.from_filelike(io.BytesIO(data))
        sheets = []
        for name in wb.sheet_names:
            sheet = wb.get_sheet_by_name(name)
            first = (sheet.start or (0, 0))[0] + 1  # calamine's rows start at the first used one
            rows = sheet.to_python(skip_empty_area=True)
            sheets.append((name, [(first + i, [_cell(v) for v in row]) for i, row in enumerate(rows)]))
    except CalamineError as e:
        raise ImportFailed(file, "file", f"not a readable XLSX workbook: {e}") from e
    return iter(sheets)


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()


def read_csv_rows(text: str, *, file: str) -> list[tuple[int, list[str]]]:
    """(line number, cells) of each row. Raises ImportFailed (a cell over the csv module's limit,
    131,072 characters, or a stray NUL)."""
    reader = csv.reader(io.StringIO(text))
    try:
        return [(reader.line_num, [_unguard(c.strip()) for c in row]) for row in reader]
    except csv.Error as e:
        raise ImportFailed(file, f"line {reader.line_num}", f"not a readable CSV row: {e}") from None


def _unguard(cell: str) -> str:
    """A cell as written before the exporter's guard against formulas: one ' taken off a cell that starts
    with quotes and then = + - @ (bank/formats/sheet_export.py puts one there)."""
    return cell[1:] if cell[:1] == "'" and cell.lstrip("'")[:1] in TRIGGERS else cell


def parse_rows(sheets: list[tuple[str, list[tuple[int, list[str]]]]], *, file: str) -> Parsed:
    """Items from the rows of every sheet that has a header row with a stem column."""
    out = Parsed()
    for sheet, rows in sheets:
        body = [(n, r) for n, r in rows if any(r)]
        if not body:
            continue
        header_row, header = body[0]
        columns: dict[str, int] = {}
        for i, h in enumerate(header):
            field = _HEADER.get(h.strip().lower())
            if field:
                columns.setdefault(field, i)
        where = f"sheet {sheet}, " if len(sheets) > 1 or sheet else ""
        if "stem" not in columns:
            out.notes.append(note("no_stem_column", f"{where}row {header_row}"))
            continue
        for n, row in body[1:]:
            cells = {f: (row[i] if i < len(row) else "") for f, i in columns.items()}
            place = f"{where}row {n}"
            item = _row(cells, place, file, header, columns, out)
            if item is not None:
                out.items.append(item)
    return out


def _fail(file: str, place: str, field: str, columns: dict[str, int], header: list[str],
          problem: str) -> ImportFailed:
    col = header[columns[field]] if field in columns else COLUMNS[field][0]
    return ImportFailed(file, f"{place}, column {col}", problem)


def _row(c: dict[str, str], place: str, file: str, header: list[str], columns: dict[str, int],
         out: Parsed) -> Item | None:
    def fail(field: str, problem: str) -> ImportFailed:
        return _fail(file, place, field, columns, header, problem)

    stem = c.get("stem", "")
    if not stem:
        raise fail("stem", "expected the question's text")
    options = [c.get(f"option_{x.lower()}", "") for x in OPTION_LETTERS]
    while options and not options[-1]:
        options.pop()
    kind_cell = c.get("type", "").strip()
    if kind_cell:
        kind = _TYPE.get(kind_cell.lower())
        if kind is None:
            raise fail("type", f"unknown type {kind_cell!r}; expected one of "
                       + ", ".join(names[0] for names in TYPE_NAMES.values()))
    else:
        kind = _guess_kind(options, c.get("answer", ""))
    points = 1.0
    if c.get("points"):
        try:
            points = float(c["points"])
        except ValueError:
            raise fail("points", f"expected a number, found {c['points']!r}") from None
        if points < 0:
            raise fail("points", "expected a number of points of 0 or more")
    q = Question(number=0, kind=kind, stem=stem, options=options if kind in CHOICE else [],
                 answer="", explanation=c.get("explanation", ""), points=points,
                 topic=c.get("topic", ""), difficulty=c.get("difficulty", ""))
    if kind not in CHOICE and any(options):
        out.notes.append(note("options_ignored", place, kind=kind.value))
    try:
        q.answer = _key(q, c.get("answer", ""))
    except ValueError as e:
        raise fail("answer", str(e)) from None
    if kind in CHOICE:
        if "" in options:
            raise fail(f"option_{OPTION_LETTERS[options.index('')].lower()}", "an empty option before the last one")
        if len(options) < 2:
            raise fail("option_a", f"expected at least two options for a {kind.value} question")
        letters = q.answer if isinstance(q.answer, str) else ""  # _key gave a choice question letters
        bad = [x for x in letters if x >= chr(65 + len(options))]
        if bad:  # a warning, as lint gives: kept but never asked
            out.notes.append(note("key_option_missing", place, key=letters, option=bad[0]))
            q.flags.append(Flag.no_answer.value)
    try:
        read_ref(q, c.get("ref", ""))
    except ValueError as e:
        raise fail("ref", str(e)) from None
    _paper_cells(out, c, fail)
    return Item(q, place, paper=c.get("paper", ""), section=c.get("section", ""))


def _paper_cells(out: Parsed, c: dict[str, str], fail: Callable[[str, str], ImportFailed]) -> None:
    """The paper's code, subject and settings, from the first of its rows that gives each; another row
    of the paper that gives another value is an error."""
    facts = out.paper_facts(c.get("paper", ""))
    for field, now in (("paper_code", facts.code), ("subject", facts.subject)):
        given = c.get(field, "")
        if given and now and given != now:
            raise fail(field, f"the paper's {COLUMNS[field][0]} is {now!r} on an earlier row")
        if given and not now:
            if field == "paper_code":
                facts.code = given
            else:
                facts.subject = given
    if text := c.get("settings", ""):
        if facts.settings is not None:
            raise fail("settings", "the paper's settings are on an earlier row already: give them once")
        try:
            facts.settings = read_settings(text)
        except ValueError as e:
            raise fail("settings", str(e)) from None


def _guess_kind(options: list[str], key: str) -> Kind:
    if options:
        letters = re.sub(r"[\s,，、;；]", "", key.upper())
        return Kind.multi if len(letters) > 1 else Kind.single
    if parse_truefalse(key) is not None:
        return Kind.truefalse
    return Kind.fill


def parse_key(q: Question, key: str) -> Answer:
    """The key of `q` as a 答案 cell writes it (see the module docstring). Raises ValueError."""
    return _key(q, key)


def _key(q: Question, key: str) -> Answer:
    key = key.strip()
    if q.kind in CHOICE:
        letters = re.sub(r"[\s,，、;；]", "", key.upper())
        if not letters or not letters.isascii() or not letters.isalpha():
            raise ValueError(f"expected option letters such as A or ABD, found {key!r}")
        if q.kind is Kind.single and len(letters) != 1:
            raise ValueError(f"expected one letter for a single-choice question, found {key!r}")
        return "".join(sorted(set(letters)))
    if q.kind is Kind.truefalse:
        value = parse_truefalse(key)
        if value is None:
            raise ValueError(f"expected 对/错, 正确/错误, T/F or true/false, found {key!r}")
        return value
    if q.kind is Kind.fill:
        blanks = [[f.strip() for f in b.split(";") if f.strip()] for b in key.split("|")]
        if not key or not all(blanks):
            raise ValueError("expected the answer of each blank, blanks separated by |")
        return blanks
    if q.kind is Kind.numerical:
        return [_numeric(v) for v in key.split("|")]
    if q.kind is Kind.matching:
        pairs = []
        for p in key.split("|"):
            if "->" not in p:
                raise ValueError(f"expected left -> right pairs separated by |, found {p.strip()!r}")
            left, right = p.split("->", 1)
            pairs.append([left.strip(), right.strip()])
        if sum(1 for left, _ in pairs if left) < 2:
            raise ValueError("expected at least two pairs")
        return pairs
    return key


def _dec(s: str) -> Decimal:
    try:
        return Decimal(s.strip())
    except InvalidOperation:
        raise ValueError(f"expected a number, found {s.strip()!r}") from None


def _numeric(v: str) -> list[str]:
    v = v.strip()
    if ".." in v:
        low, high = (_dec(x) for x in v.split("..", 1))
        return [str((low + high) / 2), str(abs(high - low) / 2)]
    # "3.14 ± 0.01": the first separator after the first character (a scan: a regex over the whole
    # cell, (.+?)\s*(?:±|\+/-|:)\s*(.+), backtracks over every space of a long cell)
    sep = _NUMBER_SEPARATOR.search(v, 1)
    if sep and (left := v[:sep.start()].rstrip()) and (right := v[sep.end():].lstrip()):
        return [str(_dec(left)), str(_dec(right))]
    return [str(_dec(v)), "0"]


def parse_xlsx(data: bytes, *, file: str) -> Parsed:
    return parse_rows(list(read_xlsx_rows(data, file=file)), file=file)


def parse_csv(text: str, *, file: str) -> Parsed:
    return parse_rows([("", read_csv_rows(text, file=file))], file=file)


def kind_name(kind: Kind) -> str:
    return TYPE_NAMES[kind][0]
