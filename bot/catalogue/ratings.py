"""Texts of ratings (docs/ratings.md): a person's own on /mystats, /rating public|private, the rating
boards (/leaderboard rating, the desk's team page), questions' measured difficulty (/bankstats, the
desk's Items page), a hiring sitting's ability estimate, practice at one's level:
key -> {"en": ..., "zh": ...}."""

TEXTS: dict[str, dict[str, str]] = {
    # a rating and the band it very likely lies in (proctor/ratings/rule.py `band`): every screen and page
    "rt_band": {"en": "{rating} (very likely {low}–{high})", "zh": "{rating}（很可能在 {low}–{high} 之间）"},
    # /mystats
    "rt_mine": {"en": "🎯 Your rating: {band}, from {n} counted {n:answer|answers}.",
                "zh": "🎯 你的等级分：{band}，依据 {n} 个计入的作答。"},
    "rt_mine_provisional": {"en": "Provisional: a few more answers will settle it.",
                            "zh": "暂定：再答一些题就会稳定下来。"},
    "rt_mine_none": {"en": "🎯 No rating yet: it starts with your first counted answer (practice, a daily quiz, "
                           "an exam once handed in).",
                     "zh": "🎯 还没有等级分：从第一次计入的作答开始（练习、每日一练、交卷后的考试）。"},
    "rt_mine_public": {"en": "Your groups' rating boards name you (/rating private to stop).",
                       "zh": "你所在群组的等级分榜会显示你（/rating private 取消）。"},
    "rt_mine_private": {"en": "Your groups' rating boards don't name you (/rating public to be listed).",
                        "zh": "你所在群组的等级分榜不显示你（/rating public 加入榜单）。"},
    # /rating public|private
    "rt_usage": {"en": "/rating public: your groups' rating boards show your name and rating.\n"
                       "/rating private: they don't (your own place is still yours to see).\nNow: {state}.",
                 "zh": "/rating public：你所在群组的等级分榜显示你的名字和等级分。\n"
                       "/rating private：不显示（你仍可查看自己的名次）。\n当前：{state}。"},
    "rt_state_public": {"en": "public", "zh": "公开"},
    "rt_state_private": {"en": "private", "zh": "不公开"},
    "rt_set_public": {"en": "✅ Your groups' rating boards now show your name and rating. /rating private undoes it.",
                      "zh": "✅ 你所在群组的等级分榜现在会显示你的名字和等级分。/rating private 可撤销。"},
    "rt_set_private": {"en": "✅ Your groups' rating boards no longer name you. /leaderboard rating in a private "
                             "chat with me shows your place.",
                       "zh": "✅ 你所在群组的等级分榜不再显示你。在与我的私聊中发送 /leaderboard rating 查看你的名次。"},
    # /leaderboard rating [topic]: a group's board
    "rt_board_title": {"en": "🎯 Ratings · {title}", "zh": "🎯 等级分 · {title}"},
    "rt_topic": {"en": " · topic “{topic}”", "zh": " · 主题“{topic}”"},
    "rt_board_rule": {"en": "Ranked by rating: a hard question answered right counts more than an easy one, and "
                            "answering more does not raise it. Only members who chose /rating public are named.",
                      "zh": "按等级分排名：答对难题比答对易题加分多，答得多并不会提高等级分。"
                            "只显示选择了 /rating public 的成员。"},
    "rt_board_row": {"en": "{rank}. {name} — {band}", "zh": "{rank}. {name} — {band}"},
    "rt_board_provisional": {"en": "Provisional (too few answers to rank yet):", "zh": "暂定（作答还太少，暂不排名）："},
    "rt_board_provisional_row": {"en": "• {name} — {band}", "zh": "• {name} — {band}"},
    "rt_board_empty": {"en": "Nobody here is listed yet: /rating public puts your name on this board.",
                       "zh": "这里还没有人公开：/rating public 可让你上榜。"},
    "rt_board_others": {"en": "{n} more rated {n:member is|members are} not listed: /leaderboard rating in a private "
                              "chat with me shows your own place.",
                        "zh": "另有 {n} 位有等级分的成员未公开：在与我的私聊中发送 /leaderboard rating 查看你自己的名次。"},
    "rt_board_no_topic": {"en": "No answer this team can see is on the topic “{topic}”.",
                          "zh": "本群可见的作答中没有主题为“{topic}”的题目。"},
    # your own place, privately (a private chat; or sent privately when asked in a group)
    "rt_places_head": {"en": "🎯 Your place on your teams' rating boards{topic}:", "zh": "🎯 你在各群等级分榜上的名次{topic}："},
    "rt_place_row": {"en": "• {title}: {rank} of {n} — {band}", "zh": "• {title}：第 {rank} 名，共 {n} 人 — {band}"},
    "rt_place_provisional": {"en": "• {title}: provisional, not ranked yet — {band}",
                             "zh": "• {title}：暂定，暂不排名 — {band}"},
    "rt_place_none": {"en": "• {title}: no answer of yours this team can see yet",
                      "zh": "• {title}：本群还看不到你的作答"},
    "rt_no_teams": {"en": "You are on no team's roster: a team's rating board ranks its roster (/join in the group "
                          "asks to be on it).",
                    "zh": "你还不在任何群的名单上：群的等级分榜只排名单上的成员（在群里发送 /join 申请加入）。"},
    # questions' measured difficulty (/bankstats, the desk's Items page)
    "ms_row": {"en": "   measured: right for about {pct}% at the median rating ({n} {n:answer|answers}); label: {label}",
               "zh": "   实测：中位等级分的人约 {pct}% 答对（{n} 个作答）；标注：{label}"},
    "ms_no_label": {"en": "none", "zh": "无"},
    "ms_flagged": {"en": "📏 Questions their measure flags (answered right by about N% of people at the median rating):",
                   "zh": "📏 实测难度需要留意的题目（中位等级分的人约 N% 答对）："},
    "ms_flagged_row": {"en": "{question} ({where}): ≈{pct}%, label {label} — {flags}",
                       "zh": "{question}（{where}）：约 {pct}%，标注 {label} — {flags}"},
    "ms_flag_too_easy": {"en": "nearly everyone gets it right", "zh": "几乎人人答对"},
    "ms_flag_too_hard": {"en": "nearly nobody gets it right beyond guessing", "zh": "除猜对外几乎无人答对"},
    "ms_flag_label_disagrees": {"en": "its label disagrees with its measure", "zh": "标注难度与实测不符"},
    # a hiring sitting's ability estimate (the lead's card; the invite report)
    "iv_card_ability": {"en": "\nAbility on this paper: {band}, read against the same question difficulties for "
                              "every candidate.",
                        "zh": "\n本卷能力估计：{band}，所有候选人按同一套题目难度计算。"},
    # practice at your level (/practice with no paper named)
    "adaptive_title": {"en": "Practice at your level", "zh": "自适应练习"},
    "ad_intro": {"en": "🎯 Practice at your level: questions you should get right about 7 times in 10. To practise "
                       "one paper: /practice <paper> (/papers lists them).",
                 "zh": "🎯 自适应练习：你大约十题能答对七题的题目。练习某份试卷：/practice <试卷>（/papers 列出试卷）。"},
    "ad_none": {"en": "No question to practise at your level now (you met them all this week). /practice <paper> "
                      "practises one paper.",
                "zh": "现在没有适合你水平的练习题（本周都做过了）。/practice <试卷> 练习某份试卷。"},
    # the desk: the team page's ratings, Items' measure, Hiring's estimate
    "d_rt_heading": {"en": "Ratings", "zh": "等级分"},
    "d_rt_explain": {"en": "Each member's rating from the answers this team may read (since they joined, while in "
                           "the group), against the questions' measured difficulties; very likely within the band. "
                           "Provisional ratings rest on too few answers to rank.",
                     "zh": "每位成员的等级分只依据本群可见的作答（加入之后、仍在群内时），按题目的实测难度计算；"
                           "很可能落在区间之内。暂定的等级分作答太少，暂不排名。"},
    "d_rt_provisional": {"en": "Provisional", "zh": "暂定"},
    "d_rt_empty": {"en": "No member has a counted answer this team can see yet.", "zh": "还没有本群可见的计入作答。"},
    "d_col_rating": {"en": "Rating", "zh": "等级分"},
    "d_col_band": {"en": "Very likely", "zh": "很可能在"},
    "d_col_listed": {"en": "Named in the group", "zh": "群内公开"},
    "d_col_measured": {"en": "Measured", "zh": "实测"},
    "d_col_label": {"en": "Label", "zh": "标注"},
    "d_it_measured": {"en": "{pct}% at the median", "zh": "中位 {pct}%"},
    "d_hv_col_ability": {"en": "Ability", "zh": "能力估计"},
}
