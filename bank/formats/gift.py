"""Moodle's GIFT format, read into the bank's questions.

Everything the Moodle documentation describes: `//` comment lines, `$CATEGORY:` lines (they set
the topic of the questions after them), `::name::`, `[html]`/`[markdown]`/`[plain]`/`[moodle]`
text formats (HTML is reduced to plain text), the escapes `\\~ \\= \\# \\{ \\} \\:` and `\\\\`
(and `\\n` for a new line), `#` feedback per answer and `####` general feedback (the
explanation), `%50%` weights (negative too), missing-word questions (the answer block inside the
text leaves a blank), and every kind: multiple choice (one or several right answers), true/false
(T, F, TRUE, FALSE), short answer (several forms, % credit), numerical (`{#3:2}`, `{#1..5}`,
several answers with credit, `~#` feedback for any other number), matching (`=a -> b`) and essay
(`{}`). A block with no answer (a Moodle "description") is not a question: it is reported by
line and skipped.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from bank.errors import ImportFailed
from bank.formats.build import BLANK, Item, Parsed, category_place, keep_weights, round_weight
from bank.formats.html_text import html_to_text
from bank.formats.paper_facts import from_one_line, read_settings
from bank.formats.ref import read_ref
from bank.import_notes import note
from bank.kinds import SUBJECTIVE, Kind
from bank.models import Question
from bank.option_order import LETTERS, MAX_OPTIONS

# escaped characters stand in the private use area while the structure is parsed
_ESCAPES = {"\\\\": "\ue000", "\\~": "\ue001", "\\=": "\ue002", "\\#": "\ue003", "\\{": "\ue004",
            "\\}": "\ue005", "\\:": "\ue006"}
_RESTORE = str.maketrans({v: k[1] for k, v in _ESCAPES.items()})
_ESCAPE_RE = re.compile(r"\\[\\~=#{}:]")
_NAME = re.compile(r"^\s*::(.*?)::", re.DOTALL)
_FORMAT = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]", re.IGNORECASE)
_WEIGHT = re.compile(r"^\s*%(-?\d+(?:\.\d+)?)%")
_TRUEFALSE = re.compile(r"^(T|F|TRUE|FALSE)\s*(#|$)", re.IGNORECASE)
# comment lines an export writes (bank/formats/gift_export.py): `// key: value`
_COMMENT = re.compile(r"^\s*//\s*(ref|points|topic|kind|reference|subject|settings):(.*)$")
_REF_LINE = re.compile(r"^[^\S\n]*//[^\S\n]*ref:", re.MULTILINE)


def looks_like_gift(text: str) -> bool:
    r"""An answer block `{...}`: a `{` on some line that is not a comment, and a `}` after it.

    A scan, not a regex: `^(?!\s*//).*\{[^}]*\}` backtracked over every `{` of a line, each time
    looking for a `}` to the end of the text (a line of 300,000 `{` took 34 s).
    """
    start = 0
    while (brace := text.find("{", start)) >= 0:
        line_start = text.rfind("\n", start, brace) + 1 or start
        if not text[line_start:brace].lstrip().startswith("//"):
            return text.find("}", brace) >= 0
        start = text.find("\n", brace) + 1  # a comment: the next line
        if start == 0:
            return False
    return False


def parse_gift(text: str, *, file: str) -> Parsed:
    """Items and notes from a GIFT file. Raises ImportFailed naming the line.

    A file the bank exported (its questions carry `// ref:` lines) names a paper and a section in each
    category (`$course$/top/P3 title/section`, bank/formats/paper_facts.py) and a question's topic,
    points, kind and reference answer in comment lines; in any other file a category is the topic of
    the questions after it, as Moodle means it."""
    out = Parsed()
    exported = _REF_LINE.search(text) is not None
    topic, paper, section = "", "", ""
    for line_no, block, comments in _blocks(text):
        first, _, rest = block.partition("\n")
        if first.strip().startswith("$CATEGORY:"):
            path = first.strip()[len("$CATEGORY:"):]
            topic, paper, section, code = category_place(path, exported)
            if code is not None:
                out.paper_facts(paper).code = code
            if not rest.strip():
                _paper_comments(out, paper, comments, file=file)
                continue
            block, line_no = rest, line_no + 1
        _paper_comments(out, paper, comments, file=file)
        q = _question(block, file=file, line=line_no, out=out)
        if q is None:
            continue
        q.topic = from_one_line(comments["topic"][1]) if "topic" in comments else topic
        try:
            read_ref(q, comments.get("ref", (0, ""))[1])
            _question_comments(q, {k: v for k, (_, v) in comments.items()})
        except ValueError as e:
            raise ImportFailed(file, f"line {line_no}", f"its comment lines: {e}") from None
        out.items.append(Item(q, f"line {line_no}", paper=paper, section=section))
    return out


def _paper_comments(out: Parsed, paper: str, comments: Comments, *, file: str) -> None:
    facts = out.paper_facts(paper)
    if "subject" in comments:
        facts.subject = from_one_line(comments["subject"][1])
    if "settings" in comments:
        line, text = comments["settings"]
        try:
            facts.settings = read_settings(text)
        except ValueError as e:
            raise ImportFailed(file, f"line {line}", f"its // settings: line: {e}") from None


def _question_comments(q: Question, comments: dict[str, str]) -> None:
    """Points, kind and reference answer from an export's comment lines. Raises ValueError."""
    if "points" in comments:
        try:
            q.points = float(comments["points"])
        except ValueError:
            raise ValueError(f"// points: takes a number, found {comments['points'].strip()!r}") from None
        if not q.points >= 0:
            raise ValueError("// points: takes a number of 0 or more")
    if "kind" in comments and q.kind is Kind.short:
        name = comments["kind"].strip()
        if name not in (Kind.discussion, Kind.case, Kind.short):
            raise ValueError(f"// kind: is discussion or case, found {name!r}")
        q.kind = Kind(name)
    if "reference" in comments and q.kind in SUBJECTIVE:
        q.answer = from_one_line(comments["reference"])


Comments = dict[str, tuple[int, str]]  # an export's comment lines before a question: key -> (line, value)


def _blocks(text: str) -> list[tuple[int, str, Comments]]:
    """(first line number, text, comments) of each question: runs of lines between blank lines, with
    the comment lines taken out; an export's comment lines before a question (`// ref: …`, `// points:
    …`: `_COMMENT`) are its comments."""
    blocks: list[tuple[int, str, Comments]] = []
    lines: list[str] = []
    start = 0
    comments: Comments = {}
    pending: Comments = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("//"):
            if m := _COMMENT.match(line):
                pending[m.group(1)] = (n, m.group(2).strip())
            continue
        if not line.strip():
            if lines:
                blocks.append((start, "\n".join(lines), comments))
                lines = []
            continue
        if not lines:
            start, comments, pending = n, pending, {}
        lines.append(line)
    if lines:
        blocks.append((start, "\n".join(lines), comments))
    return blocks


def _next_question_line(raw: str, close_at: int) -> int | None:
    """Lines after the block's first line where another question starts, when the text after this
    question's answer block holds a line break and then a whole answer block of its own: two
    questions with no blank line between them."""
    after = raw[close_at + 1:]
    brk = after.find("\n")
    if brk < 0:
        return None
    rest = after[brk + 1:]
    open_at = rest.find("{")
    if open_at < 0 or rest.find("}", open_at) < 0:
        return None
    first = len(rest) - len(rest.lstrip())  # the next question's first character
    return raw[:close_at + 1 + brk + 1 + first].count("\n")


def _unescape(s: str) -> str:
    return s.translate(_RESTORE)


def _text(s: str, fmt: str) -> str:
    s = _unescape(s.replace("\\n", "\n"))  # escaped backslashes are placeholders by now
    if fmt == "html":
        return html_to_text(s)
    return "\n".join(line.strip() for line in s.strip().split("\n"))


def _question(block: str, *, file: str, line: int, out: Parsed) -> Question | None:
    raw = _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], block)
    name = ""
    skipped = 0  # lines of the block before `raw`: a later line is reported by its number in the file
    m = _NAME.match(raw)
    if m:
        name = _text(m.group(1), "plain")
        skipped += raw[:m.end()].count("\n")
        raw = raw[m.end():]
    fmt = "moodle"
    m = _FORMAT.match(raw)
    if m:
        fmt = m.group(1).lower()
        skipped += raw[:m.end()].count("\n")
        raw = raw[m.end():]
    open_at = raw.find("{")
    if open_at < 0:
        if "}" in raw:
            raise ImportFailed(file, f"line {line}", "a } with no { before it (write \\} for a brace)")
        out.notes.append(note("description_skipped", f"line {line}"))
        return None
    close_at = raw.find("}", open_at)
    if close_at < 0:
        raise ImportFailed(file, f"line {line}", "expected } to close the answer block")
    if (second := _next_question_line(raw, close_at)) is not None:
        raise ImportFailed(file, f"line {line}", f"no blank line between this question and the next (line "
                                                 f"{line + skipped + second}): GIFT needs one between questions")
    if ("}" in raw[:open_at] or "{" in raw[open_at + 1:close_at] or "{" in raw[close_at + 1:]
            or "}" in raw[close_at + 1:]):
        raise ImportFailed(file, f"line {line}",
                           "expected one answer block {…} per question (write \\{ \\} for braces)")
    head, body, tail = raw[:open_at], raw[open_at + 1:close_at], raw[close_at + 1:]
    # missing word: the blank takes the block's place, spacing as written
    stem = _text(head + BLANK + tail if tail.strip() else head, fmt)
    explanation = ""
    if "####" in body:
        body, general = body.split("####", 1)
        explanation = _text(general, fmt)
    q = _answers(body.strip(), stem=stem, fmt=fmt, file=file, line=line, out=out)
    if q is not None:
        q.name, q.explanation = name, explanation
    return q


def _split(body: str, marks: str, *, lenient: bool = False) -> list[tuple[str, str]]:
    """(mark, text) for each answer in `body`, each starting with one of `marks` (with
    `lenient`, text before the first mark is an answer too, as Moodle reads `{two}`)."""
    parts = re.split(f"([{re.escape(marks)}])", body)
    if parts[0].strip() and lenient:
        parts = ["", "", *parts]
    elif parts[0].strip():
        raise ValueError(f"expected each answer to start with {' or '.join(marks)}: {parts[0].strip()!r}")
    return [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


def _weight_and_feedback(s: str, fmt: str, *, weighted: bool = True) -> tuple[float | None, str, str]:
    weight = None
    m = _WEIGHT.match(s) if weighted else None
    if m:
        weight = float(m.group(1)) / 100
        s = s[m.end():]
    s, _, feedback = s.partition("#")
    return weight, _text(s, fmt), _text(feedback, fmt)


def _answers(body: str, *, stem: str, fmt: str, file: str, line: int, out: Parsed) -> Question | None:
    place = f"line {line}"
    try:
        if not body:
            return Question(number=0, kind=Kind.short, stem=stem, answer="")
        if body.startswith("#"):
            return _numerical(body[1:], stem, fmt)
        if "~" in body:
            return _choice(body, stem, fmt, out, place)
        if "=" in body and "->" in body:
            return _matching(body, stem, fmt)
        if _TRUEFALSE.match(body):
            return _truefalse(body, stem, fmt)
        return _short(body, stem, fmt)
    except ValueError as e:
        raise ImportFailed(file, place, str(e)) from e


def _choice(body: str, stem: str, fmt: str, out: Parsed, place: str) -> Question | None:
    options, weights, feedback = [], [], []
    for mark, s in _split(body, "=~"):
        # after "=" Moodle reads no weight: the answer is right and "%50%x" is its text
        w, text, fb = _weight_and_feedback(s, fmt, weighted=mark == "~")
        options.append(text)
        weights.append(w if w is not None else (1.0 if mark == "=" else 0.0))
        feedback.append(fb)
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"{len(options)} options; expected at most {MAX_OPTIONS} (A–Z)")
    single = "=" in [m for m, _ in _split(body, "=~")]
    if single:
        best = max(weights)
        key = LETTERS[weights.index(best)] if best > 0 else ""
        kind = Kind.single
    else:
        key = "".join(LETTERS[i] for i, w in enumerate(weights) if w > 0)
        kind = Kind.multi if len(key) != 1 else Kind.single
    if not key:
        out.notes.append(note("no_credit_skipped", place))
        return None
    q = Question(number=0, kind=kind, stem=stem, options=options, answer=key)
    q.weights = keep_weights(q, weights)
    q.feedback = feedback if any(feedback) else []
    return q


def _truefalse(body: str, stem: str, fmt: str) -> Question:
    value, *comments = body.split("#")
    key = value.strip().upper() in ("T", "TRUE")
    wrong = _text(comments[0], fmt) if comments else ""
    right = _text(comments[1], fmt) if len(comments) > 1 else ""
    # feedback per answer, as Moodle stores it: [for "true", for "false"]
    feedback = [right, wrong] if key else [wrong, right]
    return Question(number=0, kind=Kind.truefalse, stem=stem, answer=key,
                    feedback=feedback if any(feedback) else [])


def _short(body: str, stem: str, fmt: str) -> Question:
    forms, weights, feedback = [], [], []
    for _, s in _split(body, "=", lenient=True):
        w, text, fb = _weight_and_feedback(s, fmt)
        if not text:
            raise ValueError("an empty accepted answer")
        forms.append(text)
        weights.append(round_weight(w if w is not None else 1.0))
        feedback.append(fb)
    q = Question(number=0, kind=Kind.fill, stem=stem, answer=[forms])
    q.weights = [] if all(w == 1.0 for w in weights) else weights
    q.feedback = feedback if any(feedback) else []
    return q


def _matching(body: str, stem: str, fmt: str) -> Question:
    pairs = []
    for _, s in _split(body, "="):
        if "->" not in s:
            raise ValueError(f"expected left -> right in a matching answer: {_unescape(s).strip()!r}")
        left, right = s.split("->", 1)
        pairs.append([_text(left, fmt), _text(right, fmt)])
    if sum(1 for left, _ in pairs if left) < 2:
        raise ValueError("a matching question needs at least two pairs")
    return Question(number=0, kind=Kind.matching, stem=stem, answer=pairs)


def _number(s: str) -> Decimal:
    try:
        return Decimal(s.strip())
    except InvalidOperation:
        raise ValueError(f"expected a number, found {_unescape(s).strip()!r}") from None


def _value(s: str) -> list[str]:
    """[value, tolerance] from "3:2", "1..5" or "3"."""
    s = _unescape(s).strip()
    if ".." in s:
        low, high = (_number(x) for x in s.split("..", 1))
        return [str((low + high) / 2), str(abs(high - low) / 2)]
    if ":" in s:
        value, tolerance = s.split(":", 1)
        return [str(_number(value)), str(_number(tolerance))]
    return [str(_number(s)), "0"]


def _numerical(body: str, stem: str, fmt: str) -> Question:
    body, tilde, other = body.partition("~")
    answers, weights, feedback = [], [], []
    parts = _split(body, "=") if body.strip().startswith("=") else [("=", body)]
    for _, s in parts:
        w, _, fb = _weight_and_feedback(s, fmt)
        s = _WEIGHT.sub("", s, count=1).partition("#")[0]
        answers.append(_value(s))
        weights.append(round_weight(w if w is not None else 1.0))
        feedback.append(fb)
    if tilde:  # "~#feedback": what any other number gets
        w, _, fb = _weight_and_feedback(other, fmt)
        answers.append(["*", "0"])
        weights.append(round_weight(w or 0.0))
        feedback.append(fb)
    q = Question(number=0, kind=Kind.numerical, stem=stem, answer=answers)
    q.weights = [] if all(w == 1.0 for w in weights) else weights
    q.feedback = feedback if any(feedback) else []
    return q
