"""One name for each question kind and one mark for each answer state: every screen (exam, practice,
daily quiz, /newquestion, /editq, uploads, /newpaper) takes them from here (issue 22.13)."""

from bank.kinds import SECTION_TITLES, Kind

_ENGLISH = {
    Kind.single: "Single choice",
    Kind.multi: "Multiple choice",
    Kind.truefalse: "True / false",
    Kind.fill: "Fill in the blank",
    Kind.numerical: "Numerical",
    Kind.matching: "Matching",
    Kind.short: "Short answer",
    Kind.discussion: "Discussion",
    Kind.case: "Case study",
}
# (English, Chinese): the Chinese is the section title papers use (单项选择题), so a kind reads the same
# on /newquestion as in an exam's header
KIND_NAMES: dict[Kind, tuple[str, str]] = {kind: (en, SECTION_TITLES[kind]) for kind, en in _ENGLISH.items()}

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
    # a question's reference and its bank id: the only forms that name a question (bot/i18n.py renders a
    # QuestionRef in `{question}` and a BankId in `{bank_id}` with these, and nothing else)
    "ref_question": {"en": "{code} · Q{n}", "zh": "{code} · 第{n}题"},
    "ref_question_new": {"en": "new paper · Q{n}", "zh": "新试卷 · 第{n}题"},
    "ref_bank_id": {"en": "bank id #{id}", "zh": "题库编号 #{id}"},
}
