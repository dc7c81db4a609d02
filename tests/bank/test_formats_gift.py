"""GIFT: Moodle's documented examples import right, kind by kind; errors name the line."""

from pathlib import Path

import pytest

from bank.errors import ImportFailed
from bank.formats.build import BLANK
from bank.formats.files import parse_any
from bank.formats.gift import parse_gift
from bank.import_notes import english_note
from bank.kinds import Kind

FIXTURES = Path(__file__).resolve().parents[1] / "formats_fixtures"


@pytest.fixture(scope="module")
def docs():
    parsed = parse_gift((FIXTURES / "moodle_gift_docs.gift").read_text(encoding="utf-8"), file="docs.gift")
    return parsed, {it.question.name or it.question.stem: it for it in parsed.items}


def q(docs, key):
    return docs[1][key].question


def test_every_documented_question_is_read_and_the_description_reported(docs):
    parsed, _ = docs
    assert len(parsed.items) == 28
    assert [english_note(n) for n in parsed.notes] == ["line 64: no answer block {…}: a description, not a question; skipped"]


def test_truefalse_in_every_spelling(docs):
    assert (q(docs, "Q1").kind, q(docs, "Q1").answer, q(docs, "Q1").stem) == (Kind.truefalse, True, "1+1=2")
    assert q(docs, "Spellings").answer is True
    assert q(docs, "Spellings2").answer is False and q(docs, "Spellings3").answer is False
    assert q(docs, "Grant is buried in Grant's tomb.").answer is False
    tf = q(docs, "Grant was buried in a tomb in New York City.")
    # [feedback for "true", for "false"]: TRUE is right, so the second # goes with true
    assert tf.feedback == ["Right, it's in New York.", "Wrong, he was buried in New York."]


def test_multiple_choice_with_feedback(docs):
    x = q(docs, "Q2")
    assert (x.kind, x.options, x.answer, x.weights) == (Kind.single, ["yellow", "red", "blue"], "A", [])
    assert x.feedback == ["right; good!", "wrong, it's yellow", "wrong, it's yellow"]
    k = q(docs, "Kanji Origins")
    assert k.stem == "Japanese characters originally\ncame from what country?"
    assert (k.answer, k.feedback[:2]) == ("B", ["This is not right.", "Yes, from China."])


def test_missing_word_leaves_a_blank(docs):
    x = q(docs, "Grant is _____ in Grant's tomb.")
    assert (x.kind, x.answer, x.options) == (Kind.single, "B", ["buried", "entombed", "living"])
    fill = q(docs, "Q3")
    assert (fill.kind, fill.stem, fill.answer) == (Kind.fill, f"Two plus {BLANK} equals four.", [["two", "2"]])


def test_short_answer_forms_and_partial_credit(docs):
    assert q(docs, "Who's buried in Grant's tomb?").kind in (Kind.single, Kind.fill)
    x = q(docs, "Short credit")
    assert (x.answer, x.weights, x.feedback) == ([["Paris", "paris city"]], [1.0, 0.5], ["", "close enough"])


def test_multiple_answers_by_weights_including_negative(docs):
    x = q(docs, "What two people are entombed in Grant's tomb?")
    assert (x.kind, x.answer) == (Kind.multi, "BC")
    assert x.weights == [-1.0, 0.5, 0.5, -1.0]
    w = q(docs, "Weighted single")
    assert (w.kind, w.answer, w.weights) == (Kind.single, "A", [1.0, 0.5, 0.0])


def test_numerical_tolerance_range_and_several_answers(docs):
    assert q(docs, "Q5").answer == [["3", "2"]]
    assert q(docs, "Q6").answer == q(docs, "Q5").answer  # {#1..5} is {#3:2}
    q7 = q(docs, "Q7")
    assert (q7.kind, q7.answer, q7.weights) == (Kind.numerical, [["1822", "0"], ["1822", "2"]], [1.0, 0.5])
    assert q7.feedback == ["Correct! Full credit.", "He was born in 1822. Half credit for being close."]
    other = q(docs, "Numerical other")
    assert (other.answer, other.weights, other.feedback) == ([["3.14", "0.005"], ["*", "0"]], [1.0, 0.0],
                                                             ["", "Not quite."])


def test_matching_and_general_feedback(docs):
    x = q(docs, "Match the following countries with their corresponding capitals.")
    assert x.kind is Kind.matching
    assert x.answer == [["Canada", "Ottawa"], ["Italy", "Rome"], ["Japan", "Tokyo"], ["India", "New Delhi"]]
    assert x.explanation == "It's good to know the capitals"
    assert q(docs, "Q4").answer == [["cat", "cat food"], ["dog", "dog food"]]


def test_essay_escapes_formats_categories(docs):
    assert (q(docs, "Q8").kind, q(docs, "Q8").answer) == (Kind.short, "")
    assert q(docs, "Escapes").options == ["= 2 + 2", "= 2 + 3", "= 2 + 4"]
    b = q(docs, "Braces : and more")
    assert b.stem == "Write {x} with a backslash \\ and a hash # here."
    assert q(docs, "HTML").stem == "Which is bold text?" and q(docs, "HTML").options == ["this", "that"]
    assert q(docs, "Markdown").explanation == "The *stars* say so."
    assert q(docs, "New line").stem == "First line\nsecond line?"
    assert q(docs, "Q1").topic == "" and q(docs, "Escapes").topic == "Grant"


def test_questions_are_stored_in_papers_by_kind(tmp_path):
    papers = parse_any(FIXTURES / "moodle_gift_docs.gift")
    assert len(papers) == 1 and papers[0].slug == "moodle_gift_docs"
    kinds = [s.kind for s in papers[0].sections]
    assert len(kinds) == len(set(kinds)) and Kind.numerical in kinds and Kind.matching in kinds
    # numerical and matching are kept and asked like the other kinds
    new = [x for x in papers[0].questions() if x.kind in (Kind.numerical, Kind.matching)]
    assert new and all(x.askable for x in new)


@pytest.mark.parametrize("text, line, problem", [
    ("Q1 {=a ~b}\n\nQ2 {=a ~b\n", "line 3", "expected }"),
    ("::n:: Q {=a ~b} {=c}\n", "line 1", "one answer block"),
    ("// c\n\nQ {#abc}\n", "line 3", "expected a number"),
    ("Q {=a -> b}\n", "line 1", "at least two pairs"),
    ("Q } {=a}\n", "line 1", "one answer block"),
    # two questions with no blank line between them say so, and where the second starts (issue 22)
    ("// c\nQ1 {=a ~b}\nQ2 {=c ~d}\n", "line 2", "no blank line between this question and the next (line 3)"),
    ("::n1::\n[html]Q1 {\n=a\n~b\n}\n::n2:: Q2 {T}\n", "line 1",
     "no blank line between this question and the next (line 6)"),
])
def test_errors_name_the_line(text, line, problem):
    with pytest.raises(ImportFailed) as e:
        parse_gift(text, file="bad.gift")
    assert e.value.file == "bad.gift" and e.value.place == line and problem in e.value.problem


def test_numerical_and_matching_need_no_note():
    """The bot asks them now: the import notes only what it skipped."""
    paper = parse_any(FIXTURES / "moodle_gift_docs.gift")[0]
    assert [english_note(n) for n in paper.notes] == ["line 64: no answer block {…}: a description, not a question; skipped"]
