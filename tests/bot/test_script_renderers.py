"""Issue 22: `/script hant` was ignored by the invite card, /invites and the lead's review card, while
/papers converted the same title."""

from zoneinfo import ZoneInfo

from bot.invites import render as invite_render
from bot.leads import render as lead_render
from proctor.invites.listing import Row
from proctor.invites.states import InviteStatus
from proctor.invites.store import Invite
from proctor.teams.review import Pending

TITLE = "梯度累积试卷"  # Simplified as stored
INVITE = Invite(3, 1, -100, 1, 0.0, 3600.0, 0, None, 1, 0, False, InviteStatus.open, None, None)


def test_the_invite_card_and_the_list_follow_the_readers_script():
    card, _ = invite_render.link_card(INVITE, TITLE, "https://t.me/b?start=inv_x", ZoneInfo("UTC"), "zh", "hant")
    assert "梯度累積試卷" in card
    row = Row(INVITE, InviteStatus.open, TITLE, "", None, None, None, None, 0)
    text, _ = invite_render.listing([row], "Alpha", ZoneInfo("UTC"), "zh", "hant")
    assert "梯度累積試卷" in text and TITLE not in text
    assert TITLE in invite_render.listing([row], "Alpha", ZoneInfo("UTC"), "zh")[0]  # as written by default


def test_the_review_card_shows_the_question_and_its_reference_in_the_readers_script():
    p = Pending(9, 0, 7, "Lee", TITLE, 4, "简述梯度累积。", "梯度累积", "累积多个批次的梯度后再更新参数", 1.0, 5.0, 1)
    text, _ = lead_render.review_card(p, "zh", None, 0, "hant")
    assert "累積多個批次的梯度後再更新參數" in text and "簡述梯度累積。" in text
    assert "梯度累积" in text  # the candidate's answer as written (everything else is converted)
