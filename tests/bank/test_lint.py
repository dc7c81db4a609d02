"""Lint over the real seeds and over small crafted questions."""

from pathlib import Path

import pytest

from bank.importer import parse_file
from bank.kinds import Kind
from bank.lint import explanation_speaks_for, lint, normalise_stem
from bank.models import Paper, Question, Section

SEEDS = Path(__file__).resolve().parents[2] / "bank" / "seeds"


@pytest.fixture(scope="module")
def items():
    papers = [parse_file(p)[0] for p in sorted(SEEDS.glob("*.txt"))]
    return lint(papers)


def codes_at(items, slug_prefix, section, number):
    return {i.code for i in items
            if i.paper.startswith(slug_prefix) and i.section == section and i.number == number}


def test_flags_and_counts(items):
    assert sum(i.code == "truncated" for i in items) == 5
    assert sum(i.code == "corrupted" for i in items) == 4
    assert sum(i.code == "repaired" for i in items) == 4
    counts = [(i.paper[:3], i.section) for i in items if i.code == "count"]
    assert counts == [("000", 5), ("002", 5), ("003", 5), ("004", 5)]


def test_duplicates_within_and_across_papers(items):
    assert "duplicate" in codes_at(items, "002", 1, 15)  # same stem as question 9
    # Simplified 003 and Traditional 001 ask the same GPU question
    assert "duplicate_across" in codes_at(items, "003", 1, 3)
    assert "duplicate_across" in codes_at(items, "004", 3, 1)


def test_explanation_against_key(items):
    assert "explanation_vs_key" not in codes_at(items, "004", 2, 1)  # "不屬於": fine
    assert "explanation_vs_key" in codes_at(items, "004", 2, 3)  # (D) said to help, key ABC
    assert "explanation_vs_key" in codes_at(items, "002", 2, 6)  # lists 知識蒸餾, key ABDE
    assert "explanation_vs_key" not in codes_at(items, "002", 1, 2)  # key is 以上都是


def make(answer, options, explanation, kind=Kind.multi):
    return Question(number=1, kind=kind, stem="s", options=options, answer=answer, explanation=explanation)


@pytest.mark.parametrize("answer,explanation,spoken", [
    ("AB", "甲方（A）和乙方（B）是對的。丙方（C）不是。", []),
    ("AB", "甲方（A）、乙方（B）和丙方（C）都是。", ["C"]),
    ("AB", "甲方、乙方和丙方都是常用方法。", ["C"]),
    ("AB", "甲方、乙方都是常用方法。丙方主要用於別處。", []),
    ("A", "在甲方的丙方模型之上", []),
])
def test_explanation_rule(answer, explanation, spoken):
    q = make(answer, ["甲方", "乙方", "丙方"], explanation, Kind.multi if len(answer) > 1 else Kind.single)
    assert explanation_speaks_for(q) == spoken


def test_normalise_stem_matches_scripts():
    assert normalise_stem("數據並行策略通過___將數據集拆分。") == normalise_stem("数据并行策略通过______将数据集拆分")


def test_section_without_explanations_is_listed_once():
    paper = Paper(slug="p", title="T", sections=[Section(kind=Kind.single, title="S", points_each=2, questions=[
        make("A", ["x", "y"], "", Kind.single), make("B", ["x", "y"], "", Kind.single)])])
    assert [i.code for i in lint([paper])] == ["no_explanations", "duplicate"]
