"""The seed paper format: exam text scraped from a document site, parsed into a Paper.

The text is messy (see bank/seeds): Simplified or Traditional, pinyin readings after characters,
site notices, sometimes no line breaks at all. Parsing goes: clean the whole text (readings,
noise), cut it at section headers, cut each section into questions, then read each question's
stem, options, key and explanation, and repair or flag garbled characters field by field.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, field

import opencc

from bank.errors import ImportFailed
from bank.models import CHOICE, OBJECTIVE, SUBJECTIVE, Flag, Kind, Paper, Question, Section, Source
from bank.text.clean import Garble, normalise_newlines, remove_noise, repair_garble, strip_readings, tidy

DEFAULT_POINTS = {
    Kind.fill: 1.0, Kind.single: 2.0, Kind.multi: 2.0, Kind.truefalse: 2.0,
    Kind.short: 5.0, Kind.discussion: 10.0, Kind.case: 10.0,
}
# Matched against the Simplified form of a header's name; order matters (多项选择 before 选择).
_KIND_WORDS = [
    ("案例", Kind.case), ("填空", Kind.fill), ("多项选择", Kind.multi), ("多选", Kind.multi),
    ("单项选择", Kind.single), ("单选", Kind.single), ("选择", Kind.single),
    ("判断", Kind.truefalse), ("是非", Kind.truefalse), ("简答", Kind.short), ("问答", Kind.short),
    ("讨论", Kind.discussion), ("论述", Kind.discussion),
]
_NUMERALS = "一二三四五六七八九十"
_HEADER = re.compile(
    r"(?P<num>十?[一二三四五六七八九十])\s*[、.．]\s*(?P<name>[^\s、，。：:（()）\d]{1,14}?[题題])"
    r"\s*(?:[（(](?P<meta>[^）)\n]{0,40})[）)])?"
)
_ANSWER = re.compile(r"(?:參考|参考)?答案\s*[：:]")
_EXPLANATION = re.compile(r"解析\s*[：:]")
_TF_OPTIONS = re.compile(r"(?:正確|正确|對|对)\s*[（(]\s*[)）]\s*(?:不正確|不正确|錯誤|错误|錯|错)\s*[（(]\s*[)）]")
_TF_INLINE = re.compile(r"[（(]\s*([√×✓✗✔✘xX对错對錯])\s*[)）]\s*$")
_EMPTY_PARENS = re.compile(r"\s*[（(]\s*[)）]\s*$")
_CHOICE_INLINE = re.compile(r"[（(]\s*([A-Ga-g]{1,7})\s*[)）]")
_BLANK = re.compile(r"_{2,}|＿{2,}")
_CASE_MARK = re.compile(r"案例\s*(\d+)\s*[.．、:：]?")
_TRUE = {"√", "✓", "✔", "对", "對", "正确", "正確", "是", "T", "TRUE", "Y"}
_FALSE = {"×", "✗", "✘", "X", "错", "錯", "错误", "錯誤", "不正确", "不正確", "否", "F", "FALSE", "N"}
_TERMINAL = tuple("。！？.!?）)」』”\"…$；;")

_t2s = opencc.OpenCC("t2s")


@dataclass
class _Raw:
    """A question as cut from the text, before its fields are read."""

    number: int
    stem: str
    answer: str | None = None
    explanation: str | None = None


@dataclass
class _Ctx:
    file: str
    notes: list[str] = field(default_factory=list)

    def fail(self, place: str, problem: str) -> ImportFailed:
        return ImportFailed(self.file, place, problem)


def slug_for(path_stem: str, title: str) -> str:
    """A stable ASCII slug: the file's name when it is ASCII, else a hash of the title."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", path_stem.lower()).strip("-")
    if len(slug) >= 3 and path_stem.isascii():
        return slug
    return "paper-" + hashlib.sha1(title.encode()).hexdigest()[:10]


def parse_seed_text(text: str, *, file: str, slug: str) -> Paper:
    """Parse one paper in the seed format. Raises ImportFailed naming the place."""
    ctx = _Ctx(file)
    if not text.strip():
        raise ctx.fail("line 1", "the file is empty")
    text = strip_readings(remove_noise(normalise_newlines(text)))
    if not text.strip():
        raise ctx.fail("line 1", "nothing but the document site's notices")
    headers = _find_headers(text)
    if not headers:
        raise ctx.fail("line 1", "no section header such as 一、单项选择题（每题2分，共20分）")
    title = _title(text[: headers[0][0].start()])
    if not title:
        raise ctx.fail("line 1", "no title before the first section header")
    title, state = repair_garble(title)
    if state is Garble.corrupted:
        ctx.notes.append("the title holds garbled characters")

    sections: list[Section] = []
    wheres = [f"section {m.group('num')}" for m, _ in headers]
    for i, (m, kind) in enumerate(headers):
        end = headers[i + 1][0].start() if i + 1 < len(headers) else len(text)
        body = text[m.end():end]
        last_section = i + 1 == len(headers)
        sections.append(_parse_section(ctx, wheres[i], m, kind, body, last_section, slug, i + 1))

    _mark_truncation(ctx, wheres[-1], sections[-1])
    for where, s in zip(wheres, sections, strict=True):
        found = len(s.questions)
        if s.declared_count is not None and found != s.declared_count:
            ctx.notes.append(f"{where} ({s.title}): declares {s.declared_count} questions, "
                             f"found {found}")
    return Paper(slug=slug, title=title, source_file=file, sections=sections, notes=ctx.notes)


def _find_headers(text: str) -> list[tuple[re.Match, Kind]]:
    """Section headers in order; numerals must run 一, 二, 三... so stray matches are skipped."""
    found: list[tuple[re.Match, Kind]] = []
    for m in _HEADER.finditer(text):
        kind = _kind_of(m.group("name"))
        if kind is None or _numeral_value(m.group("num")) != len(found) + 1:
            continue
        found.append((m, kind))
    return found


def _kind_of(name: str) -> Kind | None:
    simple = _t2s.convert(name)
    for word, kind in _KIND_WORDS:
        if word in simple:
            return kind
    return None


def _numeral_value(num: str) -> int:
    if num.startswith("十"):
        return 10 + (_NUMERALS.index(num[1]) + 1 if len(num) > 1 else 0)
    return _NUMERALS.index(num) + 1


def _title(head: str) -> str:
    lines = [line for line in tidy(head).split("\n") if line]
    return lines[0] if lines else ""


def _header_meta(meta: str | None) -> tuple[float | None, int | None]:
    if not meta:
        return None, None
    each = re.search(r"每[题題小]*\s*(\d+(?:\.\d+)?)\s*分", meta)
    count = re.search(r"共\s*(\d+)\s*[题題道小]", meta)
    total = re.search(r"共\s*(\d+(?:\.\d+)?)\s*分", meta)
    points = float(each.group(1)) if each else None
    declared = int(count.group(1)) if count else None
    if declared is None and points and total:
        n = float(total.group(1)) / points
        declared = int(n) if n == int(n) else None
    return points, declared


# ---------------------------------------------------------------- cutting a section into questions

def _parse_section(ctx: _Ctx, where: str, header: re.Match, kind: Kind, body: str,
                   last_section: bool, slug: str, pos: int) -> Section:
    title = tidy(header.group(0))
    points, declared = _header_meta(header.group("meta"))
    if points is None:
        ctx.notes.append(f"{where} ({title}): points per question not given, "
                         f"default {DEFAULT_POINTS[kind]:g}")
    if kind is Kind.case and _CASE_MARK.search(body):
        raws = _cut_cases(body)
    else:
        raws = _cut_questions(ctx, where, body, kind)
    if last_section and len(raws) > 1 and not tidy(raws[-1].stem) and raws[-1].answer is None:
        raws.pop()  # the file ends right after a question number: nothing to keep
        ctx.notes.append(f"{where}, question {len(raws) + 1}: cut off before its text, dropped")
    if not raws:
        raise ctx.fail(where, f"the section header {title} has no questions under it")
    questions = [
        _build(ctx, f"{where}, question {r.number}", kind, r, points or DEFAULT_POINTS[kind])
        for r in raws
    ]
    for q in questions:
        q.source = Source(paper=slug, section=pos, number=q.number)
    _flag_missing_explanations(questions)
    section = Section(kind=kind, title=title, points_each=points, declared_count=declared,
                      questions=questions)
    _check_keys(ctx, where, section, last_section)
    return section


@functools.lru_cache(maxsize=512)
def _marker(n: int) -> re.Pattern:
    return re.compile(rf"(?<![\d.]){n}\s*[.．、](?!\d)")


def _line_start(text: str, pos: int) -> bool:
    while pos > 0 and text[pos - 1] in " \t":
        pos -= 1
    return pos == 0 or text[pos - 1] == "\n"


def _find_marker(text: str, n: int, start: int = 0, *, last: bool = False,
                 end: int | None = None) -> re.Match | None:
    """The "n." that starts a numbered item: at a line start when the text has lines."""
    hits = list(_marker(n).finditer(text, start, len(text) if end is None else end))
    if not hits:
        return None
    at_line = [h for h in hits if _line_start(text, h.start())]
    pool = at_line if (at_line and "\n" in text) else hits
    return pool[-1] if last else pool[0]


def _cut_numbered(text: str, first: int = 1) -> list[tuple[int, str]]:
    """Items "1.…2.…3.…" in order; stops at the first missing number."""
    items, n, m = [], first, _find_marker(text, first)
    while m is not None:
        nxt = _find_marker(text, n + 1, m.end())
        items.append((n, text[m.end(): nxt.start() if nxt else len(text)].strip()))
        n, m = n + 1, nxt
    return items


def _cut_questions(ctx: _Ctx, where: str, body: str, kind: Kind) -> list[_Raw]:
    anchors = list(_ANSWER.finditer(body))
    block = _key_block(body, anchors)
    if block is not None:
        return _cut_with_key_block(ctx, where, body, block)
    if anchors:
        return _cut_at_answers(ctx, where, body, anchors)
    return [_Raw(n, stem) for n, stem in _cut_numbered(body)]


def _key_block(body: str, anchors: list[re.Match]) -> re.Match | None:
    """The one "答案：1.D2.A…" after all the questions of a section, if the section has one."""
    if len(anchors) != 1:
        return None
    a = anchors[0]
    if not re.match(r"\s*1\s*[.．、]", body[a.end():]):
        return None
    return a if _find_marker(body, 2, end=a.start()) else None


def _cut_with_key_block(ctx: _Ctx, where: str, body: str, anchor: re.Match) -> list[_Raw]:
    raws = [_Raw(n, stem) for n, stem in _cut_numbered(body[: anchor.start()])]
    rest = body[anchor.end():]
    exp = _EXPLANATION.search(rest)
    keys = dict(_cut_numbered(rest[: exp.start()] if exp else rest))
    explanations = dict(_cut_numbered(rest[exp.end():])) if exp else {}
    for r in raws:
        r.answer = keys.get(r.number)
        r.explanation = explanations.get(r.number)
    extra = sorted(set(keys) - {r.number for r in raws})
    if extra:
        raise ctx.fail(f"{where}, key block", f"keys for questions {extra} that the section does not have")
    return raws


def _cut_at_answers(ctx: _Ctx, where: str, body: str, anchors: list[re.Match]) -> list[_Raw]:
    """Inline keys: "1.stem 答案：key 2.stem 答案：key". Between two "答案：" stand the first
    question's key (maybe with numbered lines of its own) and the next stem, which starts at
    the last "n." of the stretch."""
    first = _find_marker(body, 1, end=anchors[0].start())
    if first is None:
        raise ctx.fail(f"{where}, question 1", "no question numbered 1 before the first 答案")
    raws = [_Raw(1, body[first.end(): anchors[0].start()])]
    for i, a in enumerate(anchors):
        end = anchors[i + 1].start() if i + 1 < len(anchors) else len(body)
        stretch = body[a.end(): end]
        n = raws[-1].number + 1
        if i + 1 < len(anchors):
            m = _find_marker(stretch, n, last=True)
            if m is None:
                raise ctx.fail(f"{where}, question {n}",
                               f"no question numbered {n} between two answers (after question {n - 1})")
        else:
            m = _find_marker(stretch, n, last=True)
            # numbered lines inside the last key ("1.…2.…") are part of it, not questions
            if m is not None and _find_marker(stretch, 1, end=m.start()) is not None:
                m = None
        raws[-1].answer = stretch[: m.start()] if m else stretch
        if m is not None:
            raws.append(_Raw(n, stretch[m.end():]))
    return raws


def _cut_cases(body: str) -> list[_Raw]:
    marks = list(_CASE_MARK.finditer(body))
    raws = []
    for i, m in enumerate(marks):
        chunk = body[m.end(): marks[i + 1].start() if i + 1 < len(marks) else len(body)]
        raws.append(_split_case(len(raws) + 1, chunk))
    return raws


def _split_case(number: int, chunk: str) -> _Raw:
    """Scenario and sub-questions, then the reference answer: after "參考答案：" if labelled,
    else where the numbering of the sub-questions starts again at 1."""
    a = _ANSWER.search(chunk)
    if a:
        return _Raw(number, chunk[: a.start()], chunk[a.end():])
    q = re.search(r"問題\s*[：:]|问题\s*[：:]", chunk)
    start = q.end() if q else 0
    ones = [h for h in _marker(1).finditer(chunk, start)
            if _line_start(chunk, h.start()) or "\n" not in chunk.strip()]
    if len(ones) >= 2:
        return _Raw(number, chunk[: ones[1].start()], chunk[ones[1].start():])
    return _Raw(number, chunk)


# ---------------------------------------------------------------- reading one question

def _build(ctx: _Ctx, where: str, kind: Kind, raw: _Raw, points: float) -> Question:
    answer_text = raw.answer
    explanation = raw.explanation or ""
    if answer_text is not None and not explanation:
        e = _EXPLANATION.search(answer_text)
        if e:
            answer_text, explanation = answer_text[: e.start()], answer_text[e.end():]
    stem = raw.stem
    options: list[str] = []
    answer: bool | str | list[list[str]]
    flags: list[str] = []

    if kind in CHOICE:
        stem, options = _split_options(stem)
        if answer_text is None:
            inline = list(_CHOICE_INLINE.finditer(stem))
            if inline:
                answer_text = inline[-1].group(1)
                stem = stem[: inline[-1].start()] + "（）" + stem[inline[-1].end():]
        answer = _choice_key(answer_text)
    elif kind is Kind.truefalse:
        stem = _TF_OPTIONS.sub("", stem)
        inline = _TF_INLINE.search(stem.strip())
        if answer_text is None and inline:
            answer_text = inline.group(1)
        stem = _TF_INLINE.sub("", stem.strip())
        stem = _EMPTY_PARENS.sub("", stem)
        answer = _tf_key(answer_text)
    elif kind is Kind.fill:
        answer = _fill_key(ctx, where, stem, answer_text)
    else:
        answer = tidy(answer_text or "")

    stem, state = _repair(tidy(stem))
    states = [state]
    fixed_options = []
    for o in options:
        o, s = _repair(o)
        fixed_options.append(o)
        states.append(s)
    explanation, s = _repair(tidy(explanation))
    states.append(s)
    if isinstance(answer, str):
        answer, s = _repair(answer)
        states.append(s)
    elif isinstance(answer, list):
        fixed = []
        for blank in answer:
            alts = []
            for alt in blank:
                alt, s = _repair(alt)
                alts.append(alt)
                states.append(s)
            fixed.append(alts)
        answer = fixed
    if Garble.corrupted in states:
        flags.append(Flag.corrupted.value)
    elif Garble.repaired in states:
        flags.append(Flag.repaired.value)
    if answer in ("", [], None) or (answer_text is None and kind in OBJECTIVE):
        flags.append(Flag.no_answer.value)
        if answer is None:
            answer = False
    if not stem:
        raise ctx.fail(where, "the question has no text")
    return Question(number=raw.number, kind=kind, stem=stem, options=fixed_options, answer=answer,
                    explanation=explanation, points=points, flags=flags)


def _repair(text: str) -> tuple[str, Garble]:
    return repair_garble(text)


def _split_options(text: str, letters: str = "ABCDEFG") -> tuple[str, list[str]]:
    """Stem and option texts: "A.…B.…" glued or one per line, possibly split over lines."""
    marks: list[re.Match] = []
    for letter in letters:
        pattern = re.compile(rf"{letter}\s*[.．、]")
        start = marks[-1].end() + 1 if marks else 0
        hits = list(pattern.finditer(text, start))
        if not marks:
            at_line = [h for h in hits if _line_start(text, h.start())]
            hits = at_line or hits
        if not hits:
            break
        marks.append(hits[0])
    if len(marks) < 2:
        return text, []
    options = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        options.append(" ".join(tidy(text[m.end(): end]).split("\n")))
    return text[: marks[0].start()], options


def _choice_key(text: str | None) -> str:
    if text is None:
        return ""
    t = re.sub(r"[\s,，、]", "", tidy(text))
    m = re.match(r"[A-Ga-g]+", t)
    return "".join(sorted(set(m.group(0).upper()))) if m else ""


def _tf_key(text: str | None) -> bool | None:
    if text is None:
        return None
    t = re.sub(r"[\s（）()。.]", "", tidy(text)).upper()
    for word in sorted(_TRUE | _FALSE, key=len, reverse=True):
        if t.startswith(word.upper()):
            return word in _TRUE
    return None


def _fill_key(ctx: _Ctx, where: str, stem: str, text: str | None) -> list[list[str]]:
    if text is None:
        return []
    answer = " ".join(tidy(text).split("\n")).strip().rstrip("。；;")
    if not answer:
        return []
    blanks = len(_BLANK.findall(stem)) or 1
    if blanks > 1 and not answer.startswith("$"):
        parts = [p.strip() for p in re.split(r"[、；;，,]", answer) if p.strip()]
        if len(parts) == blanks:
            return [_alternatives(p) for p in parts]
        ctx.notes.append(f"{where}: {blanks} blanks but the key has {len(parts)} parts")
    return [_alternatives(answer)]


def _alternatives(answer: str) -> list[str]:
    """"X（或Y）" -> [X, Y]; "X（Y）" -> [X（Y）, X, Y]; LaTeX is never split."""
    if answer.startswith("$"):
        return [answer]
    m = re.fullmatch(r"(.+?)\s*[（(]\s*或\s*(.+?)\s*[)）]", answer)
    if m:
        return [m.group(1), m.group(2)]
    m = re.fullmatch(r"(.+?)\s*（\s*(.+?)\s*）", answer)
    if m:
        return [answer, m.group(1), m.group(2)]
    return [answer]


# ---------------------------------------------------------------- checks over the whole paper

def _flag_missing_explanations(questions: list[Question]) -> None:
    """Where a section explains some questions, the ones it leaves unexplained are flagged."""
    if any(q.explanation for q in questions):
        for q in questions:
            if not q.explanation:
                q.flags.append(Flag.no_explanation.value)


def _check_keys(ctx: _Ctx, where: str, section: Section, last_section: bool) -> None:
    """An objective question without a usable key cannot be imported, unless the file ends in
    its section (the cut-off question is flagged later)."""
    for q in section.questions:
        place = f"{where}, question {q.number}"
        problem = _key_problem(q)
        if problem and not last_section:
            raise ctx.fail(place, problem)


def _key_problem(q: Question) -> str | None:
    if q.kind in CHOICE:
        if len(q.options) < 2:
            return "no options A., B., … found"
        if not q.answer:
            return "no key (答案) for this question"
        if any(ord(c) - ord("A") >= len(q.options) for c in q.answer):
            return f"the key {q.answer} names an option the question does not have"
        if q.kind is Kind.single and len(q.answer) != 1:
            return f"a single-choice question with the key {q.answer}"
    elif q.kind is Kind.truefalse:
        if Flag.no_answer in q.flags or not isinstance(q.answer, bool):
            return "no true/false key (答案：√/×, 正確/錯誤) for this question"
    elif q.kind is Kind.fill and Flag.no_answer in q.flags:
        return "no key (答案) for this blank"
    return None


def _mark_truncation(ctx: _Ctx, where: str, section: Section) -> None:
    """The file ends mid-question when its last question is incomplete: flag it, never ask it.
    In the last section a key block cut off with the file leaves questions flagged no_answer."""
    last = section.questions[-1]
    if _looks_cut(last):
        last.flags.append(Flag.truncated.value)
        ctx.notes.append(f"{where}, question {last.number}: cut off at the end of the file")
    for q in section.questions:
        if Flag.truncated in q.flags or Flag.no_answer in q.flags:
            continue
        problem = _key_problem(q)
        if problem:
            raise ctx.fail(f"{where}, question {q.number}", problem)


def _looks_cut(q: Question) -> bool:
    if Flag.no_answer in q.flags or _key_problem(q):
        return True
    if q.kind in SUBJECTIVE:
        return not str(q.answer).rstrip().endswith(_TERMINAL)
    return bool(q.explanation) and not q.explanation.rstrip().endswith(_TERMINAL)
