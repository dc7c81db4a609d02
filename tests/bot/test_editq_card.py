"""Issue 22: the /editq card spoke English inside a Chinese screen (`一、填空题（每题1分，共10分） ·
question 1 · fill · 1 point`, `Blank 1: …`): one language throughout."""

from bank.kinds import Kind
from bank.models import Question, Source
from bot.authoring.render import card_text as question_text


def fill() -> Question:
    return Question(id=7, number=1, kind=Kind.fill, stem="梯度______与______。", answer=[["累积", "累计"], ["裁剪"]],
                    points=1, explanation="见第三章", flags=["truncated", "corrupted"],
                    source=Source(paper="p", section=1, number=1, paper_title="分布式训练",
                                  section_title="一、填空题（每题1分，共10分）"))


def test_the_card_speaks_chinese_on_a_chinese_screen():
    text = question_text(fill(), "zh")
    assert text.splitlines()[0] == "分布式训练 · 填空题 · 填空题 · 1 分"  # its reference heads the card (eq_card)
    assert "第1空：累积 / 累计" in text and "第2空：裁剪" in text and "解析：" in text
    assert "标记：truncated、corrupted" in text
    assert not any(w in text for w in ("question", "fill", "point", "Blank", "Explanation", ", "))


def test_the_card_speaks_english_on_an_english_screen():
    text = question_text(fill(), "en")
    assert text.splitlines()[0] == "分布式训练 · 填空题 · Fill in the blank · 1 point"
    assert "Blank 1: 累积 / 累计" in text and "Flags: truncated, corrupted" in text
    tf = Question(id=8, number=2, kind=Kind.truefalse, stem="对吗？", answer=False, points=2)
    assert "答案：错" in question_text(tf, "zh") and "Answer: false" in question_text(tf, "en")
