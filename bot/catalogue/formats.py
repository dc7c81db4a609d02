"""Texts of an export's summary (`proctor bank export`): what was written, and what was left out and
why, one line per reason (bank/formats/summary.py): key -> {"en": ..., "zh": ...}."""

TEXTS: dict[str, dict[str, str]] = {
    # an upload that updates the papers its file came from (as `proctor import` of an exported file)
    "up_updated_line": {"en": "• {paper}: updated in place: {changed} changed, {added} added, {unchanged} unchanged",
                        "zh": "• {paper}：原地更新：{changed} 题修改，{added} 题新增，{unchanged} 题未变"},
    "ex_wrote": {"en": "wrote {file}: {papers} {papers:paper|papers}, {n} {n:question|questions} ({each})",
                 "zh": "已写入 {file}：{papers} 份试卷，{n} 道题（{each}）"},
    "ex_paper_count": {"en": "{paper} {n} of {total}", "zh": "{paper} {n}/{total} 题"},
    "ex_left_retired": {"en": "Retired questions are never asked again, so no file holds them: {n} {n:question|questions} "
                              "left out",
                        "zh": "已停用的题目不再出题，不写入任何文件：{n} 道题未写入"},
    "ex_left_unaskable": {"en": "Only JSON holds questions that are never asked (cut off, garbled or without a key): "
                                "{n} {n:question|questions} left out",
                          "zh": "只有 JSON 会写入从不出题的题目（被截断、乱码或没有答案）：{n} 道题未写入"},
    "ex_left_not_single": {"en": "Aiken holds single choice only: {n} {n:question|questions} of other kinds left out",
                           "zh": "Aiken 只能容纳单选题：{n} 道其他题型的题目未写入"},
    "ex_left_aiken_text": {"en": "Aiken holds no empty text, no option over several lines and no stem line that "
                                 "reads as an option: {n} {n:question|questions} left out",
                           "zh": "Aiken 无法容纳空文本、跨行的选项或像选项的题干行：{n} 道题未写入"},
    "ex_left_several_blanks": {"en": "GIFT and Moodle XML hold fill-ins of one blank only: {n} "
                                     "{n:question|questions} with several blanks left out",
                               "zh": "GIFT 和 Moodle XML 只能容纳单空填空题：{n} 道多空填空题未写入"},
    "ex_left_many_options": {"en": "A sheet has columns for 8 options: {n} {n:question|questions} with more left out",
                             "zh": "表格只有 8 个选项列：{n} 道选项更多的题目未写入"},
    "ex_left_separators": {"en": "A key whose text holds the format's own separators (a sheet's | and ;, GIFT's ->) "
                                 "cannot be written: {n} {n:question|questions} left out",
                           "zh": "含有格式自身分隔符（表格的 | 和 ;，GIFT 的 ->）的答案无法写入：{n} 道题未写入"},
    "ex_left_weights": {"en": "A sheet has no per-answer weights: {n} {n:question|questions} written with the weights "
                              "their key implies",
                        "zh": "表格没有逐项分值：{n} 道题按答案隐含的分值写入"},
    "ex_left_feedback": {"en": "A sheet has no per-answer feedback: {n} {n:question|questions} written without it",
                         "zh": "表格没有逐项反馈：{n} 道题写入时不含逐项反馈"},
}
