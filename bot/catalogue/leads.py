"""Texts of the leaderboards, the lead's desk, disputes and /forgetme: key -> {"en": ..., "zh": ...}."""

TEXTS: dict[str, dict[str, str]] = {
    "l_bank_admin_only": {
        "en": "The bank is shared by every team, so only the bot's admins can change it: {admins}.",
        "zh": "题库由所有团队共用，只有机器人的管理员可以修改：{admins}。",
    },
    "l_bank_no_admins": {
        "en": "The bank is shared by every team, so only the bot's admins can change it, and whoever runs the bot "
              "has named none.",
        "zh": "题库由所有团队共用，只有机器人的管理员可以修改，而运行机器人的人尚未指定管理员。",
    },
    "l_user_unmet": {"en": "user {id}", "zh": "用户 {id}"},
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
        "en": "Usage: /leaderboard [live] [today|week|month|all], /leaderboard paper <paper> or "
              "/leaderboard rating [topic]",
        "zh": "用法：/leaderboard [live] [today|week|month|all]、/leaderboard paper <试卷> 或 "
              "/leaderboard rating [主题]",
    },
    "l_lb_title": {"en": "🏆 {title} · {period}", "zh": "🏆 {title} · {period}"},
    "l_lb_rule": {"en": "Daily-quiz points; ties: who finished first.", "zh": "按每日一练得分排名；同分先完成者在前。"},
    "l_lb_row": {"en": "{rank}. {name} — {points} · {acc}% · 🔥{streak}",
                 "zh": "{rank}. {name} — {points} · 正确率 {acc}% · 🔥{streak}"},
    "l_lb_you": {"en": "You: #{rank} of {n} — {points} · {acc}% · 🔥{streak}",
                 "zh": "你：第 {rank} / {n} 名 — {points} · 正确率 {acc}% · 🔥{streak}"},
    "l_lb_held": {"en": "⏳ The open quiz counts here once it closes ({at}) and its keys are posted.",
                  "zh": "⏳ 正在进行的每日一练在 {at} 结束并公布答案后计入本榜。"},
    "l_lb_you_none": {"en": "You: no points in this period yet.", "zh": "你：本时段暂无得分。"},
    "l_lb_empty": {"en": "No daily-quiz answers in this period yet.", "zh": "本时段还没有每日一练的作答。"},
    "l_lb_private_head": {"en": "🏆 Your positions · {period}", "zh": "🏆 你的排名 · {period}"},
    "l_lb_private_row": {"en": "• {title}: #{rank} of {n} — {points} · {acc}% · 🔥{streak}",
                         "zh": "• {title}：第 {rank} / {n} 名 — {points} · 正确率 {acc}% · 🔥{streak}"},
    "l_lb_private_none": {"en": "• {title}: no points yet", "zh": "• {title}：暂无得分"},
    "l_lb_no_groups": {
        "en": "You're not on a team board yet: answer a daily quiz in your team's group to join it.",
        "zh": "你还不在任何团队的排行榜上：在团队群里回答一次每日一练即可加入。",
    },
    "l_lb_paper_title": {"en": "🏆 {paper} · best exam scores", "zh": "🏆 {paper} · 考试最佳成绩"},
    "l_lb_paper_row": {"en": "{rank}. {name} — {score}/{max} · {time}{prov}",
                       "zh": "{rank}. {name} — {score}/{max} · 用时 {time}{prov}"},
    "l_lb_paper_empty": {"en": "No finished exams on this paper yet.", "zh": "这份试卷还没有已完成的考试。"},
    "l_provisional": {"en": " (provisional)", "zh": "（暂定）"},
    "l_paper_unknown": {"en": "I don't know a paper “{paper}”. /papers lists each with its code (P3).",
                        "zh": "找不到试卷“{paper}”。/papers 列出每份试卷及其代号（如 P3）。"},
    # review
    "l_rv_none": {"en": "Nothing awaits review. 🎉", "zh": "没有待复核的答案。🎉"},
    "l_rv_card": {
        "en": "📝 Review · {remaining} pending\n\nCandidate: {name}\n{paper} · {question}\n\n{stem}\n\n"
              "Answer:\n{response}\n\nReference:\n{reference}\n\nProvisional score: {score}/{max}. "
              "Choose the final score:",
        "zh": "📝 复核 · 待复核 {remaining} 条\n\n考生：{name}\n{paper} · {question}\n\n{stem}\n\n"
              "考生答案：\n{response}\n\n参考答案：\n{reference}\n\n暂定得分：{score}/{max}。请选择最终得分：",
    },
    "l_rv_skip": {"en": "Skip ⏭", "zh": "跳过 ⏭"},
    "l_rv_set": {"en": "Final score {score}/{max} saved.", "zh": "已保存最终得分 {score}/{max}。"},
    "l_rv_already": {"en": "That answer was already reviewed.", "zh": "该答案已复核过。"},
    "l_rv_gone": {"en": "That answer no longer exists.", "zh": "该答案已不存在。"},
    "l_rv_notify_total": {
        "en": "📝 Written answers on {paper} were reviewed. Attempt score: {total}/{tmax}{state}",
        "zh": "📝 你在{paper}中的主观题答案已复核。本次考试得分：{total}/{tmax}{state}",
    },
    "l_rv_notify": {
        "en": "📝 Your answer to {question} of {paper} was reviewed: {score}/{max}.\n"
              "Attempt score: {total}/{tmax}{state}",
        "zh": "📝 你在{paper}中{question}的答案已复核：{score}/{max}。\n本次考试得分：{total}/{tmax}{state}",
    },
    # the paper a candidate sat: its code and title
    "l_rv_paper": {"en": "{code} “{title}”", "zh": "{code}“{title}”"},
    "l_rv_paper_gone": {"en": "“{title}”", "zh": "“{title}”"},
    "l_rv_final": {"en": " — final.", "zh": "（最终成绩）。"},
    "l_rv_more": {"en": " — other answers still await review.", "zh": "（仍有答案待复核）。"},
    # report and chart
    "l_rp_usage": {"en": "Usage: /report [today|week|month|all] or /report invites",
                   "zh": "用法：/report [today|week|month|all] 或 /report invites"},
    "l_rp_caption": {"en": "📊 Team report · {team} · {period}: {n} {n:candidate|candidates}.",
                     "zh": "📊 团队报告 · {team} · {period}：共 {n} 人。"},
    "l_all_teams": {"en": "all teams", "zh": "全部团队"},
    "l_ch_usage": {"en": "Usage: /chart [today|week|month|all]", "zh": "用法：/chart [today|week|month|all]"},
    "l_ch_caption": {"en": "📈 {team} · {period}: daily points over time and accuracy by paper.",
                     "zh": "📈 {team} · {period}：每日得分走势与各试卷正确率。"},
    "l_ch_no_font": {"en": "(No Chinese font on this server, so the chart shows the papers by code: {names})",
                     "zh": "（服务器没有中文字体，图中试卷以代号表示：{names}）"},
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
        "en": "Participation: {active} of the {members} {members:person|people} seen in this group answered the daily quiz "
              "({answers} {answers:answer|answers}); the week before: {before}. The roster (/team) lists only those who joined.",
        "zh": "参与：本群已知的 {members} 人中有 {active} 人作答每日一练（共 {answers} 题次）；上周 {before} 人。"
              "名单（/team）只含已加入的成员。",
    },
    "l_dg_top": {"en": "Top this week:", "zh": "本周前列："},
    "l_dg_top_row": {"en": "{rank}. {name} — {points}", "zh": "{rank}. {name} — {points}"},
    "l_dg_movers": {"en": "Top movers:", "zh": "进步最快："},
    "l_dg_mover_row": {"en": "• {name}: {prev} → #{rank}", "zh": "• {name}：{prev} → 第 {rank} 名"},
    "l_dg_new": {"en": "new", "zh": "新上榜"},
    "l_dg_weak": {"en": "Weakest topics:", "zh": "薄弱知识点："},
    "l_dg_weak_row": {"en": "• {topic}: {acc}% over {n} {n:answer|answers}",
                      "zh": "• {topic}：正确率 {acc}%（{n} 题次）"},
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
              "exam, /dispute <reason> flags the question on screen; or /dispute P3 Q43 <reason> with the "
              "question's reference.",
        "zh": "对题目提出异议：回复该题的消息并发送 /dispute <理由>；考试中直接发送 /dispute <理由> 即针对当前题目；"
              "或用题目编号：/dispute P3 Q43 <理由>。",
    },
    "l_dp_ok": {"en": "Thanks — dispute #{id} on {question} is recorded; a team lead will look at it.",
                "zh": "谢谢——已记录对 {question} 的异议 #{id}，组长会处理。"},
    "l_dp_dup": {"en": "You already have an open dispute on {question}.", "zh": "你对 {question} 已有未处理的异议。"},
    "l_q_unknown": {"en": "I don't know a question “{asked}”. Name it by its reference, such as P3 Q43.",
                    "zh": "找不到题目“{asked}”。请用题目编号，例如 P3 Q43。"},
    # bank statistics and curation
    "l_bs_usage": {"en": "Usage: /bankstats [paper]", "zh": "用法：/bankstats [试卷]"},
    "l_bs_disputes": {"en": "⚖️ Open disputes:", "zh": "⚖️ 未处理的异议："},
    "l_bs_no_disputes": {"en": "⚖️ No open disputes.", "zh": "⚖️ 没有未处理的异议。"},
    "l_bs_dispute_row": {"en": "Dispute #{id} · {question} ({where}) ×{n}: {reason}",
                         "zh": "异议 #{id} · {question}（{where}）×{n}：{reason}"},
    "l_bs_attention": {
        "en": "🔎 Questions to look at (p: share of points earned; D: upper-lower 27% discrimination):",
        "zh": "🔎 值得关注的题目（p：得分率；D：高低分组 27% 区分度）：",
    },
    "l_bs_no_data": {"en": "🔎 Not enough answers yet to judge questions (10 per question).",
                     "zh": "🔎 作答还不够，暂无法评估题目（每题需 10 次）。"},
    "l_bs_row": {"en": "{question} ({where}): p={p} D={d} n={n}{retired}",
                 "zh": "{question}（{where}）：p={p} D={d} n={n}{retired}"},
    "l_bs_retired_mark": {"en": " [retired]", "zh": "［已停用］"},
    "l_bs_unanswered": {"en": "{n:|# question|# questions} not answered yet: no statistics until they are.",
                        "zh": "还有 {n} 道题尚无作答，有作答后才有统计。"},
    "l_bs_paper_head": {"en": "📚 {paper} · {title}{exam_only}", "zh": "📚 {paper} · {title}{exam_only}"},
    "l_bs_exam_only_mark": {"en": " [exam-only]", "zh": "［仅限考试］"},
    "l_bs_commands": {"en": "Commands: /retire P3 Q43, /restore P3 Q43, /examonly <paper> on|off",
                      "zh": "命令：/retire P3 Q43、/restore P3 Q43、/examonly <试卷> on|off"},
    "l_btn_retire": {"en": "Retire {question}", "zh": "停用 {question}"},
    "l_btn_uphold": {"en": "Uphold #{id}", "zh": "采纳 #{id}"},
    "l_btn_dismiss": {"en": "Dismiss #{id}", "zh": "驳回 #{id}"},
    "l_btn_exam_only_on": {"en": "Make exam-only", "zh": "设为仅限考试"},
    "l_btn_exam_only_off": {"en": "Allow in practice", "zh": "允许练习使用"},
    "l_retire_usage": {"en": "Usage: /retire <question> or /restore <question>, the question by its reference "
                             "(P3 Q43) or its bank id",
                       "zh": "用法：/retire <题目> 或 /restore <题目>，题目用编号（P3 Q43）或题库编号"},
    "l_retired_ok": {"en": "{question} retired: it will not be asked again.", "zh": "{question} 已停用，不会再出现。"},
    "l_restored_ok": {"en": "{question} restored.", "zh": "{question} 已恢复。"},
    "l_examonly_usage": {"en": "Usage: /examonly <paper> on|off", "zh": "用法：/examonly <试卷> on|off"},
    "l_examonly_on": {"en": "{paper} is now exam-only: kept out of practice and daily quizzes.",
                      "zh": "{paper} 已设为仅限考试：不用于练习和每日一练。"},
    "l_examonly_off": {"en": "{paper} is available for practice and daily quizzes again.",
                       "zh": "{paper} 已恢复用于练习和每日一练。"},
    "l_dispute_upheld": {"en": "Dispute #{id} upheld.", "zh": "异议 #{id} 已采纳。"},
    "l_kf_prompt": {
        "en": "Fix the key of {question} (now: {key}): /keyfix {id} <new key, in the same letters>, or for a "
              "fill-in blank /keyfix {id} + <alternative answer>. Everyone who answered it is regraded; add keep to "
              "leave scores.",
        "zh": "修正 {question} 的答案（当前：{key}）：/keyfix {id} <新答案，用同样的字母>；填空题可用 /keyfix {id} + "
              "<可接受的答案>。所有作答者将重新评分；末尾加 keep 则保留原分数。",
    },
    # a key's options as the person saw them: letter and text (bot/answer_forms.seen_text; the desk writes the same)
    "seen_option": {"en": "{letter} · {text}", "zh": "{letter} · {text}"},
    "letters_seen": {"en": "{letters}, in the letters the disputer saw", "zh": "{letters}，按申诉人看到的选项字母"},
    "bank_letters": {"en": "{letters}, in the bank's letters", "zh": "{letters}，按题库中的选项字母"},
    "l_kf_prompt_withheld": {
        "en": "Fix the key of {question}: /keyfix {id} <new key>, or for a fill-in blank /keyfix {id} + "
              "<alternative answer>. Its key is not shown to you while your own exam on it runs.",
        "zh": "修正 {question} 的答案：/keyfix {id} <新答案>；填空题可用 /keyfix {id} + <可接受的答案>。"
              "你自己的考试进行中，不显示该题答案。",
    },
    "l_kf_usage": {"en": "Usage: /keyfix <dispute> <new key> [keep], or /keyfix <dispute> + <alternative> [keep]",
                   "zh": "用法：/keyfix <异议编号> <新答案> [keep]，或 /keyfix <异议编号> + <可接受的答案> [keep]"},
    "l_kf_none": {"en": "Dispute #{id} has no key to fix (unknown, dismissed or already fixed).",
                  "zh": "异议 #{id} 没有待修正的答案（不存在、已驳回或已修正）。"},
    "l_kf_bad": {"en": "That key doesn't fit the question: {why}", "zh": "该答案与题目不符：{why}"},
    "l_kf_done": {
        "en": "✅ {question} now has key version {version}: "
              "{answers:no past answer to regrade|# answer regraded|# answers regraded}"
              "{changed:, no score changed.|, # score changed; that candidate is told.|"
              ", # scores changed; those candidates are told.}",
        "zh": "✅ {question} 的答案已更新为第 {version} 版："
              "{answers:没有需要重新评分的作答|重新评分 # 份作答|重新评分 # 份作答}"
              "{changed:，没有分数变化。|，# 份分数变化，已通知该考生。|，# 份分数变化，已通知相关考生。}",
    },
    # {where}: "P3 · Q43 (Paper A)" (l_kf_notice_where), or "a question" when it is gone
    "l_kf_notice_disputer": {"en": "⚖️ Your dispute #{id} on {where} was upheld: its key is fixed.",
                             "zh": "⚖️ 你对 {where} 的异议 #{id} 已被采纳，答案已修正。"},
    "l_kf_notice_score": {"en": "📝 {where} was regraded with its fixed key: your score {old} → {new} (of {max}).",
                          "zh": "📝 {where} 按修正后的答案重新评分：你的得分 {old} → {new}（满分 {max}）。"},
    "l_kf_notice_scores": {"en": "📝 {where} was regraded with its fixed key: {n} of your {n:score|scores} "
                                 "changed.",
                           "zh": "📝 {where} 按修正后的答案重新评分：你有 {n} 个得分发生变化。"},
    "l_kf_notice_total": {"en": "📝 A key on {paper} was fixed and the answers regraded: your score there {old} → {new}.",
                          "zh": "📝 {paper}有答案已修正并重新评分：你在该卷的得分 {old} → {new}。"},
    "l_kf_notice_where": {"en": "{question} ({paper})", "zh": "{question}（{paper}）"},
    "l_kf_notice_nowhere": {"en": "a question", "zh": "一道题"},
    "l_kf_notice_line": {"en": "· {where}: {old} → {new} (of {max})", "zh": "· {where}：{old} → {new}（满分 {max}）"},
    "l_kf_notice_daily": {"en": "daily quiz", "zh": "每日一练"},
    "l_kf_held": {"en": "⏳ {held} {held:answer|answers} on a running exam will be regraded at hand-in; whoever sits "
                        "that paper hears of the fix only then.",
                  "zh": "⏳ 另有 {held} 份作答在进行中的考试里，将在交卷时重新评分；考生交卷后才会收到通知。"},
    "l_kf_open": {"en": "Dispute #{id} is still open: uphold it first (/bankstats), then fix its key.",
                  "zh": "异议 #{id} 尚未处理：请先采纳（/bankstats），再修正答案。"},
    "l_own_score": {"en": "Nobody changes a key that changes their own score: you answered {question}. "
                          "Another admin must make this change.",
                    "zh": "任何人都不能修改会改变自己得分的答案：你作答过 {question}，请由其他管理员修改。"},
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
        "en": "Done: your data is deleted ({attempts}, {daily}). "
              "If you talk to me again, I'll start a fresh record.",
        "zh": "已删除你的数据（{attempts}，{daily}）。如果你再次与我对话，我会重新建立记录。",
    },
    "l_fg_cancelled": {"en": "Nothing was deleted.", "zh": "未删除任何数据。"},
    "l_fg_not_yours": {"en": "This button is not for you.", "zh": "这个按钮不是给你的。"},
    "l_bs_sealed": {
        "en": "🔒 This paper's statistics are hidden while your own exam on it runs.",
        "zh": "🔒 你在这份试卷上的考试进行期间，其统计信息不予显示。",
    },
    # self-grading and team rosters
    "l_rv_own": {"en": "Nobody scores their own answers: another lead reviews this one.",
                 "zh": "任何人都不能给自己的答案评分：这条答案需由其他组长复核。"},
    "l_dispute_own": {"en": "Nobody resolves their own dispute: another admin decides this one.",
                      "zh": "任何人都不能处理自己提出的异议：需由其他管理员决定。"},
    "l_tm_usage": {
        "en": "Usage: /team (the roster); leads: /team add|remove|accept|reject @user, or reply to the "
              "member's message with /team add (or remove, accept, reject). Members send /join, and "
              "/team leave to take themselves off.",
        "zh": "用法：/team（查看名单）；组长：/team add|remove|accept|reject @用户，或回复该成员的消息发送 "
              "/team add（或 remove、accept、reject）。成员发送 /join 申请加入，发送 /team leave 退出名单。",
    },
    "l_tm_left_roster": {"en": "You're off the roster of {title}: its leads see nothing more of yours.",
                         "zh": "你已退出 {title} 的名单：组长不再能看到你的任何记录。"},
    "l_tm_leave_none": {"en": "You're not on the roster of {title}.", "zh": "你不在 {title} 的名单上。"},
    "l_tm_head": {"en": "👥 Team {title}: {n} on the roster", "zh": "👥 团队 {title}：名单共 {n} 人"},
    "l_tm_pending_head": {"en": "Waiting for a lead ({n}):", "zh": "等待组长通过（{n}）："},
    "l_tm_invited_head": {"en": "Invited, waiting for their consent ({n}):", "zh": "已邀请，等待本人同意（{n}）："},
    "l_tm_left_mark": {"en": " — left the group", "zh": " — 已退群"},
    "l_tm_empty": {
        "en": "👥 Nobody is on the {title} roster yet. Members send /join here; leads /team add @user "
              "(the member accepts in a private chat).",
        "zh": "👥 {title} 的名单还是空的。成员在本群发送 /join；组长使用 /team add @用户（需本人在私聊中同意）。",
    },
    "l_tm_explain": {
        "en": "Joining takes the member's consent. Leads see and review only what members did after joining, "
              "while they are in the group; leaving the group ends the consent, and one who comes back is "
              "seen again only after consenting again (/join). Nobody reviews their own; /team leave takes "
              "you off.",
        "zh": "加入名单需本人同意。组长只能查看和复核成员加入之后、且仍在群内时的答案；退群即撤回同意，重新入群后需再次同意"
              "（/join）才会被看到。任何人都不能复核自己的答案；发送 /team leave 可退出名单。",
    },
    "l_tm_mine_head": {"en": "👥 Your teams:", "zh": "👥 你的团队："},
    "l_tm_mine_member": {"en": "• {title}: member", "zh": "• {title}：成员"},
    "l_tm_mine_pending": {"en": "• {title}: waiting for a lead", "zh": "• {title}：等待组长通过"},
    "l_tm_mine_invited": {"en": "• {title}: invited, waiting for you", "zh": "• {title}：已邀请你，等待你同意"},
    "l_btn_join_team": {"en": "✅ Join {title}", "zh": "✅ 加入 {title}"},
    "l_tm_mine_none": {"en": "You're not on a team roster. Send /join in your team's group.",
                       "zh": "你还不在任何团队名单上。请在团队群里发送 /join。"},
    "l_tm_unknown": {
        "en": "I know nobody as {who}. I know people once they have written to me (here or in private), by "
              "their numeric id or by their Telegram @username, if they set one. Reply to one of their "
              "messages with the same command instead.",
        "zh": "我不认识 {who}。对方给我发过消息（在本群或私聊）后我才认识，并且只能按数字 ID 或对方在 Telegram "
              "设置的 @用户名（如有）找到。请改为回复对方的一条消息并发送同一命令。",
    },
    "l_tm_ambiguous": {"en": "More than one person I know went by {who}: reply to their message instead.",
                       "zh": "我认识的人里不止一个用过 {who} 这个名字：请改为回复对方的消息。"},
    "l_tm_not_a_member": {"en": "Reply to a member's message, not to a bot's.", "zh": "请回复成员的消息，而不是机器人的消息。"},
    "l_tm_added": {"en": "✅ {name} is on the team: its leads see the answers they give from now on.",
                   "zh": "✅ {name} 已加入团队：组长可以查看其从现在起的答案。"},
    "l_tm_invited": {
        "en": "📨 I asked {name} in a private chat to accept. Until they do, the team's leads see nothing of theirs.",
        "zh": "📨 已在私聊中请 {name} 确认。对方同意之前，组长看不到其任何答案。",
    },
    "l_tm_invite_unsent": {
        "en": "I can't write to {name} (they haven't started a private chat with me). Ask them to send /join "
              "here, or to /start me and send /team.",
        "zh": "我无法私信 {name}（对方还没有和我开始私聊）。请对方在本群发送 /join，或私聊我发送 /start 后再发送 /team。",
    },
    "l_tm_not_in_group": {"en": "{name} is not in this group: only its members can join its roster.",
                          "zh": "{name} 不在本群中：只有群成员才能加入名单。"},
    "l_tm_invitation": {
        "en": "👥 An invitation from {lead}: join the roster of the team {title}? Its leads would see the practice "
              "and exam answers you give from now on (none from before) and score your written answers.",
        "zh": "👥 {lead} 邀请你加入团队 {title} 的名单。加入后，其组长可以查看你从现在起的练习与考试答案"
              "（之前的不会），并为你的主观题评分。是否加入？",
    },
    "l_btn_join": {"en": "✅ Join", "zh": "✅ 加入"},
    "l_btn_decline": {"en": "✖ No, thanks", "zh": "✖ 不加入"},
    "l_cs_joined": {"en": "✅ You're on the team {title}: its leads see the answers you give from now on.",
                    "zh": "✅ 你已加入团队 {title}：其组长可以查看你从现在起的答案。"},
    "l_cs_declined": {"en": "You declined to join {title}.", "zh": "你已拒绝加入 {title}。"},
    "l_cs_stale": {"en": "This invitation is no longer open.", "zh": "这个邀请已失效。"},
    "l_cs_not_in_group": {"en": "Join the group {title} first: only its members can be on its roster.",
                          "zh": "请先加入群 {title}：只有群成员才能加入名单。"},
    "l_cs_group_joined": {"en": "✅ {name} accepted and is on the team roster.", "zh": "✅ {name} 已同意并加入团队名单。"},
    "l_cs_group_declined": {"en": "{name} declined to join the team roster.", "zh": "{name} 拒绝加入团队名单。"},
    "l_tm_already": {"en": "{name} is already on the team.", "zh": "{name} 已在团队中。"},
    "l_tm_removed": {"en": "{name} is off the team: its leads no longer see their answers.",
                     "zh": "{name} 已移出团队：组长不再能看到其答案。"},
    "l_tm_not_on": {"en": "{name} is not on the team.", "zh": "{name} 不在团队中。"},
    "l_tm_accepted": {"en": "✅ {name} accepted by {lead}.", "zh": "✅ {lead} 已通过 {name} 的申请。"},
    "l_tm_rejected": {"en": "{name}'s request was turned down by {lead}.", "zh": "{lead} 已拒绝 {name} 的申请。"},
    "l_tm_no_request": {"en": "{name} has no request waiting.", "zh": "{name} 没有待处理的申请。"},
    "l_tm_decided": {"en": "That request was already decided.", "zh": "该申请已处理过。"},
    "l_tm_notice_added": {
        "en": "👥 You're on the team {title}: its leads now see and review the practice and exam answers you "
              "give from now on.",
        "zh": "👥 你已加入团队 {title}：其组长现在可以查看和复核你从现在起的练习与考试答案。",
    },
    "l_tm_notice_rejected": {"en": "Your request to join {title} was turned down.",
                             "zh": "你加入 {title} 的申请未通过。"},
    "l_jn_pending": {
        "en": "🙋 {name} asked to join {title}: pending until a lead accepts. Leads: accept or reject.",
        "zh": "🙋 {name} 申请加入 {title}：等待组长通过。组长请选择通过或拒绝。",
    },
    "l_jn_waiting": {"en": "Your request to join is still waiting for a lead.", "zh": "你的加入申请仍在等待组长处理。"},
    "l_jn_member": {"en": "You're already on the team.", "zh": "你已在团队中。"},
    "l_jn_group_only": {"en": "Send /join in your team's group.", "zh": "请在团队群里发送 /join。"},
    "l_btn_accept": {"en": "✅ Accept", "zh": "✅ 通过"},
    "l_btn_reject": {"en": "✖ Reject", "zh": "✖ 拒绝"},
    "l_bs_held": {"en": "⏸ Held out of exams, practice and daily quizzes:",
                  "zh": "⏸ 暂停出题（考试、练习、每日一练均不出）："},
    "l_bs_held_key": {"en": "{question} ({where}): key in doubt ({doubt}); asked again once confirmed",
                      "zh": "{question}（{where}）：答案存疑（{doubt}），确认后恢复出题"},
    "l_bs_held_dup": {"en": "{question} ({where}): same stem as {other_question}, asked once",
                      "zh": "{question}（{where}）：与 {other_question} 题干相同，只出一次"},
    "l_btn_confirm_key": {"en": "Key of {question} is right", "zh": "确认 {question} 答案"},
    "l_key_confirmed": {"en": "Key of {question} confirmed: it is asked again.",
                        "zh": "{question} 的答案已确认，恢复出题。"},
    "l_key_not_held": {"en": "{question} is not held for its key.", "zh": "{question} 并未因答案存疑而暂停。"},
}
