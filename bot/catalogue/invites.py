"""Texts of hiring invites, and of what a candidate sees at the end under a paper's review option."""

TEXTS: dict[str, dict[str, str]] = {
    # review options (exam screens)
    "fb_recorded": {"en": "✅ Answer recorded.", "zh": "✅ 答案已记录。"},
    "result_sent_to_team": {"en": "📨 Your answers were sent to the team.", "zh": "📨 你的答案已发送给团队。"},
    "review_closed": {"en": "This paper does not show answers and keys.", "zh": "这份试卷不显示答案与解析。"},
    "invite_only": {"en": "This paper is opened by an invite link only.", "zh": "这份试卷只能通过邀请链接参加。"},
    # the lead
    "iv_usage": {
        "en": "Usage: /invite <paper> [48h] [+15m] [@username] [2x] [notify]\n<paper> is its code in /papers (P3) "
              "or part of its title; 48h the window (default 72h); +15m extra time; 2x two attempts (default one); "
              "notify: tell the group when done.",
        "zh": "用法：/invite <试卷> [48h] [+15m] [@用户名] [2x] [notify]\n<试卷> 为 /papers 中的代号（如 P3）或标题的一部分；"
              "48h 为有效期（默认 72h）；+15m 为额外时间；2x 允许两次作答（默认一次）；notify：完成时通知本群。",
    },
    "iv_bad": {"en": "I couldn't read that: {problem}. See /invite for the usage.",
               "zh": "无法识别：{problem}。用法见 /invite。"},
    # what an invite request got wrong (proctor.invites.request.Problem); the CLI says it in English
    "iv_bad_duration": {"en": "“{text}” is not a duration like 90m, 48h or 3d",
                        "zh": "“{text}”不是 90m、48h 或 3d 这样的时长"},
    "iv_bad_no_paper": {"en": "no paper is named", "zh": "没有指定试卷"},
    "iv_bad_window": {"en": "the window is at most {days} {days:day|days}", "zh": "有效期最长 {days} 天"},
    "iv_bad_extra": {"en": "extra time is at most {hours} {hours:hour|hours}", "zh": "额外时间最多 {hours} 小时"},
    "iv_bad_attempts": {"en": "attempts are 1x to {n}x", "zh": "作答次数为 1x 至 {n}x"},
    "iv_bad_batch": {"en": "a batch holds 1 to {count} {count:invite|invites}", "zh": "一次可创建 1 至 {count} 个邀请"},
    "iv_paper_unknown": {"en": "No single paper matches “{paper}”. Use its code in /papers (P3) or a part of its title.",
                         "zh": "没有匹配“{paper}”的试卷。请用 /papers 中的代号（如 P3）或标题的一部分。"},
    "iv_created": {
        "en": "🔗 Invite #{id} · {paper}\n{link}\n\nOpen until {closes}{extra}.\n{who}",
        "zh": "🔗 邀请 #{id} · {paper}\n{link}\n\n有效期至 {closes}{extra}。\n{who}",
    },
    "iv_extra": {"en": " · +{minutes} min extra time", "zh": " · 额外 {minutes} 分钟"},
    # who may open the link: a named user only, or whoever opens it first
    "iv_for": {"en": "For @{username} only.", "zh": "仅限 @{username} 使用。"},
    "iv_for_anyone": {"en": "The first person to open the link claims it; send it to your candidate only.",
                      "zh": "第一个打开链接的人即占用此邀请，请只发给你的候选人。"},
    "iv_resent": {"en": "🔁 A new link for invite #{id}; the old one no longer works.",
                  "zh": "🔁 邀请 #{id} 的新链接；旧链接已失效。"},
    "iv_revoked": {"en": "🚫 Invite #{id} is revoked; its link no longer works.",
                   "zh": "🚫 邀请 #{id} 已撤销，链接失效。"},
    "iv_cannot": {"en": "That invite can't be changed now ({status}).", "zh": "该邀请现在无法更改（{status}）。"},
    "iv_unsent": {
        "en": "I can't write to you privately yet, so the invite was withdrawn: open a private chat with me, "
              "press Start, then try again.",
        "zh": "我还不能私聊你，因此已撤回该邀请：请先打开与我的私聊并点击“开始”，然后重试。",
    },
    "iv_btn_revoke": {"en": "🚫 Revoke", "zh": "🚫 撤销"},
    "iv_btn_resend": {"en": "🔁 Resend", "zh": "🔁 重发"},
    "iv_list_head": {"en": "🔗 Invites · {team}", "zh": "🔗 邀请 · {team}"},
    "iv_list_none": {"en": "No invites yet. Make one with /invite <paper>.", "zh": "还没有邀请。用 /invite <试卷> 创建。"},
    "iv_list_row": {"en": "#{id} {status} · {paper} · {who}{score} · until {closes}",
                    "zh": "#{id} {status} · {paper} · {who}{score} · 截至 {closes}"},
    "iv_status_open": {"en": "⚪ open", "zh": "⚪ 未使用"},
    "iv_status_claimed": {"en": "🟡 claimed", "zh": "🟡 已占用"},
    "iv_status_started": {"en": "🔵 started", "zh": "🔵 进行中"},
    "iv_status_finished": {"en": "🟢 finished", "zh": "🟢 已完成"},
    "iv_status_expired": {"en": "⚫ expired", "zh": "⚫ 已过期"},
    "iv_status_revoked": {"en": "🔴 revoked", "zh": "🔴 已撤销"},
    "iv_nobody": {"en": "nobody yet", "zh": "尚无人"},
    "iv_report": {"en": "🔗 Invites · {team}: {n} {n:row|rows}", "zh": "🔗 邀请 · {team}：{n} 行"},
    # the candidate
    "iv_welcome": {
        "en": "👋 {team} invites you to sit a paper.\n\n📝 {paper}\n{n} {n:question|questions} · max {max} {max:pt|pts} · {minutes} min"
              "{extra}\nStart before {closes}; once started you keep the full time.\n\n{rules}",
        "zh": "👋 {team} 邀请你参加一份试卷。\n\n📝 {paper}\n共 {n} 题 · 满分 {max} · {minutes} 分钟{extra}\n"
              "请在 {closes} 前开始；开始后可用满全部时间。\n\n{rules}",
    },
    "iv_team_default": {"en": "The hiring team", "zh": "招聘团队"},
    "iv_running": {"en": "Your exam is running: /resume to go back to it.", "zh": "你的考试正在进行：发送 /resume 回到考试。"},
    "iv_refused_unknown": {"en": "This invite link is not valid.", "zh": "这个邀请链接无效。"},
    "iv_refused_foreign": {"en": "This invite belongs to someone else.", "zh": "这个邀请属于其他人。"},
    "iv_refused_used": {"en": "This invite has already been used.", "zh": "这个邀请已被使用。"},
    "iv_refused_expired": {"en": "This invite has expired.", "zh": "这个邀请已过期。"},
    "iv_refused_revoked": {"en": "This invite was withdrawn by the team.", "zh": "这个邀请已被团队撤回。"},
    "iv_refused_slow": {"en": "Too many invalid links. Please try again later.", "zh": "无效链接过多，请稍后再试。"},
    # the team
    "iv_card": {
        "en": "📋 Invite #{id} finished · {candidate}\n{paper}\nScore: {score}/{max} ({pct}%){reason}\n"
              "Time used: {used}\n\n{sections}{pending}",
        "zh": "📋 邀请 #{id} 已完成 · {candidate}\n{paper}\n得分：{score}/{max}（{pct}%）{reason}\n用时：{used}\n\n"
              "{sections}{pending}",
    },
    "iv_card_regraded": {"en": "🔁 {question} was regraded: score {old} → {new}.\n",
                         "zh": "🔁 {question} 已重新评分：得分 {old} → {new}。\n"},
    "iv_card_rescored": {"en": "🔁 A key was fixed: score {old} → {new}.\n",
                         "zh": "🔁 有答案已更正：得分 {old} → {new}。\n"},
    "iv_card_sat_before": {"en": "\n🔂 Sat this paper through /exam before: {n} {n:time|times}.",
                           "zh": "\n🔂 此前已通过 /exam 参加过这份试卷 {n} 次。"},
    "iv_card_timeout": {"en": " · handed in at the deadline", "zh": " · 到时自动交卷"},
    "iv_card_cancelled": {"en": " · stopped by the candidate", "zh": " · 候选人放弃"},
    "iv_card_pending": {"en": "\n✍️ {n} written {n:answer awaits|answers await} review.", "zh": "\n✍️ {n} 道主观题待复核。"},
    "iv_btn_review": {"en": "✍️ Review these answers", "zh": "✍️ 复核这些答案"},
    # integrity signals (docs/integrity-signals.md): for a person to look at, never a verdict
    "iv_card_signals": {"en": "\n⚠️ {n} {n:signal|signals} to look at (not a verdict): {list}. Evidence on the desk.",
                        "zh": "\n⚠️ {n} 项值得留意的信号（并非结论）：{list}。证据见工作台。"},
    "sig_sep": {"en": "; ", "zh": "；"},
    "sig_similar": {"en": "written answer near-identical to another candidate's ×{n}", "zh": "主观题答案与他人几乎相同 ×{n}"},
    "sig_fast": {"en": "right answers faster than reading ×{n}", "zh": "答对速度快于读题 ×{n}"},
    "sig_late": {"en": "answers changed in the last seconds ×{n}", "zh": "最后几秒改答案 ×{n}"},
    "sig_quick": {"en": "handed in far faster than the paper's median", "zh": "交卷远快于该卷中位用时"},
    # the group's line (notify): who was invited and how they did are the inviting leads' only
    "iv_note": {"en": "📋 An invited candidate finished {paper}.", "zh": "📋 一位受邀候选人完成了 {paper}。"},
    # hiring papers: configured admins and the teams they verified (proctor/teams/verified.py)
    "hv_not_verified": {
        "en": "🔒 “{paper}” is a hiring paper: only configured admins and the teams they verified can invite to "
              "it or see its answers. A configured admin can verify this team with "
              "`proctor team verify --papers {code} {chat}` or on the desk's Hiring page.",
        "zh": "🔒 “{paper}”是招聘试卷：只有配置的管理员及其验证过的团队可以邀请作答或查看答案。配置的管理员可用 "
              "`proctor team verify --papers {code} {chat}` 或在工作台的“招聘”页验证本团队。",
    },
    "hv_too_many": {"en": "“{paper}” is a hiring paper: at most {n} {n:attempt|attempts} per invite (the paper's own limit).",
                    "zh": "“{paper}”是招聘试卷：每个邀请最多 {n} 次作答（试卷自身的次数限制）。"},
    "hv_withheld": {"en": "🔒 “{paper}” is a hiring paper: its answers are for configured admins and the teams they verified.",
                    "zh": "🔒 “{paper}”是招聘试卷：其答案只给配置的管理员及其验证过的团队。"},
    "hv_card_withheld": {
        "en": "🔒 A hiring paper: its sections and written answers are for configured admins and the teams they verified.",
        "zh": "🔒 招聘试卷：分项得分与主观题答案只给配置的管理员及其验证过的团队。",
    },
    "hv_review_withheld": {
        "en": "🔒 Written answers on {papers} wait for a configured admin: this team is not verified for "
              "{n:that hiring paper|those hiring papers}.",
        "zh": "🔒 {papers}（{n} 份招聘试卷）的主观题答案等待配置的管理员复核：本团队尚未获验证。",
    },
}
