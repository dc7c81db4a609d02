"""/bankstats <paper>: a row of figures for each question answered so far, and one line counting those
not answered yet, not a row of dashes for each."""

from bank.item_stats import ItemStats
from bank.paper_counts import Tally
from bank.paper_list import PaperSummary
from bank.question_ref import QuestionRef
from bot.leads.render import bankstats_paper

PAPER = PaperSummary(id=3, code="P3", slug="s", title="Sums", time_limit_min=30, attempts_allowed=None,
                     exam_only=False, invite_only=False, askable=3, max_score=3.0)


def _stats(seq: int, responses: int) -> ItemStats:
    facility = 0.5 if responses else None
    return ItemStats(question_id=seq, paper="Sums", section=1, number=seq, retired=False, responses=responses,
                     difficulty=facility, discrimination=None, section_title="填空题", ref=QuestionRef("P3", seq, seq))


def test_answered_questions_get_a_row_the_others_one_line_counting_them():
    for lang, counted in (("en", "2 questions not answered yet"), ("zh", "还有 2 道题尚无作答")):
        text, _ = bankstats_paper(PAPER, Tally(askable=3), [_stats(1, 0), _stats(2, 4), _stats(3, 0)], lang, None,
                                  curate=False)
        rows = [line for line in text.splitlines() if "p=" in line]
        assert len(rows) == 1 and "P3 · " in rows[0] and "p=0.50" in rows[0] and "n=4" in rows[0], text
        assert counted in text and "p=–" not in text
    text, _ = bankstats_paper(PAPER, Tally(askable=3), [_stats(1, 0), _stats(2, 4), _stats(3, 4)], "en", None,
                              curate=False)
    assert "1 question not answered yet" in text
    text, _ = bankstats_paper(PAPER, Tally(askable=3), [_stats(1, 2), _stats(2, 4), _stats(3, 4)], "en", None,
                              curate=False)
    assert "not answered yet" not in text and text.count("p=0.50") == 3
