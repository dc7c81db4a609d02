"""What each audit-log action (proctor/teams/audit.py) says on the desk's audit page, one sentence,
`audit_<action>` (a few actions say one of two: `audit_digest_off`, `audit_invite_create_named`); desk/audit_words.py
fills in names (people's first names, paper and team titles) and local times."""

TEXTS: dict[str, dict[str, str]] = {
    # the bank
    "audit_bank_upload": {"en": "{actor} imported {file}: {papers}", "zh": "{actor} 导入了 {file}：{papers}"},
    "audit_add_question": {"en": "{actor} added a question ({kind}) to {paper}",
                        "zh": "{actor} 向 {paper} 添加了一道题（{kind}）"},
    "audit_retire": {"en": "{actor} retired {question} (never asked again)",
                  "zh": "{actor} 停用了 {question}（不再出题）"},
    "audit_restore": {"en": "{actor} put {question} back into use", "zh": "{actor} 恢复了 {question}"},
    "audit_paper_settings": {"en": "{actor} changed the settings of {paper}: {changes}",
                          "zh": "{actor} 修改了 {paper} 的设置：{changes}"},
    "audit_confirm_key": {"en": "{actor} confirmed the key of {question}: {key}",
                       "zh": "{actor} 确认了 {question} 的答案：{key}"},
    "audit_paper_compose": {"en": "{actor} composed the paper {title} ({questions} {questions:question|questions})",
                         "zh": "{actor} 组了试卷 {title}（{questions} 道题）"},
    "audit_question_edit": {"en": "{actor} edited the {field} of {question} (version {version}): "
                               "{regraded} {regraded:answer|answers} regraded, {changed} {changed:score|scores} changed",
                         "zh": "{actor} 修改了 {question} 的{field}（第 {version} 版）：重新评分 {regraded} 个作答，"
                               "{changed} 个分数有变"},
    "audit_regrade": {"en": "{actor} regraded {who}'s attempt #{attempt} on {question}: answer {answer_old} → "
                         "{answer_new}, total {old} → {new}",
                   "zh": "{actor} 重新评分了 {who} 的作答 #{attempt}（{question}）：本题 {answer_old} → {answer_new}，"
                         "总分 {old} → {new}"},
    # disputes and reviews
    "audit_key_fix": {"en": "{actor} fixed the key of {question} (version {version}) after {who}'s dispute "
                         "#{dispute}: {regraded} {regraded:answer|answers} regraded, "
                         "{changed} {changed:score|scores} changed",
                   "zh": "{actor} 根据 {who} 的申诉 #{dispute} 修正了 {question} 的答案（第 {version} 版）："
                         "重新评分 {regraded} 个作答，{changed} 个分数有变"},
    "audit_dispute_upheld": {"en": "{actor} upheld {who}'s dispute #{dispute} on {question}",
                          "zh": "{actor} 支持了 {who} 对 {question} 的申诉 #{dispute}"},
    "audit_dispute_dismissed": {"en": "{actor} dismissed {who}'s dispute #{dispute} on {question}",
                             "zh": "{actor} 驳回了 {who} 对 {question} 的申诉 #{dispute}"},
    "audit_review": {"en": "{actor} scored {who}'s answer to {question} in attempt #{attempt}: {provisional} → {final}",
                  "zh": "{actor} 给 {who} 在作答 #{attempt} 中 {question} 的答案评分：{provisional} → {final}"},
    # the roster
    "audit_roster_invite": {"en": "{actor} asked {who} to join the roster of {team}",
                         "zh": "{actor} 邀请 {who} 加入 {team} 的名单"},
    "audit_roster_accept": {"en": "{actor} put {who} on the roster of {team}", "zh": "{actor} 把 {who} 加入了 {team} 的名单"},
    "audit_roster_consent": {"en": "{actor} agreed to be on the roster of {team}", "zh": "{actor} 同意加入 {team} 的名单"},
    "audit_roster_decline": {"en": "{actor} declined to be on the roster of {team}", "zh": "{actor} 拒绝加入 {team} 的名单"},
    "audit_roster_leave": {"en": "{actor} took themselves off the roster of {team}", "zh": "{actor} 退出了 {team} 的名单"},
    "audit_roster_reject": {"en": "{actor} turned down {who}'s request to join the roster of {team}",
                         "zh": "{actor} 拒绝了 {who} 加入 {team} 名单的请求"},
    "audit_roster_remove": {"en": "{actor} removed {who} from the roster of {team}",
                         "zh": "{actor} 把 {who} 移出了 {team} 的名单"},
    # the team's schedules and exports
    "audit_daily_on": {"en": "{actor} set the daily quiz of {team}: {at}, {questions} {questions:question|questions}, closing after "
                          "{close_after_min} min",
                    "zh": "{actor} 设置了 {team} 的每日一练：{at}，{questions} 道题，{close_after_min} 分钟后截止"},
    "audit_daily_off": {"en": "{actor} turned the daily quiz of {team} off", "zh": "{actor} 关闭了 {team} 的每日一练"},
    "audit_digest": {"en": "{actor} set the weekly digest of {team}: {weekday} {time}",
                  "zh": "{actor} 设置了 {team} 的每周摘要：{weekday} {time}"},
    "audit_digest_off": {"en": "{actor} turned the weekly digest of {team} off", "zh": "{actor} 关闭了 {team} 的每周摘要"},
    "audit_report": {"en": "{actor} downloaded the report of {team} for {what} ({rows} {rows:row|rows})",
                  "zh": "{actor} 下载了 {team} 的报表（{what}，{rows} 行）"},
    "audit_chart": {"en": "{actor} drew the chart of {team} for {what}", "zh": "{actor} 生成了 {team} 的图表（{what}）"},
    # hiring
    "audit_team_verify": {"en": "{actor} let {team} invite to hiring papers and see their answers: {papers}",
                       "zh": "{actor} 允许 {team} 邀请候选人参加招聘试卷并查看作答：{papers}"},
    "audit_key_read": {"en": "{actor} read the keys of {paper} for {team}: questions {questions}",
                    "zh": "{actor} 为 {team} 查看了 {paper} 的答案：题目 {questions}"},
    "audit_team_unverify": {"en": "{actor} withdrew {team}'s access to hiring papers: {papers}",
                         "zh": "{actor} 撤销了 {team} 对招聘试卷的权限：{papers}"},
    "audit_invite_create": {"en": "{actor} created invite #{invite} to {paper}, open until {closes_at}",
                         "zh": "{actor} 创建了邀请 #{invite}（{paper}），有效期至 {closes_at}"},
    "audit_invite_create_named": {"en": "{actor} created invite #{invite} to {paper} for @{username}, open until {closes_at}",
                               "zh": "{actor} 为 @{username} 创建了邀请 #{invite}（{paper}），有效期至 {closes_at}"},
    "audit_invite_claim": {"en": "{actor} opened invite #{invite}", "zh": "{actor} 打开了邀请 #{invite}"},
    "audit_invite_revoke": {"en": "{actor} revoked invite #{invite} of {who}", "zh": "{actor} 撤销了 {who} 的邀请 #{invite}"},
    "audit_invite_resend": {"en": "{actor} sent {who} a new link for invite #{invite}",
                         "zh": "{actor} 给 {who} 重发了邀请 #{invite} 的链接"},
    # the words the sentences are made of
    "audit_what_invites": {"en": "hiring invites", "zh": "招聘邀请"},
    "audit_someone": {"en": "someone", "zh": "某人"},
    "audit_all_papers": {"en": "every hiring paper", "zh": "所有招聘试卷"},
    "audit_every_team": {"en": "every team", "zh": "所有团队"},
    "audit_not_handed_in": {"en": "not handed in", "zh": "未交卷"},
    "audit_field_stem": {"en": "text", "zh": "题干"},
    "audit_field_option": {"en": "option {letter}", "zh": "选项 {letter}"},
    "audit_field_key": {"en": "key", "zh": "答案"},
    "audit_field_explanation": {"en": "explanation", "zh": "解析"},
    # a paper's settings (bank/paper_settings.py) as paper_settings entries name them
    "audit_setting_time_limit_min": {"en": "time limit (min)", "zh": "限时（分钟）"},
    "audit_setting_attempts_allowed": {"en": "attempts allowed", "zh": "可作答次数"},
    "audit_setting_grading_method": {"en": "grading method", "zh": "计分方式"},
    "audit_setting_multi_policy": {"en": "multiple-choice scoring", "zh": "多选题计分"},
    "audit_setting_exam_only": {"en": "exam only", "zh": "仅限考试"},
    "audit_setting_shuffle_options": {"en": "shuffle options", "zh": "打乱选项"},
    "audit_setting_invite_only": {"en": "invite only", "zh": "仅限邀请"},
    "audit_setting_review": {"en": "what candidates see afterwards", "zh": "交卷后考生可见内容"},
    "audit_setting_pass_percent": {"en": "pass mark (%)", "zh": "及格线（%）"},
    "audit_setting_signals": {"en": "integrity signals", "zh": "诚信信号"},
    "audit_setting_signal_similar": {"en": "similar-answer threshold (%)", "zh": "相似作答阈值（%）"},
    "audit_setting_signal_fast": {"en": "fast right answers", "zh": "过快答对题数"},
    "audit_setting_signal_late": {"en": "late changes", "zh": "临交卷修改次数"},
    "audit_setting_signal_quick": {"en": "quick hand-in (% of the median)", "zh": "过快交卷（中位用时的 %）"},
    "d_col_what": {"en": "What happened", "zh": "内容"},
}
