"""Texts of the bank's lint (bank/lint.py) and an upload's warnings: the English is the bank's own
(bank/lint_messages.py, also what the CLI prints), the Chinese is here; `lint_<key>` for each."""

from bank.lint_messages import ENGLISH, PLACES

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
    "duplicate": "题干与 {other_question} 相同",
    "duplicate_across": "题干与 {other_question}（{other_paper}）相同",
    "explanation_vs_key": "答案为 {answer}，但解析支持 {spoken}",
    "quarantined_key": "暂停出题（考试、练习、每日一练均不出），直到组长确认答案（/bankstats 或 proctor bank confirm {question}）或修正答案",
    "quarantined_duplicate": "与本卷前面的一道题重复：只出一次",
    "pinned_options": "选项 {letters} 指代其他选项：打乱选项时位置不变",
    "letter_refs": "{where} 中用字母指代选项：显示为考生看到的字母",
    "same_title": "试卷 {other} 已使用标题“{title}”：导入会被拒绝（命令行可用 proctor import --as-new）",
    # a reader's notes (bank/import_notes.py)
    "description_skipped": "{place}：没有答案块 {{…}}，是说明文字而不是题目；已跳过",
    "no_credit_skipped": "{place}：没有得分的选项；已跳过",
    "key_no_option": "{place}：答案“{key}”不对应任何选项；保留，但不会出题",
    "xml_description_skipped": "{place}：是说明文字而不是题目；已跳过",
    "type_skipped": "{place}：{type} 类型的题目，题库暂不支持；已跳过",
    "no_credit_kept": "{place}：没有得分的答案；保留，但不会出题",
    "wildcard": "{place}：通配符 * 按普通字符匹配",
    "units": "{place}：不读取单位，只按数值评分",
    "no_stem_column": "{place}：第一行没有“题干/stem”列；跳过此工作表",
    "options_ignored": "{place}：{kind}不需要选项；所给选项已忽略",
    "key_option_missing": "{place}：答案 {key} 指向选项 {option}，但没有这个选项；保留，但不会出题",
    "garbled_title": "标题含有乱码",
    "declared_count": "{place}（{title}）：题数标明 {declared}，实有 {found}",
    "points_missing": "{place}（{title}）：未给出每题分值，按默认 {points} 分计",
    "cut_before_text": "{place}：在题目正文之前被截断，已丢弃",
    "cut_at_end": "{place}：在文件末尾被截断",
    "fill_parts": "{place}：有 {blanks} 个空，但答案有 {parts} 部分",
    "settings_safe": "Aiken 文件不含试卷设置：新试卷按仅限考试、结束时只显示总分导入（可用 proctor bank set 修改）",
    "tags_dropped": "{place}：只取第一个标签“{kept}”作为知识点；其余标签（{dropped}）未读取",
    "kept_edit": "{question} 保留了修改（第 {version} 版，/editq 或 /keyfix）：文件中这道题的题干和答案没有应用",
}

# where a reader's note is (bank/lint_messages.py's PLACES)
_CHINESE_PLACES: dict[str, str] = {
    "sheet_row": "工作表 {sheet} 第 {row} 行",
    "row": "第 {row} 行",
    "line": "第 {line} 行",
    "section_question": "第{section}部分第 {item} 题",
    "section": "第{section}部分",
    "question": "第 {item} 题",
    "at": "{at}",
}

TEXTS: dict[str, dict[str, str]] = {f"lint_{key}": {"en": en, "zh": _CHINESE[key]} for key, en in ENGLISH.items()}
TEXTS |= {f"lint_place_{shape}": {"en": en, "zh": _CHINESE_PLACES[shape]} for shape, en in PLACES.items()}

# where a finding is: people see titles, section names and question numbers, never a file's name
TEXTS |= {
    "where_question": {"en": "{question} ({paper} · {section})", "zh": "{question}（{paper} · {section}）"},
    "where_section": {"en": "{paper} · {section}", "zh": "{paper} · {section}"},
}
