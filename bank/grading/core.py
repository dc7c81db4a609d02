"""grade(): one entry point that sends an answer to the grader for its kind."""

from __future__ import annotations

from bank.grading.choice import grade_multi, grade_single, grade_truefalse
from bank.grading.fill import grade_fill
from bank.grading.matching import grade_matching
from bank.grading.numerical import grade_numerical
from bank.grading.result import Grade
from bank.grading.subjective import grade_subjective
from bank.kinds import Kind, MultiPolicy
from bank.models import Question


def grade(question: Question, response: object, *, multi_policy: MultiPolicy = MultiPolicy.partial) -> Grade:
    """Grade `response` to `question`; never raises for any response.

    Unrecognised replies score 0 with verdict wrong; a key the grader cannot read gives
    needs_review; subjective kinds always give a provisional score with needs_review
    (an empty subjective answer is simply wrong).
    """
    match question.kind:
        case Kind.single:
            return grade_single(question, response)
        case Kind.multi:
            return grade_multi(question, response, MultiPolicy(multi_policy))
        case Kind.truefalse:
            return grade_truefalse(question, response)
        case Kind.fill:
            return grade_fill(question, response)
        case Kind.numerical:
            return grade_numerical(question, response)
        case Kind.matching:
            return grade_matching(question, response, MultiPolicy(multi_policy))
        case _:
            return grade_subjective(question, response)
