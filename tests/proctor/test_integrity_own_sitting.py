"""A candidate's written answer is compared with other candidates' answers, never with their own
earlier sitting of the paper (found in review after issue 25: a second sitting with the same
answer was flagged "similar" to itself)."""

from proctor.exams import integrity
from proctor.exams.visibility import OPERATOR, lens
from proctor.integrity.signals import Signal
from tests.proctor.test_integrity_signals import COPIED, T0, WRITTEN, _paper, sit_exam


async def test_a_second_sitting_with_the_same_answer_is_not_a_signal_a_copy_by_another_is(db):
    pid = await _paper(db)
    first = await sit_exam(db, pid, 7, short=WRITTEN, start=T0, step=60)
    second = await sit_exam(db, pid, 7, short=WRITTEN, start=T0 + 3600, step=60)
    assert await integrity.counts(db, [first, second]) == {}
    cy = await sit_exam(db, pid, 9, short=COPIED, start=T0 + 7200, step=60)
    assert (await integrity.counts(db, [cy]))[cy] == {Signal.similar: 2}  # like both of Ann's sittings
    assert {e.other_user_id for e in (await integrity.evidence(db, [cy], await lens(db, OPERATOR, None)))[cy]} == {7}
