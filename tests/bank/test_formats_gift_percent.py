"""GIFT has no escape for `%`: an option or accepted answer whose text starts with `%` must not be
read back as a `%n%` weight (found by the round-trip property test)."""

import pytest

from bank.formats.build import Item, Parsed, assemble
from bank.formats.gift import parse_gift
from bank.formats.gift_export import to_gift
from bank.formats.summary import ExportSummary
from bank.kinds import Kind
from bank.models import Question

CORE = ("kind", "stem", "options", "answer", "weights")


def _round_trip(q: Question) -> tuple[str, list[Question]]:
    papers = assemble(Parsed([Item(q, "q0")]), file="b", stem="bank", title="Bank")
    summary = ExportSummary()
    text = to_gift(papers, summary)
    assert summary.left_out == [] and summary.total == 1
    parsed = parse_gift(text, file="bank.gift")
    return text, [item.question for item in parsed.items]


def _fields(q: Question) -> dict[str, object]:
    return {f: getattr(q, f) for f in CORE}


@pytest.mark.parametrize("q, written", [
    # a wrong option that looks like a weight: the 0 weight is written out before it
    (Question(number=0, kind=Kind.single, stem="s", options=["%0%", "b"], answer="B"), "~%0%%0%"),
    # the right option of a single choice: Moodle reads no weight after "=", nor do we
    (Question(number=0, kind=Kind.single, stem="s", options=["%0%", "b"], answer="A"), "=%0%"),
    (Question(number=0, kind=Kind.multi, stem="s", options=["%50%x", "b", "c"], answer="AB"), "~%50%%50%x"),
    # accepted answers of a fill-in: the full weight is written out
    (Question(number=0, kind=Kind.fill, stem="s", answer=[["%0%0"]]), "=%100%%0%0"),
    (Question(number=0, kind=Kind.fill, stem="s", answer=[["%0%"]]), "=%100%%0%"),
    (Question(number=0, kind=Kind.fill, stem="s", answer=[["a", "%-25%b"]]), "=%100%%-25%b"),
    # `%` inside the text needs nothing
    (Question(number=0, kind=Kind.fill, stem="s", answer=[["1%0%"]]), "{=1%0%}"),
])
def test_text_starting_with_percent_round_trips(q: Question, written: str) -> None:
    text, back = _round_trip(q)
    assert written in text
    assert [_fields(b) for b in back] == [_fields(q)]
