"""Texts of the exam's navigator, timer, Finish list's drafts, result grid and small helps."""

from bot.catalogue.core import AWAITING
from bot.catalogue.marks import ANSWERED, CURRENT, FLAGGED, TICKED

TEXTS: dict[str, dict[str, str]] = {
    "finish_draft": {
        "en": "{question}: ticked {a}, not submitted — will be counted",
        "zh": "{question}：已勾选 {a}，未提交——交卷时按此计分",
    },
    "btn_navigator": {"en": "☰ Questions", "zh": "☰ 题目"},
    "navigator_title": {
        "en": f"Questions: {ANSWERED} answered · {TICKED} ticked, not submitted · {FLAGGED} flagged · "
              f"{CURRENT} current. Tap one to go there.",
        "zh": f"题目：{ANSWERED} 已答 · {TICKED} 已勾选未提交 · {FLAGGED} 已标记 · {CURRENT} 当前。点题号直接跳转。",
    },
    "btn_nav_close": {"en": "↩ Back to the question", "zh": "↩ 返回当前题"},
    "time_warning": {
        "en": "⏰ {n} {n:minute|minutes} left: the paper is handed in automatically at the deadline.",
        "zh": "⏰ 还剩 {n} 分钟：到时将自动交卷。",
    },
    "rules_no_attempts": {
        "en": "⛔ You have used your {allowed} {unit} at this paper; it can't be started again.",
        "zh": "⛔ 这份试卷的 {allowed} 次机会已全部用完，不能再开始。",
    },
    "exam_unknown_paper": {
        "en": "No paper called “{paper}”. /papers lists each with its code (P3); /exam shows a chooser.",
        "zh": "没有试卷“{paper}”。/papers 列出每份试卷及其代号（如 P3）；/exam 选择试卷。",
    },
    "exam_invite_only": {
        "en": "“{paper}” is taken by invitation only: open the invite link you were sent, or ask your team lead for one.",
        "zh": "“{paper}”仅限受邀参加：请打开收到的邀请链接，或向团队负责人索取。",
    },
    "paper_ambiguous": {
        "en": "“{paper}” is in several titles: {codes}. Send one of these codes.",
        "zh": "“{paper}”出现在多份试卷的标题中：{codes}。请发送其中一个代号。",
    },
    "idle_text_hint": {
        "en": "You have no exam running. /exam to take one, /practice to practise, /help for more.",
        "zh": "你当前没有进行中的考试。/exam 开始考试，/practice 练习，/help 查看更多。",
    },
    "result_pass": {"en": "✅ Passed (pass mark {mark}%)", "zh": "✅ 通过（及格线 {mark}%）"},
    "result_fail": {"en": "❌ Not passed (pass mark {mark}%)", "zh": "❌ 未通过（及格线 {mark}%）"},
    "result_pending_pass": {
        "en": "⏳ Pass mark {mark}%: decided once the written answers are reviewed",
        "zh": "⏳ 及格线 {mark}%：主观题复核后确定",
    },
    "result_grid_title": {
        "en": "By question (✓ right · ✗ wrong · ½ partly · 📝 " + AWAITING["en"] + " · – unanswered):",
        "zh": "逐题（✓ 正确 · ✗ 错误 · ½ 部分 · 📝 " + AWAITING["zh"] + " · – 未答）：",
    },
    "btn_review_all": {"en": "🔍 Review all answers", "zh": "🔍 回顾全部作答"},
    "btn_review_wrong": {"en": "✗ Wrong only", "zh": "✗ 只看错题"},
    "btn_review_everything": {"en": "All", "zh": "全部"},
    "review_page_all": {"en": "Review {i}/{n} · {question}", "zh": "回顾 {i}/{n} · {question}"},
    "review_verdict_correct": {"en": "✅ Right", "zh": "✅ 正确"},
}
