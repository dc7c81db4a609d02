"""What a result card shows beyond the totals: a mark per question, and passed or not."""

from __future__ import annotations

from bank.grading.result import Verdict
from proctor.exams.model import AnswerRec, Item, Result

MARKS = {Verdict.correct: "✓", Verdict.wrong: "✗", Verdict.partial: "½", Verdict.needs_review: "📝"}
UNANSWERED = "–"
PER_LINE = 10


def question_marks(items: list[Item], answers: dict[int, AnswerRec]) -> list[str]:
    """Per question, in paper order: ✓ right, ✗ wrong, ½ partly, 📝 awaiting review, – unanswered."""
    return [MARKS.get(answers[i.pos].verdict, "?") if i.pos in answers else UNANSWERED for i in items]


def grid_lines(items: list[Item], answers: dict[int, AnswerRec]) -> list[str]:
    """The marks as lines of ten: "1✓ 2✗ 3½ …"."""
    cells = [f"{n}{m}" for n, m in enumerate(question_marks(items, answers), 1)]
    return [" ".join(cells[i:i + PER_LINE]) for i in range(0, len(cells), PER_LINE)]


def outcome(result: Result, pass_percent: float | None) -> str | None:
    """'passed', 'failed', or 'pending' (answers awaiting review could still change it) against the
    paper's pass mark; None for a paper without one."""
    if pass_percent is None:
        return None
    needed = result.max_score * pass_percent / 100
    if result.score - result.provisional + 1e-9 >= needed:  # what no review can take away
        return "passed"
    return "pending" if result.pending_review else "failed"
