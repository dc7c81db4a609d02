"""Provisional grades for short, discussion and case answers."""

import subprocess
import sys
from pathlib import Path

import pytest

from bank.grading import Verdict, grade, key_terms
from bank.grading.subjective import provisional_score
from bank.kinds import Kind
from bank.models import Question

# 000: 简答题 1 (Simplified)
ACCUMULATION = (
    "梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将计算得到的梯度进行累加。"
    "当累积的梯度达到一定次数（即梯度累积步数）后，再根据累积的梯度更新模型参数"
)
# 001: 簡答題 (Traditional)
DATA_PARALLEL = "數據並行是將數據分割到不同設備上，每個設備保存完整模型，同時計算不同數據的梯度，再彙總梯度更新參數。"
# 002: 案例分析題, numbered points
CASE = (
    "模型訓練和部署方案設計：\n"
    "1.分布式訓練框架：採用如TensorFlow或PyTorch等支持分布式訓練的框架，將數據集和模型參數分布在多個計算節點上。\n"
    "2.模型優化：使用模型壓縮技術，如INT8量化，將模型參數從FP32轉換為INT8，減少模型大小和計算量。\n"
    "3.模型並行策略：利用模型並行技術，將模型的不同部分並行計算。"
)


def subjective(answer, kind: Kind = Kind.short, points: float = 5.0) -> Question:
    return Question(number=1, kind=kind, stem="简述", answer=answer, points=points)


def test_key_terms_skip_function_words_and_keep_domain_terms():
    terms = key_terms(ACCUMULATION)
    assert {"梯度", "累积", "前向", "传播", "参数", "模型", "累加", "步数"} <= set(terms)
    assert not {"可以", "进行", "通过", "是", "后", "即"} & set(terms)


def test_key_terms_are_simplified_and_lower_case():
    terms = key_terms(CASE)
    assert {"tensorflow", "pytorch", "int8", "fp32", "量化", "分布式"} <= set(terms)
    assert "數據" not in terms and "数据" in terms


@pytest.mark.parametrize(
    "reference, typed, low, high",
    [
        (ACCUMULATION, ACCUMULATION, 5.0, 5.0),
        (ACCUMULATION, "每次前向傳播後累加梯度，達到步數後再更新參數", 2.0, 4.5),
        (ACCUMULATION, "不知道", 0.0, 0.0),
        (DATA_PARALLEL, "数据并行：把数据分到不同设备，每个设备有完整模型，各自算梯度后汇总更新参数", 3.0, 5.0),
        (DATA_PARALLEL, "模型并行", 0.0, 1.5),
        (CASE, CASE.replace("訓練", "训练"), 5.0, 5.0),
    ],
)
def test_provisional_score_follows_coverage(reference, typed, low, high):
    g = grade(subjective(reference), typed)
    assert g.verdict == Verdict.needs_review
    assert low <= g.score <= high
    assert g.max_score == 5.0 and g.expected == reference
    assert g.score * 2 == int(g.score * 2)  # half points
    assert g.detail.startswith("provisional: ")


@pytest.mark.parametrize("kind", [Kind.short, Kind.discussion, Kind.case])
@pytest.mark.parametrize("typed", ["", "   ", "。", None, 42])
def test_empty_answer_is_wrong_not_for_review(kind, typed):
    g = grade(subjective(ACCUMULATION, kind), typed)
    assert (g.score, g.verdict, g.detail) == (0.0, Verdict.wrong, "no answer")


def test_missing_reference_needs_review_with_zero():
    g = grade(subjective(""), "梯度累积")
    assert (g.score, g.verdict) == (0.0, Verdict.needs_review)


@pytest.mark.parametrize(
    "coverage, points, score",
    [(0.0, 5.0, 0.0), (0.35, 5.0, 2.5), (0.7, 5.0, 5.0), (1.0, 5.0, 5.0), (0.5, 10.0, 7.0), (0.2, 1.0, 0.0)],
)
def test_provisional_curve(coverage, points, score):
    assert provisional_score(coverage, points) == score


def test_importing_grading_loads_no_dictionary_and_warm_up_is_quiet():
    code = (
        "import sys, bank.grading as g\n"
        "assert 'jieba' not in sys.modules and 'opencc' not in sys.modules\n"
        "g.warm_up()\n"
        "assert 'opencc' in sys.modules and 'jieba' not in sys.modules\n"
        "g.load_segmenter()\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
