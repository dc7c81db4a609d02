"""Round trips: papers exported in a format and read back give back every fact that format claims, equal
after the normalisations docs/import-export.md lists and no others (property tests over generated papers:
CJK and full-width text, texts over several lines, each format's special characters, every kind).

The questions an export leaves out are the ones its summary names; everything it wrote must come back."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bank.formats.build import Item, Parsed, assemble
from bank.formats.files import FileFormat, export, parse_any
from bank.formats.summary import KEPT, ExportSummary
from bank.kinds import SUBJECTIVE, GradingMethod, Kind, MultiPolicy, ReviewOption
from bank.models import Paper, PaperSettings, Question

# every format's special characters (GIFT ~=#{}:\ and %, Aiken's "A." and "ANSWER:", XML <&, CSV ," and
# formula triggers = + - @ '), the separators of a sheet's keys (| ;) and GIFT's matching (->), slashes of a
# category path, CJK, full-width letters and punctuation, runs of spaces and line breaks
_CHARS = st.sampled_from(list("abcXYZ019 数据并行{}~=#:\\<>&'\"%-+@|;,/[]$．ＡＢ，。（）é\n") + ["->", "A. ", "ANSWER: ",
                                                                                         "\n  ", "  "])
TEXT = st.lists(_CHARS, min_size=1, max_size=10).map("".join).filter(lambda s: s.strip())
LINE = TEXT.map(lambda s: s.replace("\n", " "))
NUMBER = st.decimals(min_value=-1000, max_value=1000, places=2, allow_nan=False).map(lambda d: str(d.normalize()))
ALL = [Kind.single, Kind.multi, Kind.truefalse, Kind.fill, Kind.numerical, Kind.matching, Kind.short,
       Kind.discussion, Kind.case]


@st.composite
def question(draw, kinds=tuple(ALL)):
    kind = draw(st.sampled_from(kinds))
    q = Question(number=0, kind=kind, stem=draw(TEXT), answer="", explanation=draw(st.one_of(st.just(""), TEXT)),
                 topic=draw(st.one_of(st.just(""), TEXT)), points=draw(st.sampled_from([0.5, 1.0, 2.0, 5.0])))
    if kind in (Kind.single, Kind.multi):
        q.options = draw(st.lists(TEXT, min_size=2, max_size=6, unique_by=str.strip))
        n = len(q.options)
        if kind is Kind.single:
            q.answer = chr(65 + draw(st.integers(0, n - 1)))
        else:
            picks = draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=n))
            q.answer = "".join(chr(65 + i) for i in sorted(picks))
    elif kind is Kind.truefalse:
        q.answer = draw(st.booleans())
    elif kind is Kind.fill:
        q.answer = [draw(st.lists(TEXT, min_size=1, max_size=3, unique_by=str.strip))
                    for _ in range(draw(st.sampled_from([1, 1, 1, 2])))]
    elif kind is Kind.numerical:
        q.answer = [[draw(NUMBER), draw(st.sampled_from(["0", "0.5", "2"]))]]
    elif kind is Kind.matching:
        lefts = draw(st.lists(TEXT, min_size=2, max_size=4, unique_by=str.strip))
        q.answer = [[left, draw(TEXT)] for left in lefts]
    else:
        q.answer = draw(st.one_of(st.just(""), TEXT))
    return q


SETTINGS_ = st.builds(
    PaperSettings, time_limit_min=st.integers(1, 1440), attempts_allowed=st.one_of(st.none(), st.integers(1, 9)),
    grading_method=st.sampled_from(GradingMethod), multi_policy=st.sampled_from(MultiPolicy),
    exam_only=st.booleans(), shuffle_options=st.booleans(), invite_only=st.booleans(),
    review=st.one_of(st.none(), st.sampled_from([r.value for r in ReviewOption])),
    pass_percent=st.one_of(st.none(), st.sampled_from([50.0, 60.0, 72.5, 100.0])), signals=st.booleans(),
    signal_similar=st.sampled_from([50.0, 90.0, 95.5]), signal_fast=st.integers(1, 9), signal_late=st.integers(1, 9),
    signal_quick=st.sampled_from([10.0, 33.0, 99.5]))


@st.composite
def papers(draw, kinds=tuple(ALL)):
    """One to three papers as the bank stores them: a code each, a title, a subject, settings, sections."""
    out = []
    for i in range(draw(st.integers(1, 3))):
        items = [Item(q, f"q{j}", paper="x", section=draw(st.sampled_from(["", "一、选择题", "二/三", "/", "a  b"])))
                 for j, q in enumerate(draw(st.lists(question(kinds), min_size=1, max_size=6)))]
        [paper] = assemble(Parsed(items), file="b", stem=f"bank{i}", title="x")
        # a stored paper's settings never hold invite-only without exam-only (bank/paper_settings.py)
        s = draw(SETTINGS_)
        s.exam_only = s.exam_only or s.invite_only
        out.append(paper.model_copy(update={
            "title": draw(TEXT), "code": f"P{i + 1}", "subject": draw(st.one_of(st.just(""), TEXT)),
            "settings": s, "slug": f"bank-{i}"}))
    if len({" ".join(p.title.split()) for p in out}) < len(out):  # two papers of one title are one in a file
        out = out[:1]
    return out


# --- the normalisations docs/import-export.md lists, and no others ------------------------------------

def _lines(text: str) -> str:
    """GIFT reads each line of a text trimmed."""
    return "\n".join(line.strip() for line in text.strip().split("\n"))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def normalise(fmt: FileFormat, q: Question) -> dict:
    """What `fmt` gives back of `q`."""
    def text(s: str) -> str:
        return _lines(s) if fmt is FileFormat.gift else s.strip()

    answer = q.answer
    if isinstance(answer, str) and q.kind in SUBJECTIVE:
        answer = text(answer)
    elif isinstance(answer, list) and q.kind is not Kind.numerical:
        answer = [[text(x) for x in row] for row in answer]
    kind = Kind.short if fmt is FileFormat.xml and q.kind in SUBJECTIVE else q.kind
    out = {"kind": kind, "stem": text(q.stem), "options": [text(o) for o in q.options], "answer": answer}
    if fmt is not FileFormat.aiken:
        out |= {"explanation": text(q.explanation), "topic": q.topic.strip(), "points": q.points}
    if fmt in (FileFormat.xlsx, FileFormat.csv):
        out["difficulty"] = q.difficulty
    return out


def paper_facts(fmt: FileFormat, p: Paper) -> dict:
    title = _one_line(p.title) if fmt in (FileFormat.gift, FileFormat.xml) else p.title.strip()
    sections = [(_one_line(s.title) if fmt in (FileFormat.gift, FileFormat.xml) else s.title.strip())
                or s.kind for s in p.sections]
    return {"title": title, "code": p.code, "subject": p.subject.strip(), "settings": p.settings,
            "sections": sections}


def _write_read(tmp_path: Path, given: list[Paper], fmt: FileFormat) -> tuple[list[Paper], ExportSummary]:
    data, summary = export(given, fmt)
    if not summary.total:  # nothing the format holds: an empty file, which no reader takes
        return [], summary
    path = Path(tmp_path) / f"bank.{fmt.value}"
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return parse_any(path), summary


def _written(given: list[Paper], summary: ExportSummary) -> list[tuple[Paper, list[int], list[Question]]]:
    """Each paper, the places of its sections that hold written questions, and those questions."""
    left = {(x.paper, x.section, x.number) for x in summary.left_out if x.reason not in KEPT}
    out = []
    for p in given:
        places, questions = [], []
        for pos, s in enumerate(p.sections, start=1):
            kept = [q for q in s.questions if (p.code or p.title, pos, q.number) not in left]
            places += [pos] if kept else []
            questions += kept
        out.append((p, places, questions))
    return out


def _check(tmp_path: Path, given: list[Paper], fmt: FileFormat) -> None:
    back, summary = _write_read(tmp_path, given, fmt)
    written = [(p, places, qs) for p, places, qs in _written(given, summary) if qs]
    assert summary.total == sum(len(qs) for _, _, qs in written) == sum(len(p.questions()) for p in back)
    assert [(p.slug, [normalise(fmt, q) for q in qs]) for p, _, qs in written] == [
        (p.slug, [normalise(fmt, q) for q in p.questions()]) for p in back]
    for (p, places, _), b in zip(written, back, strict=True):
        expected = paper_facts(fmt, p)
        expected["sections"] = [expected["sections"][pos - 1] for pos in places]
        got = paper_facts(fmt, b)
        got["sections"] = [got["sections"][pos - 1] for pos in places]  # in their places: none renumbered
        assert got == expected
        assert all(not s.questions for pos, s in enumerate(b.sections, start=1) if pos not in places)


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


@SETTINGS
@given(papers())
def test_gift_round_trip(tmp_path, given):
    _check(tmp_path, given, FileFormat.gift)


@SETTINGS
@given(papers())
def test_moodle_xml_round_trip(tmp_path, given):
    _check(tmp_path, given, FileFormat.xml)


@SETTINGS
@given(papers(), st.sampled_from([FileFormat.xlsx, FileFormat.csv]))
def test_sheet_round_trip(tmp_path, given, fmt):
    _check(tmp_path, given, fmt)


@SETTINGS
@given(papers())
def test_json_round_trip_keeps_everything(tmp_path, given):
    given[0].questions()[0].feedback = ["f"] * max(1, len(given[0].questions()[0].options))
    given[-1].questions()[-1].name, given[-1].questions()[-1].difficulty = "name", "难"
    back, summary = _write_read(tmp_path, given, FileFormat.json)
    assert summary.left_out == []
    fields = ("kind", "stem", "options", "answer", "explanation", "topic", "points", "difficulty", "name", "weights",
              "feedback", "flags", "number")
    assert [[{f: getattr(q, f) for f in fields} for q in p.questions()] for p in back] == [
        [{f: getattr(q, f) for f in fields} for q in p.questions()] for p in given]
    assert [(p.slug, p.code, p.title, p.subject, p.settings, [s.title for s in p.sections]) for p in back] == [
        (p.slug, p.code, p.title, p.subject, p.settings, [s.title for s in p.sections]) for p in given]


@SETTINGS
@given(st.lists(question((Kind.single, Kind.multi, Kind.fill)), min_size=1, max_size=8))
def test_aiken_round_trip(tmp_path, questions):
    given = assemble(Parsed([Item(q, f"q{i}") for i, q in enumerate(questions)]), file="b", stem="bank", title="Bank")
    back, summary = _write_read(tmp_path, given, FileFormat.aiken)
    [(_, _, written)] = _written(given, summary)
    assert {q.kind for q in written} <= {Kind.single}
    assert summary.total == len(written)
    got = [normalise(FileFormat.aiken, q) for p in back for q in p.questions()]
    assert got == [normalise(FileFormat.aiken, q) for q in written]
    # Aiken has no points, explanation or topic, and no settings: a new paper is exam-only, review score
    assert all((q.points, q.explanation, q.topic) == (1.0, "", "") for p in back for q in p.questions())
    assert all(p.settings.exam_only and p.settings.review == ReviewOption.score for p in back)


def test_weights_and_feedback_survive_gift_and_xml(tmp_path):
    q = Question(number=0, kind=Kind.multi, stem="Pick", options=["a", "b", "c"], answer="AB",
                 weights=[0.6, 0.4, -1.0], feedback=["yes", "half", "no"], name="w")
    n = Question(number=0, kind=Kind.numerical, stem="N", answer=[["3", "0"], ["3", "1"], ["*", "0"]],
                 weights=[1.0, 0.5, 0.0], feedback=["", "close", "no"])
    t = Question(number=0, kind=Kind.truefalse, stem="T", answer=False, feedback=["bad", "good"])
    given = assemble(Parsed([Item(x, f"q{i}") for i, x in enumerate([q, n, t])]), file="b", stem="bank", title="Bank")
    fields = ("kind", "answer", "weights", "feedback", "name")
    for fmt in (FileFormat.gift, FileFormat.xml):
        back, _ = _write_read(tmp_path, given, fmt)
        assert [{f: getattr(x, f) for f in fields} for x in back[0].questions()] == [
            {f: getattr(x, f) for f in fields} for x in given[0].questions()]


def test_a_fill_in_blank_stays_as_written_in_gift(tmp_path):
    """The answer block goes after the whole stem: a blank of six underscores comes back as six, with no
    stray `_` (a missing-word block in its place would leave one)."""
    q = Question(number=0, kind=Kind.fill, stem="梯度累积是为了模拟更大的______。", answer=[["批次大小"]])
    given = assemble(Parsed([Item(q, "q0")]), file="b", stem="bank", title="Bank")
    data, _ = export(given, FileFormat.gift)
    assert "______。{=批次大小}" in str(data)
    back, _ = _write_read(tmp_path, given, FileFormat.gift)
    assert back[0].questions()[0].stem == q.stem
