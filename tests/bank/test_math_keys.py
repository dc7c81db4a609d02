"""Fill-in keys written in LaTeX accept the plain forms a candidate types, and show as plain text."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bank.grading import grade
from bank.grading.math_form import plain, same_math
from bank.kinds import Kind
from bank.models import Paper, Question, Section
from tests.harness import BotEnv, at_place, attempt_message

SIGMOID = "$f(x)=\\frac{1}{1+e^{-x}}$"


def _fill(key: str) -> Question:
    return Question(number=1, kind=Kind.fill, stem="Sigmoid 函数的表达式为______。", answer=[[key]], points=2)


@pytest.mark.parametrize("reply", ["1/(1+e^-x)", "1/(1+exp(-x))", "f(x)=1/(1+e^(-x))", "1/(1+e^{-x})",
                                   "(1+e^-x)^-1", "e^x/(e^x+1)", SIGMOID])
def test_plain_forms_of_a_latex_key_are_right(reply):
    assert grade(_fill(SIGMOID), reply).verdict.value == "correct"


@pytest.mark.parametrize("reply", ["1/(1+e^x)", "1/(1-e^-x)", "x", "sigmoid", "__import__('os').getcwd()",
                                   "x.__class__", "9^9^9^9", "999999^999999^999999", "exp(1000000)"])
def test_other_or_unsafe_replies_are_wrong(reply):
    assert grade(_fill(SIGMOID), reply).verdict.value == "wrong"


def test_the_key_is_shown_in_plain_text():
    assert plain(SIGMOID) == "f(x)=1/(1+e^(-x))"
    assert grade(_fill(SIGMOID), "").expected == "f(x)=1/(1+e^(-x))"
    assert plain("$f(x)=max(0,x)$") == "f(x)=max(0,x)"
    assert same_math("max(x, 0)", "$f(x)=max(0,x)$") and not same_math("min(0,x)", "$f(x)=max(0,x)$")
    assert not same_math("n^2", "O(n^2)")  # a key SymPy reads but cannot evaluate: no crash, no match


def test_sympy_is_loaded_only_for_a_maths_key():
    code = ("import sys\n"
            "import bot.app\n"
            "from bank.grading import grade\n"
            "from bank.models import Kind, Question\n"
            "q = Question(number=1, kind=Kind.fill, stem='?', answer=[['批次大小']])\n"
            "assert grade(q, '1/(1+e^-x)').verdict.value == 'wrong'\n"
            "assert 'sympy' not in sys.modules, 'sympy loaded for a plain key'\n"
            "q = Question(number=1, kind=Kind.fill, stem='?', answer=[['$\\\\frac{1}{1+e^{-x}}$']])\n"
            "assert grade(q, '1/(1+exp(-x))').verdict.value == 'correct'\n"
            "assert 'sympy' in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(Paper(slug="maths", title="Maths paper", sections=[
        Section(kind=Kind.fill, title="填空题", questions=[_fill(SIGMOID), _fill(SIGMOID).model_copy(update={"number": 2, "stem": "Logistic 函数为______。"})])]))
    await e.start()
    yield e
    await e.close()


async def test_practice_grades_a_typed_plain_form_and_shows_the_key_plain(env):
    ann = env.api.user(6001, "Ann", language_code="en")
    await ann.send("/practice Maths paper")
    await env.api.wait_for(lambda: attempt_message(ann.chat()))
    await ann.send("1/(1+e^-x)")
    fb = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and "✅" in m.text and m)
    await ann.press(fb, "Next ▶")
    await env.api.wait_for(lambda: at_place(attempt_message(ann.chat()).text, 2))
    await ann.send("1/(1+e^x)")
    wrong = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and "❌" in m.text and m)
    assert "Answer: f(x)=1/(1+e^(-x))" in wrong.text and "\\frac" not in wrong.text
