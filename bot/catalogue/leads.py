"""Texts of the leaderboards, the lead's desk, disputes and /forgetme: key -> {"en": ..., "zh": ...}."""

TEXTS: dict[str, dict[str, str]] = {
    "l_bank_admin_only": {
        "en": "The bank is shared by every team, so only the bot's configured admins (PROCTOR_ADMINS) can change it.",
        "zh": "题库由所有团队共用，只有机器人配置的管理员（PROCTOR_ADMINS）可以修改。",
    },
    # roles and buttons
    "l_not_lead": {
        "en": "Only team leads can do that. Team leads are the group's administrators and the bot's "
              "configured admins; group administrators use lead commands in their team group.",
        "zh": "只有组长可以执行此操作。组长是群管理员和机器人配置的管理员；群管理员请在自己的团队群里使用组长命令。",
    },
    "l_button_bad": {"en": "Sorry, that button is not valid. Please use a fresh message.",
                     "zh": "抱歉，这个按钮无效，请使用最新的消息。"},
    "l_button_not_lead": {"en": "Only a lead of this team can use this button.",
                          "zh": "只有本团队的组长可以使用这个按钮。"},
    "l_group_only": {"en": "Use this in your team group.", "zh": "请在团队群里使用。"},
    "l_sent_private": {"en": "📬 Sent to you in a private chat.", "zh": "📬 已私聊发送给你。"},
    "l_open_private": {
        "en": "I can't write to you privately yet: open a private chat with me, press Start, then try again.",
        "zh": "我还不能私聊你：请先打开与我的私聊并点击“开始”，然后重试。",
    },
    # periods
    "l_period_today": {"en": "today", "zh": "今日"},
    "l_period_week": {"en": "this week", "zh": "本周"},
    "l_period_month": {"en": "this month", "zh": "本月"},
    "l_period_all": {"en": "all time", "zh": "全部"},
    "l_period_usage": {"en": "The period is one of: today, week, month, all.",
                       "zh": "时间范围可选：today、week、month、all。"},
    # leaderboards
    "l_lb_usage": {
        "en": "Usage: /leaderboard [today|week|month|all] or /leaderboard paper <paper>",
        "zh": "用法：/leaderboard [today|week|month|all] 或 /leaderboard paper <试卷>",
    },
    "l_lb_title": {"en": "🏆 {title} · {period}", "zh": "🏆 {title} · {period}"},
    "l_lb_rule": {"en": "Daily-quiz points; ties: who finished first.", "zh": "按每日一练得分排名；同分先完成者在前。"},
    "l_lb_row": {"en": "{rank}. {name} — {points} pts · {acc}% · 🔥{streak}",
                 "zh": "{rank}. {name} — {points} 分 · 正确率 {acc}% · 🔥{streak}"},
    "l_lb_you": {"en": "You: #{rank} of {n} — {points} pts · {acc}% · 🔥{streak}",
                 "zh": "你：第 {rank} / {n} 名 — {points} 分 · 正确率 {acc}% · 🔥{streak}"},
    "l_lb_you_none": {"en": "You: no points in this period yet.", "zh": "你：本时段暂无得分。"},
    "l_lb_empty": {"en": "No daily-quiz answers in this period yet.", "zh": "本时段还没有每日一练的作答。"},
    "l_lb_private_head": {"en": "🏆 Your positions · {period}", "zh": "🏆 你的排名 · {period}"},
    "l_lb_private_row": {"en": "• {title}: #{rank} of {n} — {points} pts · {acc}% · 🔥{streak}",
                         "zh": "• {title}：第 {rank} / {n} 名 — {points} 分 · 正确率 {acc}% · 🔥{streak}"},
    "l_lb_private_none": {"en": "• {title}: no points yet", "zh": "• {title}：暂无得分"},
    "l_lb_no_groups": {
        "en": "You're not on a team board yet: answer a daily quiz in your team's group to join it.",
        "zh": "你还不在任何团队的排行榜上：在团队群里回答一次每日一练即可加入。",
    },
    "l_lb_paper_title": {"en": "🏆 {paper} · best exam scores", "zh": "🏆 {paper} · 考试最佳成绩"},
    "l_lb_paper_row": {"en": "{rank}. {name} — {score}/{max} · {time}{prov}",
                       "zh": "{rank}. {name} — {score}/{max} · 用时 {time}{prov}"},
    "l_lb_paper_empty": {"en": "No finished exams on this paper yet.", "zh": "这份试卷还没有已完成的考试。"},
    "l_provisional": {"en": " (provisional)", "zh": "（待复核）"},
    "l_paper_unknown": {"en": "I don't know a paper “{paper}”. See /papers.", "zh": "找不到试卷“{paper}”，请看 /papers。"},
    # review
    "l_rv_none": {"en": "Nothing awaits review. 🎉", "zh": "没有待复核的答案。🎉"},
    "l_rv_card": {
        "en": "📝 Review · {remaining} pending\n\nCandidate: {name}\n{title} · question #{qid}\n\n{stem}\n\n"
              "Answer:\n{response}\n\nReference:\n{reference}\n\nProvisional score: {score}/{max}. "
              "Choose the final score:",
        "zh": "📝 复核 · 待复核 {remaining} 条\n\n考生：{name}\n{title} · 第 #{qid} 题\n\n{stem}\n\n"
              "考生答案：\n{response}\n\n参考答案：\n{reference}\n\n暂定得分：{score}/{max}。请选择最终得分：",
    },
    "l_rv_skip": {"en": "Skip ⏭", "zh": "跳过 ⏭"},
    "l_rv_set": {"en": "Final score {score}/{max} saved.", "zh": "已保存最终得分 {score}/{max}。"},
    "l_rv_already": {"en": "That answer was already reviewed.", "zh": "该答案已复核过。"},
    "l_rv_gone": {"en": "That answer no longer exists.", "zh": "该答案已不存在。"},
    "l_rv_notify": {
        "en": "📝 Your answer to question #{qid} in “{title}” was reviewed: {score}/{max}.\n"
              "Attempt score: {total}/{tmax}{state}",
        "zh": "📝 你在“{title}”中第 #{qid} 题的答案已复核：{score}/{max}。\n本次考试得分：{total}/{tmax}{state}",
    },
    "l_rv_final": {"en": " — final.", "zh": "（最终成绩）。"},
    "l_rv_more": {"en": " — other answers still await review.", "zh": "（仍有答案待复核）。"},
    # report and chart
    "l_rp_usage": {"en": "Usage: /report [today|week|month|all]", "zh": "用法：/report [today|week|month|all]"},
    "l_rp_caption": {"en": "📊 Team report · {team} · {period}: {n} candidates.",
                     "zh": "📊 团队报告 · {team} · {period}：共 {n} 人。"},
    "l_all_teams": {"en": "all teams", "zh": "全部团队"},
    "l_ch_usage": {"en": "Usage: /chart [today|week|month|all]", "zh": "用法：/chart [today|week|month|all]"},
    "l_ch_caption": {"en": "📈 {team} · {period}: daily points over time and accuracy by paper.",
                     "zh": "📈 {team} · {period}：每日得分走势与各试卷正确率。"},
    "l_ch_empty": {"en": "No results in this period to chart yet.", "zh": "本时段还没有可绘制的成绩。"},
    # digest
    "l_dg_usage": {
        "en": "Usage: /digest on [mon..sun] [HH:MM], /digest off, /digest now, /digest (status)",
        "zh": "用法：/digest on [mon..sun] [HH:MM]、/digest off、/digest now、/digest（查看状态）",
    },
    "l_dg_on": {"en": "🗓 Weekly digest: every {day} at {time} ({tz}).", "zh": "🗓 每周简报：每{day} {time}（{tz}）。"},
    "l_dg_off": {"en": "Weekly digest turned off.", "zh": "已关闭每周简报。"},
    "l_dg_none": {"en": "No weekly digest here. Turn it on with /digest on [mon..sun] [HH:MM].",
                  "zh": "本群未开启每周简报。使用 /digest on [mon..sun] [HH:MM] 开启。"},
    "l_dg_title": {"en": "📰 Weekly digest · {title}", "zh": "📰 每周简报 · {title}"},
    "l_dg_participation": {
        "en": "Participation: {active} of {members} members answered ({answers} answers); the week before: {before}.",
        "zh": "参与：{members} 名成员中 {active} 人作答（共 {answers} 题次）；上周 {before} 人。",
    },
    "l_dg_top": {"en": "Top this week:", "zh": "本周前列："},
    "l_dg_top_row": {"en": "{rank}. {name} — {points} pts", "zh": "{rank}. {name} — {points} 分"},
    "l_dg_movers": {"en": "Top movers:", "zh": "进步最快："},
    "l_dg_mover_row": {"en": "• {name}: {prev} → #{rank}", "zh": "• {name}：{prev} → 第 {rank} 名"},
    "l_dg_new": {"en": "new", "zh": "新上榜"},
    "l_dg_weak": {"en": "Weakest topics:", "zh": "薄弱知识点："},
    "l_dg_weak_row": {"en": "• {paper} · {section}: {acc}% over {n} answers",
                      "zh": "• {paper} · {section}：正确率 {acc}%（{n} 题次）"},
    "l_dg_quiet": {"en": "No quiz activity this week.", "zh": "本周没有答题记录。"},
    "l_day_0": {"en": "Monday", "zh": "周一"},
    "l_day_1": {"en": "Tuesday", "zh": "周二"},
    "l_day_2": {"en": "Wednesday", "zh": "周三"},
    "l_day_3": {"en": "Thursday", "zh": "周四"},
    "l_day_4": {"en": "Friday", "zh": "周五"},
    "l_day_5": {"en": "Saturday", "zh": "周六"},
    "l_day_6": {"en": "Sunday", "zh": "周日"},
    # disputes
    "l_dp_usage": {
        "en": "To dispute a question: reply to the question's message with /dispute <reason>; during an "
              "exam, /dispute <reason> flags the question on screen; or /dispute <question id> <reason>.",
        "zh": "对题目提出异议：回复该题的消息并发送 /dispute <理由>；考试中直接发送 /dispute <理由> 即针对当前题目；"
              "或 /dispute <题号ID> <理由>。",
    },
    "l_dp_ok": {"en": "Thanks — dispute #{id} on question #{qid} is recorded; a team lead will look at it.",
                "zh": "谢谢——已记录对第 #{qid} 题的异议 #{id}，组长会处理。"},
    "l_dp_dup": {"en": "You already have an open dispute on question #{qid}.", "zh": "你对第 #{qid} 题已有未处理的异议。"},
    "l_q_unknown": {"en": "I don't know a question #{qid}.", "zh": "找不到第 #{qid} 题。"},
    # bank statistics and curation
    "l_bs_usage": {"en": "Usage: /bankstats [paper]", "zh": "用法：/bankstats [试卷]"},
    "l_bs_disputes": {"en": "⚖️ Open disputes:", "zh": "⚖️ 未处理的异议："},
    "l_bs_no_disputes": {"en": "⚖️ No open disputes.", "zh": "⚖️ 没有未处理的异议。"},
    "l_bs_dispute_row": {"en": "#{id} · question #{qid} ({paper} S{section} Q{number}) ×{n}: {reason}",
                         "zh": "#{id} · 第 #{qid} 题（{paper} 第{section}部分 第{number}题）×{n}：{reason}"},
    "l_bs_attention": {
        "en": "🔎 Questions to look at (p: share of points earned; D: upper-lower 27% discrimination):",
        "zh": "🔎 值得关注的题目（p：得分率；D：高低分组 27% 区分度）：",
    },
    "l_bs_no_data": {"en": "🔎 Not enough answers yet to judge questions (10 per question).",
                     "zh": "🔎 作答还不够，暂无法评估题目（每题需 10 次）。"},
    "l_bs_row": {"en": "#{qid} {paper} S{section} Q{number}: p={p} D={d} n={n}{retired}",
                 "zh": "#{qid} {paper} 第{section}部分 第{number}题：p={p} D={d} n={n}{retired}"},
    "l_bs_retired_mark": {"en": " [retired]", "zh": "［已停用］"},
    "l_bs_paper_head": {"en": "📚 {paper} · {title}{exam_only}", "zh": "📚 {paper} · {title}{exam_only}"},
    "l_bs_exam_only_mark": {"en": " [exam-only]", "zh": "［仅限考试］"},
    "l_bs_commands": {"en": "Commands: /retire ID, /restore ID, /examonly <paper> on|off",
                      "zh": "命令：/retire ID、/restore ID、/examonly <试卷> on|off"},
    "l_btn_retire": {"en": "Retire #{qid}", "zh": "停用 #{qid}"},
    "l_btn_restore": {"en": "Restore #{qid}", "zh": "恢复 #{qid}"},
    "l_btn_uphold": {"en": "Uphold #{id}", "zh": "采纳 #{id}"},
    "l_btn_dismiss": {"en": "Dismiss #{id}", "zh": "驳回 #{id}"},
    "l_btn_exam_only_on": {"en": "Make exam-only", "zh": "设为仅限考试"},
    "l_btn_exam_only_off": {"en": "Allow in practice", "zh": "允许练习使用"},
    "l_retire_usage": {"en": "Usage: /retire <question id> or /restore <question id>",
                       "zh": "用法：/retire <题号ID> 或 /restore <题号ID>"},
    "l_retired_ok": {"en": "Question #{qid} retired: it will not be asked again.", "zh": "第 #{qid} 题已停用，不会再出现。"},
    "l_restored_ok": {"en": "Question #{qid} restored.", "zh": "第 #{qid} 题已恢复。"},
    "l_examonly_usage": {"en": "Usage: /examonly <paper> on|off", "zh": "用法：/examonly <试卷> on|off"},
    "l_examonly_on": {"en": "{paper} is now exam-only: kept out of practice and daily quizzes.",
                      "zh": "{paper} 已设为仅限考试：不用于练习和每日一练。"},
    "l_examonly_off": {"en": "{paper} is available for practice and daily quizzes again.",
                       "zh": "{paper} 已恢复用于练习和每日一练。"},
    "l_dispute_upheld": {"en": "Dispute #{id} upheld.", "zh": "异议 #{id} 已采纳。"},
    "l_dispute_dismissed": {"en": "Dispute #{id} dismissed.", "zh": "异议 #{id} 已驳回。"},
    "l_dispute_gone": {"en": "That dispute is already closed.", "zh": "该异议已处理。"},
    # privacy
    "l_fg_private": {"en": "/forgetme works in a private chat with me.", "zh": "/forgetme 请在与我的私聊中使用。"},
    "l_fg_confirm": {
        "en": "This deletes everything I hold about you: your exams and answers, daily-quiz answers and "
              "streaks, disputes, team memberships and settings. It cannot be undone. Delete it?",
        "zh": "这将删除我保存的你的全部数据：考试与答案、每日一练作答与连续天数、异议、团队成员记录和设置。"
              "此操作无法撤销。确定删除？",
    },
    "l_fg_yes": {"en": "Delete my data", "zh": "删除我的数据"},
    "l_fg_no": {"en": "Cancel", "zh": "取消"},
    "l_fg_done": {
        "en": "Done: your data is deleted ({attempts} attempts, {daily} daily-quiz answers). "
              "If you talk to me again, I'll start a fresh record.",
        "zh": "已删除你的数据（{attempts} 次考试，{daily} 条每日一练作答）。如果你再次与我对话，我会重新建立记录。",
    },
    "l_fg_cancelled": {"en": "Nothing was deleted.", "zh": "未删除任何数据。"},
    "l_fg_not_yours": {"en": "This button is not for you.", "zh": "这个按钮不是给你的。"},
    "l_bs_sealed": {
        "en": "🔒 This paper's statistics are hidden while your own exam on it runs.",
        "zh": "🔒 你在这份试卷上的考试进行期间，其统计信息不予显示。",
    },
}
