"""Texts every chat shares."""

# the one wording of a written answer's state until a lead reviews it: every text that names the
# state (exam, result card, desk) is built from it
AWAITING = {"en": "awaiting review", "zh": "待复核"}

TEXTS: dict[str, dict[str, str]] = {
    "state_awaiting": AWAITING,
    "start": {
        "en": "Hi {name}! I run exams on large-model engineering.\n\n"
              "/papers – the papers you can take\n/exam – take a timed paper\n"
              "/practice – practise with instant feedback\n/daily – a daily quiz in this chat\n"
              "/help – every command",
        "zh": "你好，{name}！我负责大模型工程方向的考试。\n\n"
              "/papers – 可参加的试卷\n/exam – 参加限时考试\n/practice – 练习，答完即看反馈\n"
              "/daily – 在本聊天中每日一练\n/help – 全部命令",
    },
    # /help (bot/menus.py): what the caller can do in this chat
    "help_head_private": {"en": "What you can do here:", "zh": "你在这里可以："},
    "help_head_group": {"en": "What you can do in this group:", "zh": "你在本群可以："},
    "help_lead": {"en": "As a team lead:", "zh": "作为组长："},
    "help_admin": {"en": "As a configured admin (the question bank is every team's):",
                   "zh": "作为配置的管理员（题库由所有团队共用）："},
    "help_more_private": {"en": "Exams, practice and your own settings are in a private chat with me: /help there.",
                          "zh": "考试、练习和个人设置请在与我的私聊中使用：在私聊里发送 /help。"},
    "help_more_group": {"en": "In a team group, /help lists what you can do there.",
                        "zh": "在团队群里发送 /help，可查看在群里能做什么。"},
    "lang_usage": {"en": "Usage: /lang en, /lang zh or /lang auto", "zh": "用法：/lang en、/lang zh 或 /lang auto"},
    "lang_set": {"en": "Language set to English.", "zh": "界面语言已设为中文。"},
    "script_usage": {
        "en": "Usage: /script orig (as written), /script hans (Simplified) or /script hant (Traditional)",
        "zh": "用法：/script orig（原文）、/script hans（简体）或 /script hant（繁体）",
    },
    "script_set": {"en": "Questions will be shown {script}.", "zh": "题目将以{script}显示。"},
    # /lang and /script alone: the current setting, and how to change it
    "lang_name_en": {"en": "English", "zh": "英文"},
    "lang_name_zh": {"en": "Chinese", "zh": "中文"},
    "lang_now": {"en": "Your language is {language} (your choice).\nChange it: /lang en, /lang zh or /lang auto",
                 "zh": "你的界面语言：{language}（你设置的）。\n更改：/lang en、/lang zh 或 /lang auto"},
    "lang_now_auto": {"en": "Your language is {language} (automatic: your Telegram language).\n"
                            "Change it: /lang en, /lang zh or /lang auto",
                      "zh": "你的界面语言：{language}（自动：跟随 Telegram 语言）。\n"
                            "更改：/lang en、/lang zh 或 /lang auto"},
    "lang_group_now": {"en": "This group's language is {language} (set by its administrators).\n"
                             "They change it: /lang en, /lang zh or /lang auto",
                       "zh": "本群的语言：{language}（由群管理员设置）。\n群管理员可更改：/lang en、/lang zh 或 /lang auto"},
    "lang_group_now_default": {"en": "This group's language is {language} (the bot's default).\n"
                                     "Its administrators change it: /lang en, /lang zh or /lang auto",
                               "zh": "本群的语言：{language}（机器人默认）。\n群管理员可更改：/lang en、/lang zh 或 /lang auto"},
    "script_now": {"en": "Questions are shown {script}.\nChange it: /script orig, /script hans or /script hant",
                   "zh": "题目以{script}显示。\n更改：/script orig、/script hans 或 /script hant"},
    "script_group_now": {"en": "Questions in this group are shown {script}.\n"
                               "Its administrators change it: /script orig, /script hans or /script hant",
                         "zh": "本群题目以{script}显示。\n群管理员可更改：/script orig、/script hans 或 /script hant"},
    "script_orig": {"en": "as written", "zh": "原文"},
    "script_hans": {"en": "in Simplified Chinese", "zh": "简体"},
    "script_hant": {"en": "in Traditional Chinese", "zh": "繁体"},
    "button_unknown": {
        "en": "Sorry, I don't recognise that button. Please use a fresh one.",
        "zh": "抱歉，无法识别这个按钮，请使用最新的消息。",
    },
    "oops": {
        "en": "Sorry, something went wrong on my side. Your answers so far are saved; please try again.",
        "zh": "抱歉，我这边出了点问题。已作答的内容都已保存，请重试。",
    },
    "unknown_command": {"en": "I don't know {command}. /help lists what I can do.",
                        "zh": "我不认识 {command}。/help 查看全部命令。"},
    "open_private": {"en": "Open a private chat", "zh": "打开私聊"},
    "private_only": {
        "en": "Exams run in a private chat with me. Tap below to open it.",
        "zh": "考试只在与我的私聊中进行，点击下方按钮打开私聊。",
    },
    "not_allowed": {
        "en": "Only team leads can do that.",
        "zh": "只有组长可以执行此操作。",
    },
    "too_fast": {
        "en": "{name}, you are sending faster than I can answer, so I skipped some of your latest messages "
              "and taps. Please wait for my replies, then send again.",
        "zh": "{name}，你发送得太快，我来不及处理，跳过了你最近的一些消息和按键。请等我回复后再发送。",
    },
    # counted words (bot.i18n.tn): "{n:one|other}" picks the English plural
    "n_pt": {"en": "{n} {n:pt|pts}", "zh": "{n} 分"},
    "n_point": {"en": "{n} {n:point|points}", "zh": "{n} 分"},
    "n_attempt": {"en": "{n} {n:attempt|attempts}", "zh": "{n} 次"},
    "n_answer_awaiting": {"en": "{n} {n:answer|answers}", "zh": "{n} 道题"},
    "n_question": {"en": "{n} {n:question|questions}", "zh": "{n} 题"},
    "n_exam_attempt": {"en": "{n} {n:attempt|attempts}", "zh": "{n} 次考试"},
    "n_daily_answer": {"en": "{n} daily-quiz {n:answer|answers}", "zh": "{n} 条每日一练作答"},
}
