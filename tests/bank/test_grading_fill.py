"""Fill-in-the-blank grading with keys taken from the seed papers."""

import pytest

from bank.grading import Verdict, grade, normalize_for_match, split_blanks
from bank.kinds import Kind
from bank.models import Question


def fill(answer, points: float = 1.0) -> Question:
    return Question(number=1, kind=Kind.fill, stem="______", answer=answer, points=points)


SIGMOID = [["$f(x)=\\frac{1}{1+e^{-x}}$"]]
RELU = [["$f(x)=max(0,x)$"]]


@pytest.mark.parametrize(
    "key, typed",
    [
        ([["批次大小"]], "批次大小"),
        ([["批次大小"]], " 批次 大小。"),
        ([["学习率"]], "學習率"),  # Traditional typed, Simplified key
        ([["圖形處理器"]], "图形处理器"),  # Simplified typed, Traditional key
        ([["backward()"]], "backward()"),
        ([["backward()"]], "backward"),
        ([["backward()"]], "Backward（）"),
        ([["learningrate"]], "learning rate"),
        ([["learningrate"]], "Learning Rate"),
        ([["learningrate"]], "ｌｅａｒｎｉｎｇ　ｒａｔｅ"),
        ([["learningrate"]], "learnig rate"),  # a typo in a long answer
        ([["梯度累积步数与批次大小"]], "梯度累计步数与批次大小"),
        ([["m×p"]], "m×p"),
        ([["m×p"]], "m*p"),
        ([["m×p"]], "m · p"),
        ([["INT8量化"]], "int8 量化"),
        (SIGMOID, "$f(x)=\\frac{1}{1+e^{-x}}$"),
        (SIGMOID, "f(x)=1/(1+e^(-x))"),
        (RELU, "$f(x)=max(0,x)$"),
        (RELU, "f(x) = max(0, x)"),
        (RELU, "max(0,x)"),  # the function's value, as for the sigmoid's 1/(1+e^-x) (bank/grading/math_form.py)
        ([["MPI（消息傳遞接口）"]], "MPI（消息傳遞接口）"),
        ([["MPI（消息傳遞接口）"]], "MPI(消息传递接口)"),
        ([["MPI（消息傳遞接口）"]], "MPI"),
        ([["MPI（消息傳遞接口）"]], "消息传递接口"),
        ([["MPI（消息傳遞接口）"]], "MPI、消息传递接口"),
        ([["每秒浮点运算次数（FLOPS）"]], "FLOPS"),
        ([["每秒浮点运算次数（FLOPS）"]], "每秒浮點運算次數"),
        ([["Strassen算法（或普通矩陣乘法算法）"]], "普通矩阵乘法算法"),
        ([["Strassen算法（或普通矩陣乘法算法）"]], "strassen算法"),
        ([["Strassen算法", "普通矩陣乘法算法"]], "Strassen算法"),
        ([["Strassen算法", "普通矩陣乘法算法"]], "普通矩阵乘法算法"),
        ([["低秩近似、量化低秩近似"]], "低秩近似，量化低秩近似"),  # a key left as one blank
        ("梯度", "梯度"),  # a key left as text
    ],
)
def test_fill_accepts(key, typed):
    g = grade(fill(key), typed)
    assert (g.score, g.verdict) == (1.0, Verdict.correct)


@pytest.mark.parametrize(
    "key, typed",
    [
        ([["批次大小"]], "批次"),
        ([["梯度"]], "梯度下降"),
        ([["学习率"]], "学习"),
        ([["高精度模型"]], "低精度模型"),  # short answers need an exact match
        ([["量化低秩近似"]], "低秩近似"),
        ([["m×p"]], "mp×"),
        (SIGMOID, "f(x)=1/(1+e^x)"),  # the minus sign matters
        (RELU, "f(x)=min(0,x)"),
        ([["MPI（消息傳遞接口）"]], "TCP"),
        ([["MPI（消息傳遞接口）"]], "MPI、TCP"),
        ([["backward()"]], "forward()"),
        ([["4"]], "5"),
        ([["梯度"]], ""),
        ([["梯度"]], "，。"),
    ],
)
def test_fill_rejects(key, typed):
    g = grade(fill(key), typed)
    assert (g.score, g.verdict) == (0.0, Verdict.wrong)


TWO = [["低秩近似"], ["量化低秩近似"]]


@pytest.mark.parametrize(
    "key, typed, score, verdict, detail",
    [
        (TWO, "低秩近似、量化低秩近似", 2.0, Verdict.correct, ""),
        (TWO, "低秩近似，量化低秩近似", 2.0, Verdict.correct, ""),
        (TWO, "低秩近似; 量化低秩近似", 2.0, Verdict.correct, ""),
        (TWO, "低秩近似\n量化低秩近似", 2.0, Verdict.correct, ""),
        (TWO, "低秩近似 量化低秩近似", 2.0, Verdict.correct, ""),
        (TWO, "低秩近似量化低秩近似", 2.0, Verdict.correct, ""),
        (TWO, ["低秩近似", "量化低秩近似"], 2.0, Verdict.correct, ""),
        (TWO, "低秩近似", 1.0, Verdict.partial, "blank 2 wrong"),
        (TWO, "低秩近似、剪枝", 1.0, Verdict.partial, "blank 2 wrong"),
        (TWO, "量化低秩近似、低秩近似", 0.0, Verdict.wrong, "0/2 blanks right"),  # blanks in order
        ([["FP32"], ["INT8"]], "fp32、int8", 2.0, Verdict.correct, ""),
        ([["FP32"], ["INT8"]], "FP32 INT8", 2.0, Verdict.correct, ""),
        ([["FP32"], ["INT8"]], "FP16、INT8", 1.0, Verdict.partial, "blank 1 wrong"),
        ([["高精度模型"], ["低精度模型"]], "高精度模型、低精度模型", 2.0, Verdict.correct, ""),
        ([["a"], ["b"], ["c"]], "a、x、c", 4 / 3, Verdict.partial, "blank 2 wrong"),
    ],
)
def test_fill_several_blanks(key, typed, score, verdict, detail):
    g = grade(fill(key, points=2.0), typed)
    assert g.score == pytest.approx(score, abs=1e-3)
    assert (g.max_score, g.verdict, g.detail) == (2.0, verdict, detail)


@pytest.mark.parametrize(
    "key, expected",
    [
        (TWO, "低秩近似；量化低秩近似"),
        ([["Strassen算法", "普通矩陣乘法算法"]], "Strassen算法 / 普通矩陣乘法算法"),
        ([["MPI（消息傳遞接口）"]], "MPI（消息傳遞接口）"),
    ],
)
def test_fill_expected_is_readable(key, expected):
    assert grade(fill(key), "").expected == expected


def test_unreadable_fill_key_needs_review():
    g = grade(fill([]), "梯度")
    assert (g.score, g.verdict) == (0.0, Verdict.needs_review)


@pytest.mark.parametrize(
    "text, n, parts",
    [
        ("低秩近似、量化低秩近似", None, ["低秩近似", "量化低秩近似"]),
        ("a, b ;c；d\ne", None, ["a", "b", "c", "d", "e"]),
        ("a,,b", None, ["a", "b"]),
        ("FP32 INT8", 2, ["FP32", "INT8"]),
        ("FP32 INT8", 3, ["FP32 INT8"]),
        ("learning rate", 1, ["learning rate"]),
        ("", 2, []),
    ],
)
def test_split_blanks(text, n, parts):
    assert split_blanks(text, n) == parts


@pytest.mark.parametrize(
    "text, norm",
    [
        ("ＭＰＩ（消息傳遞接口）", "mpi消息传递接口"),
        ("Learning Rate", "learningrate"),
        ("批次大小。", "批次大小"),
        ("$f(x)=max(0,x)$", "fx=max0x"),
        ("m * p", "m×p"),
        ("e^{-x}", "e^-x"),
    ],
)
def test_normalize_for_match(text, norm):
    assert normalize_for_match(text) == norm
