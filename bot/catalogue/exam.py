"""Texts of exams and practice."""

TEXTS: dict[str, dict[str, str]] = {
    "papers_header": {"en": "📚 Papers", "zh": "📚 试卷"},
    "paper_line": {
        "en": "{i}. {title}\n   {n} questions · max {max} pts · {minutes} min",
        "zh": "{i}. {title}\n   {n} 题 · 满分 {max} · {minutes} 分钟",
    },
    "no_papers": {"en": "The bank has no papers yet.", "zh": "题库中还没有试卷。"},
    "choose_exam": {"en": "Choose a paper for a timed exam:", "zh": "选择一份限时考试的试卷："},
    "choose_practice": {"en": "Choose a paper to practise (untimed, feedback after each answer):",
                        "zh": "选择练习的试卷（不限时，每题答完即看反馈）："},
    "random_button": {"en": "🎲 Random mock paper", "zh": "🎲 随机模拟卷"},
    "rules_card": {
        "en": "📝 {title}\n\n{n} questions · max {max} pts · {minutes} min{attempts}\n\n{rules}",
        "zh": "📝 {title}\n\n共 {n} 题 · 满分 {max} · {minutes} 分钟{attempts}\n\n{rules}",
    },
    "mock_rules_card": {
        "en": "🎲 A mock paper drawn from the whole bank: {n} questions · {minutes} min\n\n{rules}",
        "zh": "🎲 从整个题库随机抽取的模拟卷：共 {n} 题 · {minutes} 分钟\n\n{rules}",
    },
    "exam_rules": {
        "en": "Rules:\n• The clock starts when you press Start and keeps running if you leave.\n"
              "• Tap an option (or type its letter, or 对/错) to answer; type answers for fill-in and "
              "written questions.\n"
              "• Skip, go Back and 🚩 Flag freely; Finish when you are done.\n"
              "• No correctness is shown until the end. The paper can't be forwarded or saved.",
        "zh": "规则：\n• 点击“开始”后计时，离开也不会暂停。\n• 点选项（或输入选项字母、对/错）作答；填空题和主观题请直接输入答案。\n"
              "• 可随时跳过、返回和🚩标记；完成后点“交卷”。\n• 考试结束前不显示对错。试卷不可转发或保存。",
    },
    "attempts_left": {"en": " · attempts: {used}/{allowed}", "zh": " · 已考次数：{used}/{allowed}"},
    "start_button": {"en": "▶️ Start", "zh": "▶️ 开始"},
    "header": {
        "en": "Q {n}/{total} · {section} · {pts} {unit}",
        "zh": "第 {n}/{total} 题 · {section} · {pts} 分",
    },
    "left": {"en": " · {left} left", "zh": " · 剩余 {left}"},
    "flag_mark": {"en": " · 🚩", "zh": " · 🚩"},
    "type_hint": {
        "en": "✍️ Type your answer as a message. Several blanks: separate them with 、 or new lines.",
        "zh": "✍️ 请直接发送答案。多个空请用“、”或换行分隔。",
    },
    "your_answer": {"en": "Your answer: {a}", "zh": "你的答案：{a}"},
    "draft": {"en": "Selected: {a} (press Submit)", "zh": "已选：{a}（请点“提交”）"},
    "btn_back": {"en": "◀ Back", "zh": "◀ 上一题"},
    "btn_skip": {"en": "Skip ▶", "zh": "跳过 ▶"},
    "btn_next": {"en": "Next ▶", "zh": "下一题 ▶"},
    "btn_flag": {"en": "🚩 Flag", "zh": "🚩 标记"},
    "btn_unflag": {"en": "🏳 Unflag", "zh": "🏳 取消标记"},
    "btn_finish": {"en": "Finish", "zh": "交卷"},
    "btn_submit": {"en": "Submit", "zh": "提交"},
    "btn_true": {"en": "√ True", "zh": "√ 正确"},
    "btn_false": {"en": "× False", "zh": "× 错误"},
    "btn_yes_finish": {"en": "Yes, finish", "zh": "确认交卷"},
    "btn_keep_going": {"en": "Keep going", "zh": "继续作答"},
    "true": {"en": "True", "zh": "正确"},
    "false": {"en": "False", "zh": "错误"},
    "finish_confirm": {
        "en": "Finish now?\nUnanswered: {unanswered}\nFlagged: {flagged}",
        "zh": "确认交卷？\n未作答：{unanswered}\n已标记：{flagged}",
    },
    "none": {"en": "none", "zh": "无"},
    "recorded": {"en": "Recorded for Q{n}: {a}", "zh": "第 {n} 题已记录：{a}"},
    "empty_answer": {"en": "That answer is empty. Please type your answer.", "zh": "答案为空，请输入答案。"},
    "not_typed": {
        "en": "I couldn't read that as an answer. Tap a button above, or type the letter(s) you choose "
              "(true/false: 对/错 or True/False).",
        "zh": "无法识别为答案。请点上方按钮，或输入所选的选项字母（判断题：对/错 或 True/False）。",
    },
    "fb_correct": {"en": "✅ Correct", "zh": "✅ 正确"},
    "fb_partial": {"en": "🟡 Partly right ({score}/{max})", "zh": "🟡 部分正确（{score}/{max}）"},
    "fb_wrong": {"en": "❌ Wrong", "zh": "❌ 错误"},
    "fb_review": {
        "en": "📝 Recorded — provisional {score}/{max}, awaiting review",
        "zh": "📝 已记录 — 暂定 {score}/{max}，等待人工评阅",
    },
    "right_answer": {"en": "Answer: {a}", "zh": "答案：{a}"},
    "explanation": {"en": "Why: {e}", "zh": "解析：{e}"},
    "result_title": {"en": "🏁 {title} — result", "zh": "🏁 {title} — 成绩"},
    "result_total": {"en": "Score: {score}/{max} ({pct}%)", "zh": "得分：{score}/{max}（{pct}%）"},
    "time_used": {"en": "Time used: {used}", "zh": "用时：{used}"},
    "timed_out": {"en": "⏰ Time ran out; the paper was handed in for you.", "zh": "⏰ 时间到，已自动交卷。"},
    "section_line": {"en": "• {title}: {score}/{max}", "zh": "• {title}：{score}/{max}"},
    "pending_line": {
        "en": "⏳ {n} answer(s) awaiting review (provisional {score} pts included)",
        "zh": "⏳ {n} 道题等待人工评阅（已计入暂定分 {score}）",
    },
    "awaiting_review": {"en": " (awaiting review)", "zh": "（等待评阅）"},
    "btn_review": {"en": "Review wrong answers", "zh": "查看错题"},
    "review_after_finish": {"en": "Answers can be reviewed once the paper is handed in.",
                            "zh": "交卷后才能查看答案。"},
    "review_none": {"en": "Nothing to review: every answer was right. 🎉", "zh": "没有错题，全部正确！🎉"},
    "review_page": {"en": "Review {i}/{n} · Q{q}", "zh": "错题 {i}/{n} · 第 {q} 题"},
    "review_yours": {"en": "Your answer: {a}", "zh": "你的答案：{a}"},
    "unanswered": {"en": "(not answered)", "zh": "（未作答）"},
    "exam_closed": {"en": "This exam is closed.", "zh": "这场考试已结束。"},
    "not_yours": {"en": "This isn't your exam.", "zh": "这不是你的考试。"},
    "stale_button": {"en": "That button is out of date; here is where you are.", "zh": "按钮已过期，已为你显示当前题目。"},
    "already_running": {
        "en": "You have an exam in progress: /resume to continue, /cancel to stop it.",
        "zh": "你有一场正在进行的考试：/resume 继续，/cancel 放弃。",
    },
    "limit_reached": {
        "en": "You have used all your attempts at “{title}”.",
        "zh": "“{title}”的考试次数已用完。",
    },
    "paper_gone": {"en": "That paper is no longer available.", "zh": "该试卷已不可用。"},
    "nothing_running": {"en": "You have no exam in progress. /exam to start one.", "zh": "你没有正在进行的考试。/exam 开始考试。"},
    "cancelled": {"en": "Cancelled “{title}”. It has no score.", "zh": "已放弃“{title}”，不计成绩。"},
    "cancel_confirm": {
        "en": "Cancel “{title}”? It won't be scored, and a cancelled exam still counts as one of your attempts.",
        "zh": "确定放弃“{title}”？放弃后不计成绩，但仍计入考试次数。",
    },
    "btn_cancel_yes": {"en": "Yes, cancel", "zh": "确认放弃"},
    "cancel_kept": {"en": "OK, your exam goes on: /resume", "zh": "好的，考试继续：/resume"},
    "exam_only": {"en": "That paper is for exams only; it can't be practised.",
                  "zh": "该试卷仅用于考试，不能练习。"},
    "practice_done": {
        "en": "🏁 Practice finished: {correct}/{answered} right, {score}/{max} pts.",
        "zh": "🏁 练习结束：答对 {correct}/{answered}，得分 {score}/{max}。",
    },
    "finished_banner": {"en": "✅ Handed in.", "zh": "✅ 已交卷。"},
    "mystats_header": {"en": "📈 Your exams", "zh": "📈 我的考试"},
    "mystats_line": {
        "en": "• {title}: {n} attempt(s), best {best}/{max}, last {last}/{max} (counts: {method})",
        "zh": "• {title}：{n} 次，最高 {best}/{max}，最近 {last}/{max}（计分：{method}）",
    },
    "mystats_none": {"en": "No finished exams yet. /exam to take one.", "zh": "还没有完成的考试。/exam 开始考试。"},
    "review_sealed": {
        "en": "🔒 Reviews of this paper open again once your running exam is handed in.",
        "zh": "🔒 你正在进行的考试交卷后，才能再次查看这份试卷的回顾。",
    },
}
