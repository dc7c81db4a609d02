"""The five real seed papers, parsed: counts, spot checks, flags, cleanliness."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bank.import_notes import english_note
from bank.importer import parse_file
from bank.importer.json_format import dumps, export_papers
from bank.kinds import Flag, Kind
from bank.text.clean import TONED, Garble, is_garbled, repair_garble, strip_readings

SEEDS = Path(__file__).resolve().parents[2] / "bank" / "seeds"

EXPECTED_KINDS = {
    "000": {"fill": 10, "single": 10, "multi": 10, "truefalse": 10, "short": 1},
    "001": {"fill": 10, "single": 10, "multi": 10, "truefalse": 10, "short": 4, "discussion": 2},
    "002": {"single": 15, "multi": 10, "fill": 15, "truefalse": 10, "case": 1},
    "003": {"fill": 10, "single": 10, "multi": 10, "truefalse": 10, "short": 1},
    "004": {"single": 15, "multi": 10, "fill": 15, "truefalse": 10, "case": 1},
}


@pytest.fixture(scope="module")
def papers():
    out = {}
    for path in sorted(SEEDS.glob("*.txt")):
        [paper] = parse_file(path)
        out[path.name[:3]] = paper
    return out


def section(paper, kind):
    return next(s for s in paper.sections if s.kind == kind)


def q(paper, kind, number):
    return next(x for x in section(paper, kind).questions if x.number == number)


def test_five_papers_230_questions_5_truncated(papers):
    assert sorted(papers) == ["000", "001", "002", "003", "004"]
    questions = [x for p in papers.values() for x in p.questions()]
    assert len(questions) == 230
    truncated = [x for x in questions if Flag.truncated in x.flags]
    assert len(truncated) == 5
    for p in papers.values():
        # one per file, and it is the file's last question
        assert [x for x in p.questions() if Flag.truncated in x.flags] == [p.questions()[-1]]
        assert not p.questions()[-1].askable


@pytest.mark.parametrize("key", sorted(EXPECTED_KINDS))
def test_counts_by_kind(papers, key):
    counts = Counter(x.kind.value for x in papers[key].questions())
    assert dict(counts) == EXPECTED_KINDS[key]


@pytest.mark.parametrize("key", sorted(EXPECTED_KINDS))
def test_numbers_run_in_order(papers, key):
    for s in papers[key].sections:
        assert [x.number for x in s.questions] == list(range(1, len(s.questions) + 1))


def test_titles_are_clean(papers):
    assert papers["000"].title == "大模型梯度累积工程师招聘笔试考试试卷和答案"
    assert papers["001"].title == "大模型專家并行工程師招聘筆試考試試卷和答案"
    assert papers["002"].title == "2025年混合精度訓練數值穩定性試題（含答案與解析）"
    assert papers["003"].title == "大模型推理优化工程师招聘笔试考试试卷和答案"
    assert papers["004"].title == "2025年大模型訓練優化器（含答案與解析）"
    for p in papers.values():
        assert p.slug.isascii() and p.slug == p.source_file.removesuffix(".txt")


def test_section_points_and_declared_counts(papers):
    fill = section(papers["000"], Kind.fill)
    assert (fill.points_each, fill.declared_count) == (1.0, 10)
    single = section(papers["002"], Kind.single)
    assert (single.points_each, single.declared_count) == (None, 15)
    assert all(x.points == 2.0 for x in single.questions)  # the default, noted
    assert any("points per question not given" in n for n in map(english_note, papers["002"].notes))
    assert any("question count 4 declared, 1 found" in n for n in map(english_note, papers["000"].notes))
    assert any("question count 2 declared, 1 found" in n for n in map(english_note, papers["004"].notes))


def test_001_glued_text_fill_answers(papers):
    p = papers["001"]
    assert q(p, Kind.fill, 1).answer == [[r"$f(x)=\frac{1}{1+e^{-x}}$"]]
    assert q(p, Kind.fill, 2).answer == [["Strassen算法", "普通矩陣乘法算法"]]
    assert q(p, Kind.fill, 5).answer == [["MPI（消息傳遞接口）", "MPI", "消息傳遞接口"]]
    assert q(p, Kind.fill, 10).answer == [["$f(x)=max(0,x)$"]]
    assert q(p, Kind.fill, 1).stem == "深度學習中常用的激活函數sigmoid的公式是______。"


def test_001_glued_options_and_keys(papers):
    p = papers["001"]
    first = q(p, Kind.single, 1)
    assert first.options == ["TensorFlow", "PyTorch", "NumPy", "Keras"]
    assert first.answer == "C"
    assert q(p, Kind.multi, 8).options == ["MPI", "NCCL", "TCP/IP", "UDP"]
    assert q(p, Kind.multi, 8).answer == "AB"
    assert q(p, Kind.truefalse, 1).answer is False
    assert q(p, Kind.truefalse, 4).answer is True
    assert q(p, Kind.truefalse, 1).stem == "數據并行中所有設備上的數據是完全相同的。"


def test_000_inline_truefalse_and_fill(papers):
    p = papers["000"]
    assert q(p, Kind.truefalse, 1).answer is False
    assert q(p, Kind.truefalse, 5).answer is True
    assert q(p, Kind.truefalse, 5).stem == "大模型训练中，内存充足时也可以使用梯度累积。"
    assert q(p, Kind.fill, 5).answer == [["backward()"]]
    assert q(p, Kind.multi, 6).answer == "ACD"


def test_003_options_split_over_lines(papers):
    p = papers["003"]
    two = q(p, Kind.single, 2)
    assert two.options == ["卷积核每次移动2个像素", "卷积核大小为2", "输出特征图大小是输入的2倍", "填充值为2"]
    assert two.answer == "A"
    assert q(p, Kind.multi, 3).options[2] == "采用分布式计算"
    assert q(p, Kind.truefalse, 6).answer is True
    assert q(p, Kind.fill, 8).answer == [["每秒浮点运算次数（FLOPS）", "每秒浮点运算次数", "FLOPS"]]


def test_five_options_and_tf_option_lines(papers):
    multi = q(papers["002"], Kind.multi, 1)
    assert len(multi.options) == 5 and multi.options[4] == "模型并行化"
    assert multi.answer == "ABCD"
    tf = q(papers["004"], Kind.truefalse, 1)
    assert tf.answer is False
    assert "正確" not in tf.stem and tf.stem.endswith("呈線性增長。")


def test_004_fill_with_two_blanks(papers):
    p = papers["004"]
    assert q(p, Kind.fill, 2).answer == [["低秩近似"], ["量化低秩近似"]]
    nine = q(p, Kind.fill, 9)
    assert nine.stem.count("___________") == 2 and "(" not in nine.stem
    assert nine.answer == [["FP32"], ["INT8"]]


def test_block_keys_and_explanations_attach_to_their_numbers(papers):
    single = section(papers["002"], Kind.single).questions
    assert "".join(x.answer for x in single) == "DDDADADADDDADDD"
    assert single[5].explanation.startswith("Apex庫")
    assert single[11].explanation.startswith("tf.keras.mixed_precisionAPI")
    four = section(papers["004"], Kind.single).questions
    assert "".join(x.answer for x in four) == "CAACAABABCACABC"
    assert four[2].explanation.startswith("殘差連接可以緩解梯度消失")
    assert four[14].explanation == "模型對抗訓練可以增強模型對對抗樣本的魯棒性。"
    multi = section(papers["002"], Kind.multi).questions
    assert [x.answer for x in multi][4:6] == ["ABCE", "ABDE"]
    assert multi[8].explanation.startswith("Adam、SGD")


def test_inline_explanations(papers):
    tf = q(papers["002"], Kind.truefalse, 2)
    assert tf.explanation.startswith("LoRA/QLoRA技術是一種高效的參數微調方法")
    multi = q(papers["004"], Kind.multi, 1)
    assert multi.answer == "ABC" and multi.explanation.startswith("數據并行（A）")


def test_case_with_reference_label(papers):
    case = q(papers["002"], Kind.case, 1)
    assert case.stem.startswith("某金融機構計劃使用深度學習模型")
    assert "問題：針對上述挑戰" in case.stem and "參考答案" not in case.stem
    assert case.answer.startswith("模型訓練和部署方案設計：\n1.分布式訓練框架")
    assert Flag.truncated in case.flags


def test_case_without_reference_label(papers):
    case = q(papers["004"], Kind.case, 1)
    assert case.stem.endswith("4.如何確保模型的魯棒性和公平性，避免在投資推薦中產生偏見？")
    assert case.answer.startswith("1.分布式訓練框架設計：")
    assert "3.推理加速：" in case.answer


def test_numbered_lines_in_answers_are_not_questions(papers):
    assert len(section(papers["004"], Kind.case).questions) == 1
    assert len(section(papers["001"], Kind.short).questions) == 4


def test_garbled_text_repaired_or_corrupted(papers):
    first = q(papers["002"], Kind.single, 1)
    assert first.stem == "以下哪種混合精度訓練技術能夠有效減少內存占用，同時保持數值穩定性？"
    assert Flag.repaired in first.flags and first.askable
    assert q(papers["002"], Kind.multi, 7).options[4] == "F1分數"
    assert "不公平決策" in q(papers["004"], Kind.fill, 13).stem
    assert "能夠學習" in q(papers["001"], Kind.short, 4).answer
    for p, kind, n in [("001", Kind.short, 3), ("002", Kind.truefalse, 1),
                       ("004", Kind.truefalse, 1), ("004", Kind.truefalse, 8)]:
        bad = q(papers[p], kind, n)
        assert Flag.corrupted in bad.flags and not bad.askable


def test_no_garble_outside_corrupted_questions(papers):
    for p in papers.values():
        for x in p.questions():
            if Flag.corrupted in x.flags:
                continue
            text = json.dumps([x.stem, x.options, x.answer, x.explanation], ensure_ascii=False)
            assert not is_garbled(text), (p.slug, x.kind, x.number)


def test_no_readings_or_noise_left_in_export(papers):
    text = dumps(export_papers(list(papers.values())))
    readings = re.findall(rf"(?<!\?)\([a-zü]*[{TONED}][a-zü]*\)", text)
    assert readings == []
    for noise in ("docVIP", "原创力文档", "文档评论", "book118", "VIP"):
        assert noise not in text
    assert "max(0,x)" in text and "backward()" in text


@pytest.mark.parametrize("raw,clean", [
    ("深度學(xué)習(xí)", "深度學習"),
    ("$f(x)=\\frac{1}{1+e^{-x}}$", "$f(x)=\\frac{1}{1+e^{-x}}$"),
    ("max(0,x)", "max(0,x)"),
    ("為_(kāi)___", "為____"),
    ("他們(men)的", "他們的"),
    ("函數(x)", "函數(x)"),
])
def test_strip_readings(raw, clean):
    assert strip_readings(raw) == clean


@pytest.mark.parametrize("raw,text,state", [
    ("保持?jǐn)?shù)值", "保持數值", Garble.repaired),
    ("不公平?jīng)Q策", "不公平決策", Garble.repaired),
    ("因?yàn)殡S著", "因?yàn)殡S著", Garble.corrupted),
    ("因?yàn)我們", "因為我們", Garble.repaired),
    ("a\ue014b", "a\ue014b", Garble.corrupted),
    ("plain text", "plain text", Garble.clean),
])
def test_repair_garble(raw, text, state):
    assert repair_garble(raw) == (text, state)
