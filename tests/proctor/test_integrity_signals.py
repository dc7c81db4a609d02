"""Integrity signals: the rules as pure functions, and their computation at the hand-in on a real SQLite file."""

import csv
import io
import statistics
from zoneinfo import ZoneInfo

import pytest

from bank.kinds import Kind
from proctor.exams import integrity
from proctor.exams import service as attempts
from proctor.exams.visibility import OPERATOR, lens
from proctor.integrity.signals import (
    MIN_FLOOR,
    SIMILAR_KEPT,
    Signal,
    Thresholds,
    Timed,
    fast_answers,
    late_changes,
    normalise,
    quick_hand_in,
    reading_floor,
    similar_to,
    summary,
)
from proctor.people.forget import forget_user
from proctor.people.users import ensure_user
from proctor.teams.curation import write_settings
from proctor.teams.leaderboard import period_bounds
from proctor.teams.reports import team_csv
from tests.answering import answer
from tests.papers_fixture import save_paper, small_paper
from tests.reads import lead_lens


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
WRITTEN = "梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将梯度进行累加，等到若干步后再统一更新。"
# the same answer copied, in Traditional characters with other punctuation and one character changed
COPIED = "梯度累積是在每次前向傳播計算損失後 不立即更新模型參數 而是將梯度進行累加 等到若干步後才統一更新!"
OWN = "把几个小批次的梯度加在一起再更新参数，相当于用更大的批次训练，显存不够时很有用。"


# ---- the rules -------------------------------------------------------------------------------------

def _timed(pos: int, taken: float, *, correct: bool = True, changes: int = 0, at: float = T0,
           shown: str = "Which of these is a prime number?") -> Timed:
    return Timed(pos=pos, kind=Kind.single, shown=shown, typed="", correct=correct, shown_at=at - taken,
                 answered_at=at, changes=changes)


def test_reading_floor_grows_with_the_question_and_has_a_minimum():
    assert reading_floor(Kind.truefalse, "Yes?") == MIN_FLOOR
    english = reading_floor(Kind.single, " ".join(["word"] * 100))  # 100 words at 500 a minute
    assert english == pytest.approx(12.0)
    chinese = reading_floor(Kind.single, "梯" * 150)  # 150 characters at 900 a minute
    assert chinese == pytest.approx(10.0)
    # a typed answer adds its typing; a button adds nothing
    assert reading_floor(Kind.fill, "梯" * 150, "x" * 16) == pytest.approx(12.0)
    assert reading_floor(Kind.single, "梯" * 150, "x" * 16) == pytest.approx(10.0)


def test_fast_right_answers_are_a_signal_only_from_the_threshold_on():
    fast = [_timed(p, 0.5) for p in range(3)]
    slow_or_wrong = [_timed(3, 30.0), _timed(4, 0.5, correct=False)]
    assert [f.pos for f in fast_answers(fast + slow_or_wrong, Thresholds(fast=3))] == [0, 1, 2]
    assert fast_answers(fast + slow_or_wrong, Thresholds(fast=4)) == []
    # an answer with no recorded screen time (an attempt from before the upgrade) is never timed
    unknown = [Timed(p, Kind.single, "Q?", "", True, None, T0, 0) for p in range(5)]
    assert fast_answers(unknown, Thresholds(fast=1)) == []


def test_late_changes_count_changed_answers_in_the_last_seconds():
    end = T0 + 600
    changed_late = [_timed(p, 40, changes=1, at=end - 5) for p in range(3)]
    first_late = [_timed(3, 40, changes=0, at=end - 5)]  # answered late but never changed
    changed_early = [_timed(4, 40, changes=2, at=end - 300)]
    assert len(late_changes(changed_late + first_late + changed_early, end, Thresholds(late=3))) == 3
    assert late_changes(changed_late[:2] + first_late + changed_early, end, Thresholds(late=3)) == []


def test_quick_hand_in_against_the_papers_median():
    others = [1000.0, 900.0, 1100.0, 1000.0, 950.0]
    mid = statistics.median(others)
    found = quick_hand_in(200.0, len(others), mid, Thresholds(quick=33))
    assert found is not None and found.bound == 1000.0
    assert quick_hand_in(400.0, len(others), mid, Thresholds(quick=33)) is None
    assert quick_hand_in(400.0, len(others), mid, Thresholds(quick=50)) is not None
    # too few attempts for a median
    assert quick_hand_in(10.0, 4, statistics.median(others[:4]), Thresholds()) is None
    assert quick_hand_in(10.0, 0, None, Thresholds()) is None


def test_normalised_answers_compare_across_scripts_and_punctuation():
    assert normalise("數據 並行!") == normalise("数据并行") == "数据并行"
    assert normalise("Gradient, Accumulation.") == "gradientaccumulation"


def test_similar_written_answers_over_the_threshold_only():
    others = [(11, 6, normalise(WRITTEN)), (12, 6, normalise(OWN))]
    hits = similar_to(normalise(COPIED), others, Thresholds(similar=90))
    assert [(h.other_attempt_id, h.other_pos) for h in hits] == [(11, 6)] and hits[0].value >= 90
    assert similar_to(normalise(COPIED), others, Thresholds(similar=100)) == []
    assert similar_to("tcp", [(11, 6, "tcp")], Thresholds()) == []  # too short to mean anything


def test_an_answer_keeps_only_its_closest_matches_closest_first():
    near = (99, 6, normalise(COPIED))
    copies = [near] + [(100 + k, 6, normalise(WRITTEN)) for k in range(SIMILAR_KEPT + 3)]
    hits = similar_to(normalise(WRITTEN), copies, Thresholds(similar=80))
    assert len(hits) == SIMILAR_KEPT and all(h.value == 100 for h in hits)  # the exact copies, not the near one
    both = similar_to(normalise(WRITTEN), [near, copies[1]], Thresholds(similar=80))
    assert [h.other_attempt_id for h in both] == [100, 99] and both[0].value > both[1].value >= 80


def test_summary_is_short_codes_with_counts():
    assert summary({Signal.fast: 3, Signal.similar: 1}) == "similar:1 fast:3"
    assert summary({}) == ""


# ---- at the hand-in, on a real database --------------------------------------------------------------

async def _paper(db) -> int:
    pid = await save_paper(db, small_paper(), T0)
    for uid, name in ((7, "Ann"), (8, "Bob"), (9, "Cy")):
        await ensure_user(db, uid, name, None, 0)
    return pid


async def sit_exam(db, pid: int, user_id: int, *, short: str, start: float, step: float, wrong: bool = False,
               end: float | None = None) -> int:
    """One exam, every question answered (right unless `wrong`) `step` seconds after it came on screen."""
    a = await attempts.start_attempt(db, user_id=user_id, chat_id=user_id, paper_id=pid, mode="exam", now=start,
                                     shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    now = start
    for item in sheet.items:
        q = sheet.question(item)
        key = {"single": "D" if wrong else q.answer, "multi": q.answer, "truefalse": q.answer,
               "fill": "、".join(b[0] for b in q.answer) if isinstance(q.answer, list) else None,
               "short": short}[q.kind.value]
        now += step
        await answer(db, a.id, item.pos, key, now)
    done = await attempts.finish_attempt(db, a.id, end if end is not None else now + 5, "submitted")
    assert done is not None
    return a.id


async def test_two_candidates_with_the_same_written_answer_are_flagged_honest_ones_not(db):
    pid = await _paper(db)
    ann = await sit_exam(db, pid, 7, short=WRITTEN, start=T0, step=60)
    bob = await sit_exam(db, pid, 8, short=OWN, start=T0, step=60)
    assert await integrity.counts(db, [ann, bob]) == {}  # honest: nothing
    cy = await sit_exam(db, pid, 9, short=COPIED, start=T0, step=60)
    counts = await integrity.counts(db, [ann, bob, cy])
    assert counts == {ann: {Signal.similar: 1}, cy: {Signal.similar: 1}}
    [seen] = (await integrity.evidence(db, [cy], await lens(db, OPERATOR, None)))[cy]
    assert (seen.code, seen.other_user_id, seen.answer, seen.other_answer) == (Signal.similar, 7, COPIED, WRITTEN)
    [back] = (await integrity.evidence(db, [ann], await lens(db, OPERATOR, None)))[ann]
    assert (back.other_user_id, back.answer, back.other_answer) == (9, WRITTEN, COPIED)


async def test_a_ring_sharing_one_answer_stores_a_few_pairs_per_answer_not_every_pair(db):
    """A leaked answer copied by a ring of N: each answer keeps its SIMILAR_KEPT closest matches and
    takes at most that many from later copies, so the hand-ins write O(N) pairs, not N²."""
    pid = await _paper(db)
    ring = list(range(20, 20 + 2 * SIMILAR_KEPT + 2))
    for uid in ring:
        await ensure_user(db, uid, f"R{uid}", None, 0)
    ids = [await sit_exam(db, pid, uid, short=WRITTEN, start=T0, step=60) for uid in ring]
    counts = await integrity.counts(db, ids)
    assert all(counts[i] == {Signal.similar: SIMILAR_KEPT} for i in ids[SIMILAR_KEPT:])  # full, never more
    assert all(counts[i][Signal.similar] <= SIMILAR_KEPT for i in ids)
    (rows,) = await db.fetchone("SELECT COUNT(*) FROM attempt_signals WHERE code = 'similar'")
    assert rows <= 2 * SIMILAR_KEPT * len(ring) and rows < len(ring) * (len(ring) - 1)
    # every pair shown is a real pair of copies, from both sides where the earlier one had room
    for seen in (await integrity.evidence(db, [ids[-1]], await lens(db, OPERATOR, None)))[ids[-1]]:
        assert seen.other_answer == WRITTEN and seen.other_user_id in ring[:-1]


async def test_the_papers_threshold_and_its_off_switch_are_respected(db):
    pid = await _paper(db)
    await write_settings(db, pid, actor=0, chat_id=None, now=T0, signal_similar=100)
    ann = await sit_exam(db, pid, 7, short=WRITTEN, start=T0, step=60)
    cy = await sit_exam(db, pid, 9, short=COPIED, start=T0, step=60)
    assert await integrity.counts(db, [ann, cy]) == {}  # near-identical, but not at 100%
    await write_settings(db, pid, actor=0, chat_id=None, now=T0, signal_similar=90, signals=False)
    bob = await sit_exam(db, pid, 8, short=WRITTEN, start=T0, step=0.2)  # a copy, and far too fast: signals off
    assert await integrity.counts(db, [ann, cy, bob]) == {}


async def test_right_answers_faster_than_reading_are_flagged_wrong_ones_not(db):
    pid = await _paper(db)
    fast = await sit_exam(db, pid, 7, short=OWN, start=T0, step=0.5)
    wrong = await sit_exam(db, pid, 8, short=WRITTEN, start=T0, step=0.5, wrong=True)
    counts = await integrity.counts(db, [fast, wrong])
    # the fast one: the two single, the multi, the true/false and the two fill-ins, all right in half a second
    assert counts[fast] == {Signal.fast: 6}
    assert counts.get(wrong, {}).get(Signal.fast) == 4  # its two wrong single choices are not counted
    await write_settings(db, pid, actor=0, chat_id=None, now=T0, signal_fast=5)
    cy = await sit_exam(db, pid, 9, short="不知道", start=T0, step=0.5, wrong=True)
    assert Signal.fast not in (await integrity.counts(db, [cy])).get(cy, {})


async def test_a_hand_in_far_faster_than_the_papers_median_is_flagged_with_that_median(db):
    pid = await save_paper(db, small_paper(), T0)
    for uid in range(20, 30):
        await ensure_user(db, uid, f"u{uid}", None, 0)
    durations = [600, 1100, 700, 1000, 800, 900]  # an even count: the median is the middle two's mean
    slow = [await sit_exam(db, pid, 20 + i, short=OWN, start=T0, step=60, end=T0 + d) for i, d in enumerate(durations)]
    # neither a practice attempt nor a running one is one of the paper's finished exams
    practice = await attempts.start_attempt(db, user_id=27, chat_id=27, paper_id=pid, mode="practice", now=T0,
                                            shuffle=False)
    await attempts.finish_attempt(db, practice.id, T0 + 5, "submitted")
    await attempts.start_attempt(db, user_id=28, chat_id=28, paper_id=pid, mode="exam", now=T0, shuffle=False)
    quick = await sit_exam(db, pid, 29, short=OWN, start=T0, step=20, end=T0 + 200)
    counts = await integrity.counts(db, [*slow, quick])
    assert [counts.get(a, {}).get(Signal.quick) for a in slow] == [None] * 6  # slow, or too few before them
    assert counts[quick].get(Signal.quick) == 1
    [found] = [e for e in (await integrity.evidence(db, [quick], await lens(db, OPERATOR, None)))[quick] if e.code == Signal.quick]
    # 850 s: the six others' median (not counting the quick one itself, the practice or the running one)
    assert (found.value, found.bound) == (200.0, statistics.median(durations)) == (200.0, 850.0)


async def test_answers_changed_in_the_last_seconds(db):
    pid = await _paper(db)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    for pos in range(4):  # the single, multi and true/false questions, slowly
        await answer(db, a.id, pos, "A" if pos < 3 else True, T0 + 60 * (pos + 1))
    await answer(db, a.id, 3, True, T0 + 590)  # the same answer again: no change
    for pos, letter in ((0, "B"), (1, "C"), (2, "AB")):
        await answer(db, a.id, pos, letter, T0 + 590 + pos)
    await attempts.finish_attempt(db, a.id, T0 + 600, "submitted")
    [(_, found)] = (await integrity.evidence(db, [a.id], await lens(db, OPERATOR, None))).items()
    assert [(e.code, e.pos, e.changes) for e in found] == [(Signal.late, 0, 1), (Signal.late, 1, 1),
                                                            (Signal.late, 2, 1)]


async def test_the_team_report_has_a_signals_column(db):
    pid = await _paper(db)
    await sit_exam(db, pid, 7, short=WRITTEN, start=T0, step=60)
    await sit_exam(db, pid, 8, short=OWN, start=T0, step=60)
    await sit_exam(db, pid, 9, short=COPIED, start=T0, step=60)
    data, _ = await team_csv(db, await lead_lens(db, None), period_bounds("all", T0 + 10_000, ZoneInfo("UTC")))
    rows = {r["name"]: r["signals"] for r in csv.DictReader(io.StringIO(data.decode("utf-8-sig")))}
    assert rows == {"Ann": "similar:1", "Bob": "", "Cy": "similar:1"}  # Ann's side of the pair counts too


def test_bank_set_turns_signals_off_and_sets_thresholds(tmp_path, capsys):
    from pathlib import Path

    from bot.cli import main

    db = str(tmp_path / "signals.db")
    seed = sorted((Path(__file__).resolve().parents[2] / "bank" / "seeds").glob("000_*.txt"))[0]
    assert main(["--db", db, "import", str(seed)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "bank", "set", seed.stem, "--signal-similar", "95", "--signal-fast", "4",
                 "--signal-late", "5", "--signal-quick", "25"]) == 0
    assert "signals similar 95%, fast 4, late 5, quick 25%" in capsys.readouterr().out
    assert main(["--db", db, "bank", "set", seed.stem, "--signal-similar", "30"]) == 1
    assert "similarity threshold is a percentage from 50 to 100" in capsys.readouterr().err
    assert main(["--db", db, "bank", "set", seed.stem, "--signal-fast", "0"]) == 1
    assert main(["--db", db, "bank", "set", seed.stem, "--signals", "off"]) == 0
    assert "signals off" in capsys.readouterr().out


async def test_forgetting_a_candidate_takes_their_signals_and_their_side_of_a_pair(db):
    pid = await _paper(db)
    ann = await sit_exam(db, pid, 7, short=WRITTEN, start=T0, step=60)
    cy = await sit_exam(db, pid, 9, short=COPIED, start=T0, step=60)
    assert set(await integrity.counts(db, [ann, cy])) == {ann, cy}
    await forget_user(db, 9)
    assert await integrity.counts(db, [ann, cy]) == {}  # Ann's pair named Cy's attempt: gone with it
    # and Cy's written answer is no longer compared with anyone's
    bob = await sit_exam(db, pid, 8, short=COPIED, start=T0, step=60)
    assert await integrity.counts(db, [ann, bob]) == {ann: {Signal.similar: 1}, bob: {Signal.similar: 1}}
    [seen] = (await integrity.evidence(db, [bob], await lens(db, OPERATOR, None)))[bob]
    assert seen.other_user_id == 7
