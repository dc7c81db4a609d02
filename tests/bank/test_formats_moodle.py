"""Moodle XML and Aiken: the documented shapes import right; the rest is reported by line."""

from pathlib import Path

import pytest

from bank.errors import ImportFailed
from bank.formats.aiken import parse_aiken
from bank.formats.files import detect, parse_any
from bank.formats.moodle_xml import parse_moodle_xml
from bank.import_notes import english_note
from bank.kinds import Flag, Kind

FIXTURES = Path(__file__).resolve().parents[1] / "formats_fixtures"


@pytest.fixture(scope="module")
def quiz():
    parsed = parse_moodle_xml((FIXTURES / "moodle_quiz.xml").read_text(encoding="utf-8"), file="quiz.xml")
    return parsed, {it.question.name: it for it in parsed.items}


def test_xml_every_supported_type(quiz):
    parsed, by = quiz
    assert [it.question.kind for it in parsed.items] == [
        Kind.single, Kind.multi, Kind.truefalse, Kind.fill, Kind.numerical, Kind.matching, Kind.short]
    cap = by["Capital"].question
    assert (cap.stem, cap.options, cap.answer) == ("What is the capital of France?",
                                                   ["Paris", "Lyon", "Paris, France"], "A")
    assert (cap.weights, cap.feedback, cap.points) == ([1.0, 0.0, 0.5], ["Right.", "No.", ""], 2.0)
    assert cap.explanation == "Paris & nowhere else." and cap.topic == "Defaults/Geography"
    rivers = by["Rivers"].question
    assert (rivers.answer, rivers.weights) == ("AB", [])  # 50/50/-100 is what the key implies
    moon = by["Moon"].question
    assert (moon.answer, moon.feedback) == (False, ["Sadly not.", "Right, rock."])
    sky = by["Sky"].question
    assert (sky.answer, sky.weights, sky.feedback) == ([["blue", "light blue"]], [1.0, 0.5], ["Yes.", ""])
    pi = by["Pi"].question
    assert (pi.answer, pi.weights, pi.points) == ([["3.14", "0.005"], ["3.1", "0.05"]], [1.0, 0.5], 3.0)
    assert by["Capitals"].question.answer == [["Canada", "Ottawa"], ["Italy", "Rome"], ["", "Sydney"]]
    assert by["Essay"].question.answer == "Rayleigh scattering."
    assert by["Capital"].place == "line 7"


def test_xml_unsupported_types_reported_by_line(quiz):
    parsed, _ = quiz
    assert [english_note(n) for n in parsed.notes] == ["line 63: a description, not a question; skipped",
                            "line 67: a question of type cloze, which the bank cannot hold yet; skipped",
                            "line 71: a question of type calculated, which the bank cannot hold yet; skipped"]


def test_xml_entities_are_refused():
    bomb = ('<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
            "<quiz><question type=\"essay\"><questiontext><text>&b;</text></questiontext></question></quiz>")
    with pytest.raises(ImportFailed, match="entities are not read"):
        parse_moodle_xml(bomb, file="bomb.xml")
    external = ('<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                "<quiz><question type=\"essay\"><questiontext><text>&x;</text></questiontext></question></quiz>")
    with pytest.raises(ImportFailed):
        parse_moodle_xml(external, file="ext.xml")


def test_xml_errors_name_the_line():
    with pytest.raises(ImportFailed) as e:
        parse_moodle_xml('<?xml version="1.0"?>\n<quiz>\n<question type="essay">\n</quiz>', file="b.xml")
    assert e.value.place == "line 4" and "not well-formed" in e.value.problem
    bad = ('<quiz>\n<question type="numerical"><questiontext><text>x</text></questiontext>\n'
           '<answer fraction="100"><text>abc</text></answer></question></quiz>')
    with pytest.raises(ImportFailed) as e:
        parse_moodle_xml(bad, file="b.xml")
    assert e.value.place == "line 2" and "expected a number" in e.value.problem


def test_aiken_fixture():
    parsed = parse_aiken((FIXTURES / "moodle_aiken.txt").read_text(encoding="utf-8"), file="a.txt")
    got = [(it.place, it.question.answer, len(it.question.options)) for it in parsed.items]
    assert got == [("line 1", "A", 2), ("line 6", "D", 4), ("line 13", "A", 6)]
    assert parsed.items[1].question.options[3] == "Must be this one!"
    assert detect(FIXTURES / "moodle_aiken.txt", (FIXTURES / "moodle_aiken.txt").read_bytes()) == "aiken"


def test_aiken_key_naming_no_option_is_a_warning_and_never_asked():
    parsed = parse_aiken("Q?\nA. x\nB. y\nANSWER: E\n", file="a.txt")
    q = parsed.items[0].question
    assert Flag.no_answer in q.flags and not q.askable
    assert [english_note(n) for n in parsed.notes] == ["line 1: the key 'E' names no option; kept, never asked"]


@pytest.mark.parametrize("text, place, problem", [
    ("Q?\nA. x\nC. y\nANSWER: A\n", "line 3", "expected option B"),
    ("Q?\nA. x\nB. y\n", "line 1", "no ANSWER"),
    ("Q?\nANSWER: A\n", "line 2", "at least two options"),
])
def test_aiken_errors_name_the_line(text, place, problem):
    with pytest.raises(ImportFailed) as e:
        parse_aiken(text, file="a.txt")
    assert e.value.place == place and problem in e.value.problem


def test_detect_by_extension_and_content(tmp_path):
    xml = tmp_path / "quiz.txt"
    xml.write_text((FIXTURES / "moodle_quiz.xml").read_text(encoding="utf-8"), encoding="utf-8")
    assert detect(xml, xml.read_bytes()) == "xml"
    gift = tmp_path / "g.txt"
    gift.write_text("::a:: Two plus two? {=4}\n", encoding="utf-8")
    assert detect(gift, gift.read_bytes()) == "gift"
    assert [p.questions()[0].answer for p in parse_any(gift)] == [[["4"]]]
