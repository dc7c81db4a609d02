"""What a file says of a paper (bank/formats/paper_facts.py): GIFT and Moodle XML categories name a
paper and a section in an exported file and a topic in a hand-written one; the settings line."""

from __future__ import annotations

import pytest

from bank.errors import ImportFailed
from bank.formats.files import parse_bytes
from bank.formats.paper_facts import category_path, read_category, read_settings, settings_text
from bank.models import PaperSettings

HAND_XML = b"""<?xml version="1.0"?><quiz>
<question type="category"><category><text>$course$/top/P1 Algebra/Linear</text></category></question>
<question type="truefalse"><name><text>t</text></name><questiontext><text>One is odd.</text></questiontext>
<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
<tags><tag><text>odd</text></tag></tags></question></quiz>"""

HAND_GIFT = b"""$CATEGORY: $course$/top/P1 Algebra/Linear

One is odd. {T}
"""

EXPORTED_GIFT = """$CATEGORY: $course$/top/P4 Algebra/Linear

// subject: numbers
// settings: time=45; exam-only=on; review=sections

// ref: alg/s2/q3/v1
// points: 2.5
// topic: parity
One is odd. {T}
"""


@pytest.mark.parametrize("name, data", [("hand.xml", HAND_XML), ("hand.gift", HAND_GIFT)])
def test_a_hand_written_file_reads_its_categories_as_topics(name, data):
    [paper] = parse_bytes(data, name)
    assert (paper.title, paper.code, paper.subject, paper.settings) == ("hand", "", "", PaperSettings())
    [q] = paper.questions()
    assert q.topic == "P1 Algebra/Linear"  # as Moodle means it: the tag is not read here


def test_an_exported_gift_file_names_its_paper_section_and_facts():
    [paper] = parse_bytes(EXPORTED_GIFT.encode(), "bank.gift")
    assert (paper.slug, paper.code, paper.title, paper.subject) == ("alg", "P4", "Algebra", "numbers")
    assert paper.settings == PaperSettings(time_limit_min=45, exam_only=True, review="sections")
    # the section keeps its place (2) and the question its number (3): an empty first section holds the place
    assert [s.title for s in paper.sections] == ["", "Linear"] and paper.sections[0].questions == []
    [q] = paper.questions()
    assert (q.number, q.points, q.topic) == (3, 2.5, "parity")


def test_a_bad_settings_line_is_refused_naming_its_line():
    with pytest.raises(ImportFailed, match=r"line 4: its // settings: line: the time limit is a whole number of minutes"):
        parse_bytes(EXPORTED_GIFT.replace("time=45", "time=0").encode(), "bank.gift")
    with pytest.raises(ImportFailed, match=r"expected settings as key=value"):
        parse_bytes(EXPORTED_GIFT.replace("time=45", "colour=red").encode(), "bank.gift")


def test_every_setting_round_trips_through_its_line():
    s = PaperSettings(time_limit_min=90, attempts_allowed=None, grading_method="last", multi_policy="weighted",
                      exam_only=True, invite_only=True, shuffle_options=False, review=None, pass_percent=72.5,
                      signals=False, signal_similar=95.5, signal_fast=4, signal_late=5, signal_quick=20.0)
    assert read_settings(settings_text(s)) == s
    assert read_settings("") == PaperSettings()


@pytest.mark.parametrize("title, section", [("a/b", "c"), ("a/", "/b"), ("/", "x//y"), ("P 1", "一、选择题")])
def test_a_category_path_names_its_paper_and_section_whatever_slashes_they_hold(title, section):
    assert read_category(category_path("P3", title, section)) == ("P3", title, section)
    assert read_category(category_path("", title, section)) == ("", title, section)
