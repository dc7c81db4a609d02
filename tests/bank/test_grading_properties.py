"""Properties of grade(): no reply crashes it, it is deterministic, scores stay in range."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bank.grading import Verdict, grade, parse_choice, parse_truefalse, split_blanks
from bank.kinds import Kind, MultiPolicy
from bank.models import Question

OPTIONS = ["A.add()", "B.accumulate()", "C.backward()", "D.sum()"]
QUESTIONS = [
    Question(number=1, kind=Kind.single, stem="s", options=OPTIONS, answer="C", points=2),
    Question(number=2, kind=Kind.multi, stem="m", options=OPTIONS, answer="ABD", points=2),
    Question(number=3, kind=Kind.multi, stem="m", options=[], answer="ABCD", points=1.5),
    Question(number=4, kind=Kind.truefalse, stem="t", answer=False, points=1),
    Question(number=5, kind=Kind.fill, stem="f", answer=[["$f(x)=max(0,x)$"]], points=1),
    Question(number=6, kind=Kind.fill, stem="f", answer=[["低秩近似"], ["量化低秩近似"]], points=3),
    Question(number=7, kind=Kind.fill, stem="f", answer=[["MPI（消息傳遞接口）"]], points=1),
    Question(number=8, kind=Kind.short, stem="s", answer="梯度累积在多次反向传播后累加梯度再更新参数", points=5),
    Question(number=9, kind=Kind.case, stem="c", answer="1.分布式訓練框架：TensorFlow。\n2.INT8量化", points=10),
]

letters = st.text(alphabet="ABCDEabcdeＡＢＣＤ ,、;", max_size=12)
replies = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    letters,
    st.sampled_from(["对", "錯誤", "√", "×", "T", "no", "低秩近似、量化低秩近似", "MPI", "C", "ABD", ""]),
    st.booleans(),
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.binary(max_size=8),
    st.lists(st.text(max_size=8), max_size=5),
    st.lists(st.one_of(st.integers(), st.none(), st.text(max_size=3)), max_size=4),
    st.tuples(st.text(max_size=3)),
    st.sets(st.sampled_from("ABCDE")),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
policies = st.sampled_from(list(MultiPolicy))


@settings(max_examples=400, deadline=None)
@given(question=st.sampled_from(QUESTIONS), reply=replies, policy=policies)
def test_any_reply_grades_within_range_and_deterministically(question, reply, policy):
    g = grade(question, reply, multi_policy=policy)
    assert 0.0 <= g.score <= g.max_score == question.points
    assert g.verdict in Verdict
    assert g.expected
    again = grade(question, reply, multi_policy=policy)
    assert again == g


@settings(max_examples=200, deadline=None)
@given(chosen=st.sets(st.sampled_from("ABCD"), min_size=1), policy=policies, data=st.data())
def test_order_of_multi_letters_does_not_change_the_score(chosen, policy, data):
    question = QUESTIONS[1]
    scores = {
        grade(question, sep.join(perm), multi_policy=policy).score
        for perm in itertools.permutations(sorted(chosen))
        for sep in ("", ",")
    }
    scores.add(grade(question, data.draw(st.permutations(sorted(chosen))), multi_policy=policy).score)
    assert len(scores) == 1


@settings(max_examples=200, deadline=None)
@given(reply=replies)
def test_parsers_return_none_rather_than_raise(reply):
    assert parse_choice(reply) in {None, *"ABCDEFGH"}
    multi = parse_choice(reply, multiple=True)
    assert multi is None or (multi == "".join(sorted(set(multi))) and multi.isalpha())
    assert parse_truefalse(reply) in {None, True, False}


@given(text=st.text(), n=st.one_of(st.none(), st.integers(min_value=1, max_value=5)))
def test_split_blanks_parts_are_stripped_and_non_empty(text, n):
    assert all(p and p == p.strip() for p in split_blanks(text, n))


@settings(max_examples=100, deadline=None)
@given(score_policy=policies, points=st.floats(min_value=0.5, max_value=20, allow_nan=False))
def test_full_marks_for_the_key_itself(score_policy, points):
    for q in QUESTIONS:
        if q.kind in (Kind.short, Kind.case):
            continue
        q = q.model_copy(update={"points": points})
        g = grade(q, q.answer if q.kind != Kind.fill else "、".join(b[0] for b in q.answer),
                  multi_policy=score_policy)
        assert (g.score, g.verdict) == (points, Verdict.correct)
