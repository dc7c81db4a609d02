"""Texts of numerical and matching questions, in exams, practice and daily quizzes."""

TEXTS: dict[str, dict[str, str]] = {
    "type_hint_number": {
        "en": "🔢 Type a number as a message (3.14, 3,14 or 1.5e-3 all work).",
        "zh": "🔢 请直接发送一个数字（3.14、3,14、３．１４ 或 1.5e-3 均可）。",
    },
    "not_a_number": {
        "en": "I couldn't read that as a number. Type it like 3.14, 3,14 or 1.5e-3.",
        "zh": "无法识别为数字。请按 3.14、3,14 或 1.5e-3 的形式输入。",
    },
    "match_hint": {
        "en": "🔗 Tap a numbered row to pick its letter (each tap moves to the next one), then Submit.",
        "zh": "🔗 点编号行为它选字母（每点一次换下一个），选好后点“提交”。",
    },
    "match_buttons_only": {
        "en": "Answer this one with the buttons: tap each numbered row until it shows your letter, then Submit.",
        "zh": "本题请用按钮作答：点每个编号行直到显示你选的字母，然后点“提交”。",
    },
    "match_draft": {"en": "Pairs so far: {a} (press Submit)", "zh": "已配对：{a}（请点“提交”）"},
    "match_open": {"en": "?", "zh": "?"},
    "finish_match_draft": {
        "en": "{question}: pairs {a}, not submitted — will be counted",
        "zh": "{question}：已配对 {a}，未提交——交卷时按此计分",
    },
    "daily_number_hint_private": {
        "en": "🔢 Type a number (during an exam: reply to this message).",
        "zh": "🔢 请直接输入数字（考试进行中请回复本消息作答）。",
    },
    "daily_number_hint_group": {
        "en": "↩️ Reply to this message with a number. Your result comes privately; keys at close.",
        "zh": "↩️ 回复本消息，输入一个数字作答。结果私下发给你，截止时公布答案。",
    },
    "daily_number_unreadable": {
        "en": "I couldn't read that as a number for {question}. Type it like 3.14, 3,14 or 1.5e-3.",
        "zh": "无法把这条消息识别为 {question} 的数字。请按 3.14、3,14 或 1.5e-3 的形式输入。",
    },
    "daily_match_selected": {"en": "Pairs: {a}. Tap Submit when done.", "zh": "已配对：{a}。选好后点“提交”。"},
}
