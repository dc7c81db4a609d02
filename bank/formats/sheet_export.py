"""Papers written as a spreadsheet (XLSX or CSV) in the template's columns, and the empty template."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Required, TypedDict

from bank.csv_safety import TRIGGERS, safe_cell
from bank.formats.build import effective_weights
from bank.formats.paper_facts import settings_text
from bank.formats.ref import ref_text
from bank.formats.sheet import COLUMNS, OPTION_LETTERS, kind_name
from bank.formats.summary import ExportSummary, Reason
from bank.kinds import CHOICE, Kind
from bank.models import Paper, Question

if TYPE_CHECKING:  # annotations only: openpyxl is imported where a workbook is written
    from openpyxl.cell import Cell
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet


class Example(TypedDict, total=False):
    """One example row of the template: the sheet's fields, the options as a list."""

    type: Required[Kind]
    stem: Required[str]
    options: list[str]
    answer: str
    explanation: str
    points: str
    difficulty: str
    topic: str
    paper: str
    section: str


_FIELDS = list(COLUMNS)
EXAMPLES: list[Example] = [  # one row per kind: the template's examples
    {"type": Kind.single, "stem": "FP16 的指数位有几位？", "options": ["5", "8", "10", "11"], "answer": "A",
     "explanation": "FP16：1 位符号、5 位指数、10 位尾数。", "points": "2", "difficulty": "易",
     "topic": "混合精度", "paper": "示例试卷", "section": "一、单项选择题"},
    {"type": Kind.multi, "stem": "哪些方法能减少显存占用？", "options": ["梯度检查点", "混合精度", "增大批次", "ZeRO"],
     "answer": "ABD", "explanation": "增大批次会增加显存占用。", "points": "3", "difficulty": "中",
     "topic": "显存", "paper": "示例试卷", "section": "二、多项选择题"},
    {"type": Kind.truefalse, "stem": "数据并行的每张卡都保存完整的模型参数。", "answer": "对",
     "explanation": "ZeRO 之前的数据并行如此。", "points": "1", "difficulty": "易", "topic": "并行",
     "paper": "示例试卷", "section": "三、判断题"},
    {"type": Kind.fill, "stem": "混合精度训练常用 ____ 和 ____ 两种精度。", "answer": "FP16;BF16|FP32",
     "explanation": "", "points": "2", "difficulty": "中", "topic": "混合精度", "paper": "示例试卷",
     "section": "四、填空题"},
    {"type": Kind.numerical, "stem": "7B 参数的模型以 FP16 存储约占多少 GB？", "answer": "14±0.5",
     "explanation": "7×10⁹ × 2 字节。", "points": "2", "difficulty": "中", "topic": "显存",
     "paper": "示例试卷", "section": "五、数值题"},
    {"type": Kind.matching, "stem": "将并行方式与切分对象配对。", "answer": "数据并行 -> 数据 | 张量并行 -> 矩阵 | 流水线并行 -> 层",
     "explanation": "", "points": "3", "difficulty": "中", "topic": "并行", "paper": "示例试卷",
     "section": "六、匹配题"},
    {"type": Kind.short, "stem": "简述梯度累积的作用。", "answer": "用多次小批次的梯度之和代替一次大批次的梯度，在显存有限时等效增大批次。",
     "explanation": "", "points": "5", "difficulty": "中", "topic": "训练", "paper": "示例试卷",
     "section": "七、简答题"},
    {"type": Kind.discussion, "stem": "论述数据并行、张量并行与流水线并行各自的适用场景。",
     "answer": "数据并行适合模型放得下单卡时；张量并行切分大矩阵；流水线并行按层切分，适合层数多的模型。",
     "explanation": "", "points": "10", "difficulty": "难", "topic": "并行", "paper": "示例试卷",
     "section": "八、论述题"},
    {"type": Kind.case, "stem": "某团队训练时出现 loss 为 NaN，请分析原因并给出排查步骤。",
     "answer": "检查学习率与 loss scale；检查数据中的异常值；开启梯度裁剪；逐层检查溢出。",
     "explanation": "", "points": "10", "difficulty": "难", "topic": "数值稳定性", "paper": "示例试卷",
     "section": "九、案例分析题"},
]


def _key(q: Question) -> str:
    a = q.answer
    if q.kind is Kind.truefalse:
        return "对" if a else "错"
    if q.kind is Kind.fill and isinstance(a, list):
        return "|".join(";".join(forms) for forms in a)
    if q.kind is Kind.numerical and isinstance(a, list):
        return "|".join(f"{v}±{t}" if t not in ("0", "") else v for v, t in a if v != "*")
    if q.kind is Kind.matching and isinstance(a, list):
        return " | ".join(f"{left} -> {right}" for left, right in a)
    return str(a)


def question_row(q: Question, paper: str, section: str, ref: str = "", *, code: str = "", subject: str = "",
                 settings: str = "") -> list[str]:
    row = {"type": kind_name(q.kind), "stem": q.stem, "answer": _key(q), "explanation": q.explanation,
           "points": f"{q.points:g}", "difficulty": q.difficulty, "topic": q.topic, "paper": paper,
           "section": section, "paper_code": code, "subject": subject, "settings": settings, "ref": ref}
    if q.kind in CHOICE:
        for letter, option in zip(OPTION_LETTERS, q.options, strict=False):
            row[f"option_{letter.lower()}"] = option
    return [row.get(f, "") for f in _FIELDS]


def _separators(q: Question) -> bool:
    """A key a 答案 cell cannot write: a fill-in's text holding `|` or `;` (they part blanks and forms), a
    matching pair holding `|` (it parts pairs) or `->` on its left (it parts left from right)."""
    rows = q.answer if isinstance(q.answer, list) else []
    if q.kind is Kind.fill:
        return any("|" in f or ";" in f for forms in rows for f in forms)
    if q.kind is Kind.matching:
        return any("|" in left or "|" in right or "->" in left for left, right in rows)
    return False


def rows(papers: list[Paper], summary: ExportSummary) -> list[list[str]]:
    """The header and a row per question (the paper's code and subject on each, its settings on its
    first); `summary` counts them and what a sheet cannot carry."""
    out = [[COLUMNS[f][0] for f in _FIELDS]]
    for p in papers:
        summary.started(p)
        settings = settings_text(p.settings)
        for pos, s in enumerate(p.sections, start=1):
            for q in s.questions:
                if q.kind in CHOICE and len(q.options) > len(OPTION_LETTERS):
                    summary.leave_out(p, pos, q.number, Reason.many_options)
                    continue
                if _separators(q):
                    summary.leave_out(p, pos, q.number, Reason.separators)
                    continue
                if q.weights and q.weights != effective_weights(q.model_copy(update={"weights": []})):
                    summary.leave_out(p, pos, q.number, Reason.weights)
                if q.feedback:
                    summary.leave_out(p, pos, q.number, Reason.feedback)
                out.append(question_row(q, p.title, s.title, ref_text(p.slug, pos, q), code=p.code,
                                        subject=p.subject, settings=settings))
                summary.wrote(p)
                settings = ""
    return out


def template_rows() -> list[list[str]]:
    out = [[COLUMNS[f][0] for f in _FIELDS]]
    for ex in EXAMPLES:
        row = {k: v for k, v in ex.items() if k not in ("type", "options") and isinstance(v, str)}
        row["type"] = kind_name(ex["type"])
        for letter, option in zip(OPTION_LETTERS, ex.get("options", []), strict=False):
            row[f"option_{letter.lower()}"] = option
        out.append([row.get(f, "") for f in _FIELDS])
    return out


def to_csv(table: list[list[str]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for row in table:
        w.writerow([_csv_cell(c.strip()) for c in row])  # the reader trims a cell before it takes the guard off
    return buf.getvalue()


def _csv_cell(text: str) -> object:
    """A cell that cannot run as a formula (bank/csv_safety.py) and reads back as written: a text that
    starts with quotes before a trigger gets one more, which the reader takes off (sheet._unguard)."""
    if text.lstrip("'")[:1] in TRIGGERS and text[:1] == "'":
        return "'" + text
    return safe_cell(text)


def to_xlsx(table: list[list[str]]) -> bytes:
    from openpyxl import Workbook  # heavy: loaded only when a workbook is written

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("题库")
    for row in table:
        # cells are written as text: a leading = is a string, never a formula
        ws.append([_text_cell(ws, c) for c in row])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _text_cell(ws: WriteOnlyWorksheet, value: str) -> Cell:
    from openpyxl.cell import WriteOnlyCell  # heavy: loaded only when a workbook is written

    cell = WriteOnlyCell(ws, value=value)
    cell.data_type = "s"
    return cell
