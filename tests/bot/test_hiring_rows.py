"""The hiring view's rows (`/report invites`), through the fake Bot API: one row per invited
candidate however many attempts they made, with the time used, the extra time given, the signal
count and the invite's history (created, opened, each start and hand-in, expired, revoked); and a
composed paper (`proctor paper compose`) is invited to, graded and reported like any other."""

from __future__ import annotations

import csv
import io

from proctor import hiring
from proctor.exams import blueprint as bp
from proctor.exams import compose
from proctor.teams.curation import update_settings
from tests.bot.test_invites import ADMIN, ALPHA, CID, LEAD, _env, finish, invite_list, make_invite, take
from tests.harness import T0
from tests.reads import the_attempt

WRITTEN = "梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将梯度进行累加，等到若干步后再统一更新。"
WHEN = "2027-01-15T08:"  # T0 is 2027-01-15 08:00 UTC; the CSV holds ISO 8601 with the offset


async def report(env, lead) -> dict[str, dict[str, str]]:
    before = len(lead.chat())
    await lead.send("/report invites", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.document), None))
    return {r["invite"]: r for r in csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig")))}


async def test_one_row_per_candidate_with_time_extra_time_signals_and_history(tmp_path, db_location):
    env = await _env(tmp_path, db_location, attempts_allowed=2)
    try:
        lead, cid, bob = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(61, "Bob")
        twice, _ = await make_invite(env, lead, "hire 2x +15m")
        once, _ = await make_invite(env, lead, "hire")
        await make_invite(env, lead, "hire 1h")  # never opened: it expires
        await make_invite(env, lead, "hire")  # revoked below
        listing = await invite_list(env, lead)
        await lead.press(listing, "#4 🚫 Revoke")
        await env.idle()
        for minutes, written in ((12, WRITTEN), (7, None)):  # Cid sits twice: 12 minutes, then 7
            await take(env, cid, twice, written=written)
            env.clock.advance(minutes * 60)
            await finish(env, cid)
        env.clock.advance(60)
        await take(env, bob, once, written=WRITTEN)  # the same written answer: a signal for Bob
        await finish(env, bob)
        env.clock.advance(2 * 3600)
        rows = await report(env, lead)
        assert [(k, r["status"]) for k, r in rows.items()] == [
            ("4", "revoked"), ("3", "expired"), ("2", "finished"), ("1", "finished")]
        cid_row, bob_row = rows["1"], rows["2"]
        assert (cid_row["candidate"], cid_row["attempts_used"], cid_row["extra_min"]) == ("Cid", "2", "15")
        assert cid_row["time_used"] == "0:07:00" and cid_row["sections"].startswith("单项选择题 ")
        score = cid_row["score"]
        steps = cid_row["history"].split("; ")
        assert [s.split(" ")[0] for s in steps] == ["created", "opened", "started", "handed_in", "started", "handed_in"]
        assert steps[0] == f"created {WHEN}00:00+00:00 +15m"
        assert steps[3].startswith(f"handed_in {WHEN}12:00+00:00 submitted ") and steps[5] == \
            f"handed_in {WHEN}19:00+00:00 submitted {score}/15"
        # Bob's written answer is Cid's first sitting's: the pair counts on both rows (Cid's from his
        # first sitting, though his score is his second's)
        assert [(r["signal_count"], r["signals"]) for r in (bob_row, cid_row)] == [("1", "similar:1")] * 2
        assert bob_row["history"].split("; ")[-1].startswith(f"handed_in {WHEN}20:00+00:00 submitted")
        assert rows["3"]["history"] == f"created {WHEN}00:00+00:00; expired 2027-01-15T09:00:00+00:00"
        assert rows["4"]["history"].split("; ")[-1].startswith("revoked ")
        assert rows["3"]["time_used"] == rows["3"]["score"] == "" and rows["3"]["signal_count"] == "0"
    finally:
        await env.close()


async def test_a_composed_paper_is_invited_to_graded_and_reported_like_any_other(tmp_path, db_location):
    env = await _env(tmp_path, db_location)
    try:
        draft = compose.Draft("Week 3 check", 30, bp.parse_lines("single 2 3\ntruefalse 1 2", {}))
        made = await compose.compose_paper(env.db, draft, actor=ADMIN, now=T0, seed=1)
        await update_settings(env.db, made.code, actor=ADMIN, now=T0, invite_only=True)  # a hiring paper
        await hiring.verify(env.db, ALPHA, [made.paper_id], actor=ADMIN, now=T0)
        lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
        payload, card = await make_invite(env, lead, made.code)
        assert card.caption.startswith(f"🔗 Invite #1 · {made.code} Week 3 check") or "Week 3 check" in card.caption
        await take(env, cid, payload)
        await finish(env, cid)
        result = await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished"))
        attempt = await the_attempt(env.db, CID)
        assert (attempt.paper_id, attempt.max_score) == (made.paper_id, 8)
        assert f"Score: {attempt.score:g}/8" in result.text and "• Single choice: " in result.text
        [row] = (await report(env, lead)).values()
        assert (row["paper"], row["status"], row["score"], row["max_score"]) == (
            f"{made.code} Week 3 check", "finished", f"{attempt.score:g}", "8")
        assert row["sections"].startswith("单项选择题 ") and "判断题 " in row["sections"]
    finally:
        await env.close()
