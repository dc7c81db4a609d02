"""Round trips: a bank exported in a format and imported again gives back every question as far
as that format carries it (property tests over generated questions)."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bank.formats.build import Item, Parsed, assemble
from bank.formats.files import FileFormat, export, parse_any
from bank.kinds import Kind
from bank.models import Question

# texts with the characters each format must escape, and CJK; no leading/trailing blanks
_CHARS = st.sampled_from(list("abcXYZ019 数据并行{}~=#:\\<>&'\"%-+@|;") + ["é"])
TEXT = st.text(_CHARS, min_size=1, max_size=12).map(str.strip).filter(
    lambda s: s and "->" not in s and "|" not in s and ";" not in s and s[0] not in "'[" and "  " not in s)
NUMBER = st.decimals(min_value=-1000, max_value=1000, places=2, allow_nan=False).map(lambda d: str(d.normalize()))


@st.composite
def question(draw, kinds):
    kind = draw(st.sampled_from(kinds))
    stem = draw(TEXT)
    q = Question(number=0, kind=kind, stem=stem, answer="", explanation=draw(st.sampled_from(["", "why"])),
                 topic=draw(st.sampled_from(["", "algebra", "几何/三角"])))
    if kind in (Kind.single, Kind.multi):
        q.options = draw(st.lists(TEXT, min_size=2, max_size=6, unique=True))
        n = len(q.options)
        if kind is Kind.single:
            q.answer = chr(65 + draw(st.integers(0, n - 1)))
        else:
            picks = draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=n))
            q.answer = "".join(chr(65 + i) for i in sorted(picks))
    elif kind is Kind.truefalse:
        q.answer = draw(st.booleans())
    elif kind is Kind.fill:
        q.answer = [draw(st.lists(TEXT, min_size=1, max_size=3, unique=True))]
    elif kind is Kind.numerical:
        q.answer = [[draw(NUMBER), draw(st.sampled_from(["0", "0.5", "2"]))]]
    elif kind is Kind.matching:
        lefts = draw(st.lists(TEXT, min_size=2, max_size=4, unique=True))
        q.answer = [[left, draw(TEXT)] for left in lefts]
    else:
        q.answer = ""
    return q


def _bank(questions, tmp_path):
    papers = assemble(Parsed([Item(q, f"q{i}") for i, q in enumerate(questions)]),
                      file="b", stem="bank", title="Bank")
    return papers


def _roundtrip(papers, fmt, tmp_path):
    data, notes = export(papers, FileFormat(fmt))
    path = Path(tmp_path) / f"bank.{fmt if fmt != 'gift' else 'gift'}"
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return [q for p in parse_any(path) for q in p.questions()], notes


def _carried(q, fields):
    return {f: getattr(q, f) for f in fields}


ALL = [Kind.single, Kind.multi, Kind.truefalse, Kind.fill, Kind.numerical, Kind.matching, Kind.short]
CORE = ("kind", "stem", "options", "answer", "explanation", "topic")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(st.lists(question(ALL), min_size=1, max_size=8))
def test_gift_round_trip(tmp_path, questions):
    papers = _bank(questions, tmp_path)
    back, notes = _roundtrip(papers, "gift", tmp_path)
    assert notes == []
    assert [_carried(q, CORE) for q in back] == [_carried(q, CORE) for q in papers[0].questions()]


@SETTINGS
@given(st.lists(question(ALL), min_size=1, max_size=8))
def test_moodle_xml_round_trip(tmp_path, questions):
    papers = _bank(questions, tmp_path)
    back, _ = _roundtrip(papers, "xml", tmp_path)
    fields = (*CORE, "points")
    assert [_carried(q, fields) for q in back] == [_carried(q, fields) for q in papers[0].questions()]


@SETTINGS
@given(st.lists(question(ALL), min_size=1, max_size=8), st.sampled_from(["xlsx", "csv"]))
def test_sheet_round_trip(tmp_path, questions, fmt):
    papers = _bank(questions, tmp_path)
    back, _ = _roundtrip(papers, fmt, tmp_path)
    fields = (*CORE, "points", "difficulty")
    assert [_carried(q, fields) for q in back] == [_carried(q, fields) for q in papers[0].questions()]


@SETTINGS
@given(st.lists(question([Kind.single]), min_size=1, max_size=8))
def test_aiken_round_trip(tmp_path, questions):
    questions = [q for q in questions if q.options]
    papers = _bank(questions, tmp_path)
    back, _ = _roundtrip(papers, "aiken", tmp_path)
    fields = ("kind", "stem", "options", "answer")
    assert [_carried(q, fields) for q in back] == [_carried(q, fields) for q in papers[0].questions()]


def test_weights_and_feedback_survive_gift_and_xml(tmp_path):
    q = Question(number=0, kind=Kind.multi, stem="Pick", options=["a", "b", "c"], answer="AB",
                 weights=[0.6, 0.4, -1.0], feedback=["yes", "half", "no"], name="w")
    n = Question(number=0, kind=Kind.numerical, stem="N", answer=[["3", "0"], ["3", "1"], ["*", "0"]],
                 weights=[1.0, 0.5, 0.0], feedback=["", "close", "no"])
    t = Question(number=0, kind=Kind.truefalse, stem="T", answer=False, feedback=["bad", "good"])
    papers = _bank([q, n, t], tmp_path)
    fields = ("kind", "answer", "weights", "feedback", "name")
    for fmt in ("gift", "xml"):
        back, _ = _roundtrip(papers, fmt, tmp_path)
        assert [_carried(x, fields) for x in back] == [_carried(x, fields) for x in papers[0].questions()]


@SETTINGS
@given(st.lists(question(ALL), min_size=1, max_size=8))
def test_json_round_trip_keeps_everything(tmp_path, questions):
    questions[0].weights, questions[0].feedback = [], ["f"] * max(1, len(questions[0].options))
    questions[-1].name, questions[-1].difficulty = "name", "难"
    papers = _bank(questions, tmp_path)
    back, _ = _roundtrip(papers, "json", tmp_path)
    fields = (*CORE, "points", "difficulty", "name", "weights", "feedback", "flags")
    assert [_carried(q, fields) for q in back] == [_carried(q, fields) for q in papers[0].questions()]
