"""One name for each question kind and one mark for each answer state: every screen (exam, practice,
daily quiz, /newquestion, /editq, uploads, /newpaper) takes them from here (issue 22.13)."""

from bank.models import Kind

KIND_NAMES: dict[Kind, tuple[str, str]] = {  # (English, Chinese)
    Kind.single: ("Single choice", "单选题"),
    Kind.multi: ("Multiple choice", "多选题"),
    Kind.truefalse: ("True / false", "判断题"),
    Kind.fill: ("Fill in the blank", "填空题"),
    Kind.numerical: ("Numerical", "数值题"),
    Kind.matching: ("Matching", "匹配题"),
    Kind.short: ("Short answer", "简答题"),
    Kind.discussion: ("Discussion", "讨论题"),
    Kind.case: ("Case study", "案例分析题"),
}

# the marks of a question's state on the navigator and of an option on its button
ANSWERED = "✓"  # an answer is stored
TICKED = "☑"  # options ticked (or pairs made) and not yet submitted: counted at hand-in
FLAGGED = "🚩"
CURRENT = "•"
TRUE, FALSE = "✔", "✘"  # a true/false answer, on its buttons and wherever it is shown

TEXTS: dict[str, dict[str, str]] = {
    **{f"kind_{kind.value}": {"en": en, "zh": zh} for kind, (en, zh) in KIND_NAMES.items()},
    "tf_true": {"en": f"{TRUE} True", "zh": f"{TRUE} 对"},
    "tf_false": {"en": f"{FALSE} False", "zh": f"{FALSE} 错"},
}
