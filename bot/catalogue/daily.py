"""Interface texts of the daily quiz: key -> {"en": ..., "zh": ...}."""

TEXTS: dict[str, dict[str, str]] = {
    # commands
    "daily_usage": {
        "en": "Daily quiz: {n} {n:question|questions} every day in this chat.\n"
              "/daily on [HH:MM] [Area/City] [close after, e.g. 2h] – turn it on or change the time\n"
              "/daily off – turn it off\n/daily now – today's quiz right now\n/daily status – how it is set",
        "zh": "每日一练：每天在本聊天推送 {n} 道题。\n"
              "/daily on [HH:MM] [时区，如 Asia/Shanghai] [多久后截止，如 2h] – 开启或修改时间\n"
              "/daily off – 关闭\n/daily now – 立即推送今天的题\n/daily status – 查看设置",
    },
    "daily_bad_time": {
        "en": "I can't read the time {text!r}. Use HH:MM, e.g. /daily on 09:00 Asia/Shanghai",
        "zh": "无法识别时间 {text!r}。请使用 HH:MM，例如 /daily on 09:00 Asia/Shanghai",
    },
    "daily_bad_tz": {
        "en": "I don't know the time zone {text!r}. Use an Area/City name such as Europe/Berlin or Asia/Shanghai.",
        "zh": "未知时区 {text!r}。请使用“地区/城市”格式，例如 Asia/Shanghai 或 Europe/Berlin。",
    },
    "daily_bad_arg": {
        "en": "I don't understand {text!r}. Usage: /daily on [HH:MM] [Area/City] [close after, e.g. 2h]",
        "zh": "无法理解 {text!r}。用法：/daily on [HH:MM] [时区] [多久后截止，如 2h]",
    },
    "daily_not_lead": {
        "en": "Only this group's administrators and team leads can change the daily quiz.",
        "zh": "只有本群管理员和组长可以修改每日一练。",
    },
    "daily_not_here": {
        "en": "The daily quiz works in private chats and groups.",
        "zh": "每日一练只能在私聊或群组中使用。",
    },
    "daily_on": {
        "en": "✅ Daily quiz on: {n} {n:question|questions} every day at {time} ({tz}).\nNext: {next}.",
        "zh": "✅ 每日一练已开启：每天 {time}（{tz}）推送 {n} 道题。\n下一次：{next}。",
    },
    "daily_off": {"en": "Daily quiz off. Turn it on again with /daily on.", "zh": "每日一练已关闭。发送 /daily on 可重新开启。"},
    "daily_was_off": {"en": "The daily quiz is already off here.", "zh": "本聊天的每日一练本来就是关闭的。"},
    "daily_status_on": {
        "en": "Daily quiz: on – {n} {n:question|questions} every day at {time} ({tz}).\nNext: {next}.\nCloses: {close}.",
        "zh": "每日一练：已开启——每天 {time}（{tz}）推送 {n} 道题。\n下一次：{next}。\n截止：{close}。",
    },
    "daily_status_off": {"en": "Daily quiz: off. Turn it on with /daily on.", "zh": "每日一练：未开启。发送 /daily on 开启。"},
    "daily_status_disabled": {
        "en": "Daily quiz: stopped, because I could not post here ({reason}). Turn it on again with /daily on.",
        "zh": "每日一练：已停止，因为我无法在此发消息（{reason}）。发送 /daily on 可重新开启。",
    },
    "daily_reason_blocked": {"en": "blocked", "zh": "已被屏蔽"},
    "daily_reason_kicked": {"en": "removed from the group", "zh": "已被移出群组"},
    "daily_close_default": {"en": "one hour before the next push", "zh": "下次推送前一小时"},
    "daily_close_after": {"en": "{h} after the push", "zh": "推送后 {h}"},
    "daily_today_none": {"en": "Today: not sent yet.", "zh": "今天：尚未推送。"},
    "daily_today_open": {"en": "Today: open until {at}; answers so far: {n}.", "zh": "今天：开放至 {at}，已有 {n} 份作答。"},
    "daily_today_closed": {"en": "Today: closed.", "zh": "今天：已截止。"},
    "daily_today_failed": {"en": "Today: could not be delivered.", "zh": "今天：推送失败。"},
    "daily_your_streak": {"en": "Your streak here: 🔥 {n}", "zh": "你在这里的连续天数：🔥 {n}"},
    "daily_already_out": {
        "en": "Today's quiz is already out (open until {at}). Scroll up to answer it.",
        "zh": "今天的题已经推送（开放至 {at}），请向上翻阅作答。",
    },
    "daily_in_progress": {
        "en": "Your quiz for today is in progress: answer the question above.",
        "zh": "今天的题正在进行中：请回答上方的题目。",
    },
    "daily_done_today": {
        "en": "You've done today's quiz. 🔥 Streak: {n}. Come back tomorrow!",
        "zh": "今天的题已经完成。🔥 连续 {n} 天，明天再来！",
    },
    "daily_closed_today": {
        "en": "Today's quiz is closed. The next one comes at the usual time.",
        "zh": "今天的题已截止，下一次按时推送。",
    },
    "daily_empty_bank": {
        "en": "There are no practice questions yet (the bank is empty, or every paper is exam-only).",
        "zh": "暂无可练习的题目（题库为空，或所有试卷都仅限考试）。",
    },
    # questions
    "daily_q_header": {"en": "📅 Daily quiz · {n}/{total} · {question}", "zh": "📅 每日一练 · {n}/{total} · {question}"},
    "daily_fill_group": {
        "en": "↩️ Reply to this message with your answer. Your result comes privately; keys at close.",
        "zh": "↩️ 回复本消息作答。结果私下发给你，截止时公布答案。",
    },
    "daily_fill_private": {"en": "✍️ Type your answer (during an exam: reply to this message).",
                           "zh": "✍️ 请直接输入答案（考试进行中请回复本消息作答）。"},
    "daily_multi_hint": {"en": "Tick every right option, then Submit.", "zh": "勾选所有正确选项后点“提交”。"},
    "daily_count": {"en": "👥 Answered: {n}", "zh": "👥 已作答：{n}"},
    "daily_btn_submit": {"en": "✅ Submit", "zh": "✅ 提交"},
    # answers
    "daily_verdict_correct": {"en": "✅ Correct!", "zh": "✅ 正确！"},
    "daily_verdict_partial": {"en": "🟡 Partly right ({score}/{max}).", "zh": "🟡 部分正确（{score}/{max}）。"},
    "daily_verdict_wrong": {"en": "❌ Not quite.", "zh": "❌ 不对。"},
    "daily_verdict_needs_review": {"en": "📝 Recorded.", "zh": "📝 已记录。"},
    "daily_key": {"en": "Answer: {a}", "zh": "答案：{a}"},
    "daily_qid": {"en": "{question}: /dispute {question} <reason> if you think the key is wrong",
                  "zh": "{question}：如认为答案有误，发送 /dispute {question} <理由>"},
    "daily_yours": {"en": "Your answer: {a}", "zh": "你的答案：{a}"},
    "daily_explanation": {"en": "💡 {e}", "zh": "💡 {e}"},
    "daily_already": {"en": "You already answered this one: {a}. Your first answer counts.",
                      "zh": "你已经答过这题：{a}。以第一次作答为准。"},
    "daily_closed": {"en": "This quiz is closed. The keys are posted in the chat.",
                     "zh": "本题已截止，答案已在聊天中公布。"},
    "daily_bad_button": {"en": "Sorry, that button isn't valid. Please use the buttons of today's quiz.",
                         "zh": "抱歉，这个按钮无效，请使用今天题目的按钮。"},
    "daily_selected": {"en": "Selected: {a}. Tap Submit when done.", "zh": "已选：{a}。选好后点“提交”。"},
    "daily_unreadable": {
        "en": "I couldn't read that as an answer to {question}. Tap a button, or type a letter.",
        "zh": "无法把这条消息识别为 {question} 的答案。请点按钮，或输入选项字母。",
    },
    "daily_selected_none": {"en": "Nothing selected yet.", "zh": "还没有选择任何选项。"},
    "daily_recorded_dm": {
        "en": "Daily quiz in {chat}, {question}:\n{fb}",
        "zh": "{chat} 的每日一练 {question}：\n{fb}",
    },
    "daily_done": {
        "en": "🏁 Today's quiz done: {correct}/{total} correct, {score}/{max} {max:point|points}.",
        "zh": "🏁 今天的题完成了：答对 {correct}/{total} 题，得分 {score}/{max}。",
    },
    "daily_streak": {"en": "🔥 Streak: {n}", "zh": "🔥 连续：{n} 天"},
    "daily_next": {"en": "Next quiz: {at}.", "zh": "下一次：{at}。"},
    # close
    "daily_close_title": {"en": "🔑 Daily quiz {day}: the keys", "zh": "🔑 每日一练 {day}：答案"},
    "daily_close_key": {"en": "{n}. {question}: {key}", "zh": "{n}. {question}：{key}"},
    "daily_close_sealed": {"en": "{n}. {question}: {sealed}", "zh": "{n}. {question}：{sealed}"},
    "daily_top_title": {"en": "🏆 Today's top", "zh": "🏆 今日排行"},
    "daily_top_none": {"en": "Nobody answered today.", "zh": "今天没有人作答。"},
    "daily_top_line": {"en": "{mark} {name} – {score}/{max}", "zh": "{mark} {name} – {score}/{max}"},
    "daily_top_streak": {"en": " 🔥{n}", "zh": " 🔥{n}"},
    "daily_top_more": {"en": "… and {n} more", "zh": "……另有 {n} 人"},
    # sealed: the user's running exam holds this question's key back
    "daily_sealed": {
        "en": "✍️ Recorded. The key and the explanation wait until your exam is handed in.",
        "zh": "✍️ 已记录。答案与解析要等你交卷后才能查看。",
    },
    "daily_held_for_exam": {
        "en": "⏳ Today's quiz waits until your exam is handed in; it comes right after.",
        "zh": "⏳ 今天的每日一练要等你交卷后再发送，交卷后马上就到。",
    },
    "daily_key_sealed": {"en": "🔒 key withheld: an exam with this question is running",
                         "zh": "🔒 答案暂不公布：有正在进行的考试包含此题"},
}
