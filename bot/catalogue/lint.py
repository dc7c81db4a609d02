"""Texts of the bank's lint (bank/lint.py) and an upload's warnings: the English is the bank's own
(bank/lint_messages.py, also what the CLI prints), the Chinese is here; `lint_<key>` for each."""

from bank.lint_messages import ENGLISH

_CHINESE: dict[str, str] = {
    "note": "导入说明：{note}",
    "count": "题数：标明 {declared}，实有 {found}",
    "default_points": "未给出每题分值，按默认分值计",
    "no_explanations": "所有题目都没有解析（共 {n} 题）",
    "truncated": "文件末尾被截断；不会出题",
    "corrupted": "有无法修复的乱码；不会出题",
    "repaired": "乱码已修复",
    "no_answer": "没有答案；不会出题",
    "no_explanation": "本部分其他题有解析，这道题没有",
    "duplicate": "题干与{other_section}第 {other_number} 题相同",
    "duplicate_across": "题干与 {other_paper} · {other_section}第 {other_number} 题相同",
    "explanation_vs_key": "答案为 {answer}，但解析支持 {spoken}",
    "quarantined_key": "暂停出题（考试、练习、每日一练均不出），直到组长确认答案（/bankstats 或 proctor bank confirm {qid}）或修正答案",
    "quarantined_duplicate": "与本卷前面的一道题重复：只出一次",
    "pinned_options": "选项 {letters} 指代其他选项：打乱选项时位置不变",
    "letter_refs": "{where} 中用字母指代选项：显示为考生看到的字母",
    "same_title": "试卷 {other} 已使用标题“{title}”：导入会被拒绝（命令行可用 proctor import --as-new）",
}

TEXTS: dict[str, dict[str, str]] = {f"lint_{key}": {"en": en, "zh": _CHINESE[key]} for key, en in ENGLISH.items()}

# where a finding is: people see titles, section names and question numbers, never a file's name
TEXTS |= {
    "where_question": {"en": "{paper} · {section} · Q{number}", "zh": "{paper} · {section} · 第{number}题"},
    "where_section": {"en": "{paper} · {section}", "zh": "{paper} · {section}"},
}
