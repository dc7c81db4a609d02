"""Counted words of the command line (`proctor ...`) and the sandbox's terminal: printed in English,
through the one plural helper (bot.i18n.tn), with their Chinese beside them like every text."""

TEXTS = {
    "n_paper": {"en": "{n} {n:paper|papers}", "zh": "{n} 份试卷"},
    "n_answer": {"en": "{n} {n:answer|answers}", "zh": "{n} 份作答"},
    "n_score": {"en": "{n} {n:score|scores}", "zh": "{n} 个分数"},
    "n_note": {"en": "{n} {n:note|notes}", "zh": "{n} 条说明"},
    "n_item": {"en": "{n} {n:item|items}", "zh": "{n} 项"},
    "n_invite": {"en": "{n} {n:invite|invites}", "zh": "{n} 个邀请"},
    "n_verification": {"en": "{n} {n:verification|verifications}", "zh": "{n} 项认证"},
    "n_due_job": {"en": "{n} due {n:job|jobs}", "zh": "{n} 个到期任务"},
    "n_answer_keeps_score": {"en": "{n} {n:answer keeps its score|answers keep their scores}",
                             "zh": "{n} 份作答保留原分数"},
}
