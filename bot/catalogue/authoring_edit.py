"""Texts of /editq (fix a question) and /newpaper (compose a paper), for configured admins."""

TEXTS: dict[str, dict[str, str]] = {
    # ---- shared buttons and refusals
    "au_btn_cancel": {"en": "✖ Cancel", "zh": "✖ 取消"},
    "au_btn_back": {"en": "◀ Back", "zh": "◀ 返回"},
    "au_ended_editq": {"en": "/editq of {question} is closed; nothing changed.",
                       "zh": "已关闭 {question} 的 /editq，没有任何改动。"},
    "au_ended_newpaper": {"en": "/newpaper is closed; no paper was made.", "zh": "已关闭 /newpaper，没有生成试卷。"},
    "au_ended": {"en": "Your unfinished /editq or /newpaper is closed; nothing changed.",
                 "zh": "已关闭未完成的 /editq 或 /newpaper，没有任何改动。"},
    "au_cancelled": {"en": "Cancelled: nothing changed.", "zh": "已取消：没有任何改动。"},
    # a session an older release left that this one cannot read
    "au_expired_editq": {"en": "Your /editq of {question} had expired (an older version of the bot left it); "
                               "it starts over.",
                         "zh": "你对 {question} 的 /editq 已过期（由旧版本留下），现在重新开始。"},
    "au_expired_newpaper": {"en": "Your /newpaper had expired (an older version of the bot left it); it starts over.",
                            "zh": "你的 /newpaper 已过期（由旧版本留下），现在重新开始。"},
    "au_expired": {"en": "Your unfinished /editq or /newpaper had expired (an older version of the bot left it). "
                         "Start again with /editq <question> or /newpaper.",
                   "zh": "你未完成的 /editq 或 /newpaper 已过期（由旧版本留下）。请用 /editq <题目> 或 /newpaper 重新开始。"},
    "au_stale": {"en": "This is no longer open. Start again with /editq <question> or /newpaper.",
                 "zh": "该操作已结束。请用 /editq <题目> 或 /newpaper 重新开始。"},
    "au_private": {"en": "Please use this in a private chat with me.", "zh": "请在与我的私聊中使用。"},
    # ---- /editq
    "eq_usage": {"en": "Usage: /editq <question>: its reference as /bankstats and `proctor bank show` give it "
                       "(P3 Q43), or its bank id",
                 "zh": "用法：/editq <题目>：/bankstats 或 `proctor bank show` 显示的题目编号（P3 Q43），或题库编号"},
    "eq_unknown": {"en": "There is no question “{asked}”: name it by its reference, such as P3 Q43.",
                   "zh": "没有题目“{asked}”：请用题目编号，例如 P3 Q43。"},
    "eq_sealed": {"en": "{question} is on a running exam: edit it once the exam is over.",
                  "zh": "{question} 正在进行中的考试里：请在考试结束后再修改。"},
    "eq_card": {"en": "✏️ {question} · version {version}\n\n{body}\n\nWhat do you want to change?",
                "zh": "✏️ {question} · 第 {version} 版\n\n{body}\n\n要修改哪一项？"},
    "eq_btn_key": {"en": "Key", "zh": "答案"},
    "eq_btn_stem": {"en": "Stem", "zh": "题干"},
    "eq_btn_option": {"en": "Option {letter}", "zh": "选项 {letter}"},
    "eq_btn_expl": {"en": "Explanation", "zh": "解析"},
    "eq_ask_stem": {"en": "Send the new stem of {question}.", "zh": "请发送 {question} 的新题干。"},
    "eq_ask_option": {"en": "Send the new text of option {letter} of {question}.",
                      "zh": "请发送 {question} 选项 {letter} 的新内容。"},
    "eq_ask_expl": {"en": "Send the new explanation of {question} (“-” clears it).",
                    "zh": "请发送 {question} 的新解析（发送“-”清空）。"},
    "eq_ask_key": {"en": "Send the new key of {question} (now: {key}). Several blanks: separate them with |.",
                   "zh": "请发送 {question} 的新答案（当前：{key}）。多个空用 | 分隔。"},
    "eq_pick_key": {"en": "Pick the new key of {question} (now: {key}).",
                    "zh": "请选择 {question} 的新答案（当前：{key}）。"},
    "eq_pick_multi": {"en": "Tick every right option of {question} (now: {key}), then Done.",
                      "zh": "请勾选 {question} 的全部正确选项（当前：{key}），然后点“完成”。"},
    "eq_btn_done": {"en": "Done", "zh": "完成"},
    "eq_bad": {"en": "That doesn't fit: {why}. Try again, or Cancel.", "zh": "不符合要求：{why}。请重试，或取消。"},
    "eq_preview": {"en": "Preview of {question}, version {version} ({field}):\n\nBefore: {old}\nAfter: {new}",
                   "zh": "{question} 第 {version} 版预览（{field}）：\n\n修改前：{old}\n修改后：{new}"},
    "eq_preview_key": {"en": "Regrade the past answers to the new key ({answers} so far), or keep their scores?",
                       "zh": "是否按新答案重新评分已有作答（目前 {answers} 份），还是保留原分数？"},
    "eq_field_key": {"en": "key", "zh": "答案"},
    "eq_field_stem": {"en": "stem", "zh": "题干"},
    "eq_field_option": {"en": "option {letter}", "zh": "选项 {letter}"},
    "eq_field_explanation": {"en": "explanation", "zh": "解析"},
    "eq_btn_save": {"en": "💾 Save", "zh": "💾 保存"},
    "eq_btn_regrade": {"en": "💾 Save and regrade", "zh": "💾 保存并重新评分"},
    "eq_btn_keep": {"en": "💾 Save, keep past scores", "zh": "💾 保存，保留原分数"},
    "eq_saved": {"en": "✅ {question} is now at version {version}.", "zh": "✅ {question} 已更新为第 {version} 版。"},
    "eq_regraded": {
        "en": "{answers:No past answer to regrade|# answer regraded|# answers regraded}"
              "{changed:, no score changed.|, # score changed; that candidate is told.|"
              ", # scores changed; those candidates are told.}",
        "zh": "{answers:没有需要重新评分的作答|已重新评分 # 份作答|已重新评分 # 份作答}"
              "{changed:，没有分数变化。|，# 个分数有变化；已通知该考生。|，# 个分数有变化；已通知相关考生。}",
    },
    "eq_kept": {"en": "Past answers keep their scores (graded against the version they were shown).",
                "zh": "已有作答保留原分数（按作答时显示的版本评分）。"},
    "eq_changed": {"en": "{question} was edited meanwhile: nothing saved. /editq {question} to start again.",
                   "zh": "{question} 已被他人修改：本次未保存。请用 /editq {question} 重新开始。"},
    "eq_empty": {"en": "(empty)", "zh": "（空）"},
    # ---- /newpaper
    "np_ask_title": {"en": "📝 A new paper. Send its title.", "zh": "📝 新建试卷。请发送试卷标题。"},
    "np_ask_minutes": {"en": "“{title}”: pick the time limit, or send the minutes.",
                       "zh": "“{title}”：请选择时间限制，或发送分钟数。"},
    "np_minutes": {"en": "{n} min", "zh": "{n} 分钟"},
    "np_ask_parts": {
        "en": "“{title}”, {minutes} min. Send the blueprint, one part per line:\n"
              "kind count [points each] [topic:NAME] [paper:CODE]\n\n"
              "For example:\nsingle 5 2\ntruefalse 5 1 paper:P1\nmulti 3 topic:推理优化\n\n"
              "Kinds: single, multi, truefalse, fill, short. Askable now: {pool}",
        "zh": "“{title}”，{minutes} 分钟。请发送组卷规则，每行一项：\n"
              "题型 数量 [每题分值] [topic:知识点] [paper:试卷代码]\n\n"
              "例如：\nsingle 5 2\ntruefalse 5 1 paper:P1\nmulti 3 topic:推理优化\n\n"
              "题型：single、multi、truefalse、fill、short（或 单选、多选、判断、填空、简答）。当前可出题：{pool}",
    },
    "np_bad": {"en": "That doesn't fit: {why}. Try again, or Cancel.", "zh": "不符合要求：{why}。请重试，或取消。"},
    "np_short": {"en": "Not enough questions for this blueprint: {parts}. Send another blueprint, or Cancel.",
                 "zh": "题库题目不足：{parts}。请发送新的组卷规则，或取消。"},
    "np_short_part": {"en": "{kind} {want} wanted, {have} available", "zh": "{kind} 需要 {want} 道，仅有 {have} 道"},
    "np_preview": {
        "en": "Preview: “{title}”\n{n} {n:question|questions} ({kinds}), {points} {points:point|points}, "
              "{minutes} {minutes:minute|minutes}.\n"
              "Questions: {draw}. {mode}",
        "zh": "预览：“{title}”\n共 {n} 题（{kinds}），{points} 分，{minutes} 分钟。\n抽题：{draw}。{mode}",
    },
    "np_draw_frozen": {"en": "drawn once, the same for every candidate", "zh": "一次抽定，每位考生相同"},
    "np_draw_each": {"en": "drawn anew for each candidate", "zh": "每位考生单独抽题"},
    "np_mode_exam": {"en": "Exam only (no practice).", "zh": "仅限考试（不可练习）。"},
    "np_mode_practice": {"en": "Exam and practice.", "zh": "可考试，也可练习。"},
    "np_btn_frozen": {"en": "🔒 Same paper for all", "zh": "🔒 所有人同卷"},
    "np_btn_each": {"en": "🎲 Draw per candidate", "zh": "🎲 每人单独抽题"},
    "np_btn_exam_only": {"en": "Exam only: {state}", "zh": "仅限考试：{state}"},
    "np_on": {"en": "on", "zh": "开"},
    "np_off": {"en": "off", "zh": "关"},
    "np_btn_create": {"en": "✅ Create", "zh": "✅ 创建"},
    "np_created": {"en": "✅ “{title}” is ready ({code}): it is listed in /exam and taken like any paper.",
                   "zh": "✅ “{title}” 已创建（{code}）：已出现在 /exam 列表中，可像其他试卷一样作答。"},
    # the question on the /editq card, in the admin's language (bot/authoring/render.py)
    "eq_q_retired": {"en": "retired", "zh": "已停用"},
    "eq_q_answer": {"en": "Answer: {a}", "zh": "答案：{a}"},
    "eq_q_true": {"en": "true", "zh": "对"},
    "eq_q_false": {"en": "false", "zh": "错"},
    "eq_q_blank": {"en": "Blank {i}: {a}", "zh": "第{i}空：{a}"},
    "eq_q_pair": {"en": "Pair: {left} -> {right}", "zh": "配对：{left} -> {right}"},
    "eq_q_distractor": {"en": "(distractor)", "zh": "（干扰项）"},
    "eq_q_reference": {"en": "Reference answer:", "zh": "参考答案："},
    "eq_q_explanation": {"en": "Explanation:", "zh": "解析："},
    "eq_q_weights": {"en": "Weights: {w}", "zh": "权重：{w}"},
    "eq_q_flags": {"en": "Flags: {f}", "zh": "标记：{f}"},
}
