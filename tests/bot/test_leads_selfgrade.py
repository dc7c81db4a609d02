"""Nobody scores their own answers: the attack through the fake Bot API, and the rule in bank/."""

import pytest

from bank.errors import NotFound
from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bot.leads import callbacks as cb
from proctor.exams import service as attempts
from proctor.exams.visibility import Role, Viewer, lens
from proctor.teams import disputes as dsp
from proctor.teams import review as reviews
from tests.harness import BotEnv, start_exam
from tests.proctor.test_leads_data import Crafted
from tests.reads import answers_in, audit_count, dispute_status, question_ids, the_attempt

ADMIN, EVE, ANN = 1, 50, 30
EVES_GROUP = -900
OWN = "Nobody scores their own answers: another lead reviews this one."
NOTHING = "Nothing awaits review. 🎉"


def written_paper() -> Paper:
    return Paper(slug="essay", title="Written paper essay", settings=PaperSettings(time_limit_min=60),
                 sections=[Section(kind=Kind.short, title="简答题", points_each=5, questions=[
                     Question(number=1, kind=Kind.short, stem="简述梯度累积的原理。",
                              answer="梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将梯度进行累加。",
                              points=5)])])


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(written_paper())
    await e.start()
    yield e
    await e.close()


async def press_raw(env, user, message, data):
    """A button press with chosen callback data on `message` (as a crafted client can send)."""
    record = env.api.state.new_callback(user.id, message, data)
    env.api.inject_update({"callback_query": {"id": record.id, "from": user.info.to_api(),
                                              "message": env.api.state.message_to_api(message),
                                              "chat_instance": "1", "data": data}})
    await env.api.wait_for(lambda: record.answered)
    return record.text


async def scores(db, attempt_id: int) -> tuple[float | None, float | None]:
    attempt = await attempts.get_attempt(db, attempt_id)
    return attempt.score, attempt.max_score


async def final(db, attempt_id: int) -> bool:
    """Whether the one written answer's score is final."""
    return (await answers_in(db, attempt_id))[0].final


async def answer_written_exam(env, user) -> int:
    """The candidate takes the written paper through the bot and hands it in; returns the attempt id."""
    await start_exam(env, user, "Written paper essay")
    await user.send("把几个小批次的梯度加起来再更新")
    screen = await user.wait_message(lambda m: "Your answer so far" in (m.text or ""))  # it waits for more
    await user.press(screen, "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in user.chat() if not m.deleted and "Yes, finish" in m.button_texts), None))
    await user.press(confirm, "Yes, finish")
    await user.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()
    return (await the_attempt(env.db, user.id)).id


async def test_a_candidate_cannot_grade_their_own_answer_in_a_group_they_administer(env):
    """The reported attack: answer a written question, make a group, /review there, press the top score."""
    eve = env.api.user(EVE, "Eve", username="eve")
    attempt = await answer_written_exam(env, eve)
    before = await scores(env.db, attempt)
    assert before[0] < 5 and not await final(env.db, attempt)
    env.api.group(EVES_GROUP, "Eve's own team").set_admins([EVE])  # anyone can make a group
    await eve.send("/review", chat=EVES_GROUP)
    reply = await eve.wait_message(chat=EVES_GROUP)
    assert reply.text == NOTHING  # no card: not her own answer, and nobody is on her group's roster
    # she puts herself on her own roster (and consents): still nothing to review
    await eve.send("/team add @eve", chat=EVES_GROUP)
    assert (await eve.wait_message(chat=EVES_GROUP)).text.startswith("📨 I asked Eve in a private chat")
    await (await eve.press(await eve.wait_message(lambda m: "✅ Join" in m.button_texts), "✅ Join")).wait()
    await env.idle()
    env.clock.advance(60)
    await eve.send("/review", chat=EVES_GROUP)
    assert (await eve.wait_message(chat=EVES_GROUP)).text == NOTHING
    # the top-score button the card would have carried, sent anyway: refused by the domain
    top = cb.encode("set_score", attempt, 0, 10, scope=EVES_GROUP)
    assert await press_raw(env, eve, reply, top) == OWN
    await env.idle()
    assert await scores(env.db, attempt) == before
    assert not await final(env.db, attempt)
    assert await audit_count(env.db, action="review") == 0
    # the reference answer was never shown to her, and the paper leaderboard did not move (her own row,
    # asked in private: her group's board ranks its roster since joining, her exam is from before)
    assert not any("Reference:" in (m.text or "") for m in eve.chat())
    await eve.send("/leaderboard paper essay")
    board = await eve.wait_message(lambda m: "best exam scores" in (m.text or ""))
    assert "(provisional)" in board.text and "5/5" not in board.text


async def test_a_configured_admin_cannot_review_their_own_answer(env):
    admin, ann = env.api.user(ADMIN, "Boss"), env.api.user(ANN, "Ann")
    own = await answer_written_exam(env, admin)
    theirs = await answer_written_exam(env, ann)
    await admin.send("/review")
    card = await admin.wait_message()
    assert "Candidate: Ann" in card.text and card.text.startswith("📝 Review · 1 pending")  # only Ann's
    assert await press_raw(env, admin, card, cb.encode("set_score", own, 0, 10, scope=None)) == OWN
    assert not await final(env.db, own)
    assert await (await admin.press(card, "5")).wait() == "Final score 5/5 saved."
    await env.idle()
    assert "Nothing awaits review" in card.text  # her own answer never comes up
    assert await final(env.db, theirs)
    assert not await final(env.db, own)


async def test_nobody_resolves_their_own_dispute(env):
    admin = env.api.user(ADMIN, "Boss")
    [qid] = await question_ids(env.db, "essay")
    await answer_written_exam(env, admin)  # a dispute is of a question one was asked
    await admin.send(f"/dispute {qid} the reference is incomplete")
    await admin.wait_message()
    await admin.send("/bankstats")
    stats = await admin.wait_message()
    assert await (await admin.press(stats, "Uphold #1")).wait() == \
        "Nobody resolves their own dispute: another admin decides this one."
    assert await dispute_status(env.db, 1) == "open"


# --- the rule lives in bank/, whatever the handler checks ---------------------------------------

async def pending_answer(db, uid: int) -> int:
    c = Crafted(db)
    await c.user(uid)
    pid, qs = await c.paper(slug=f"p{uid}", sections=(("short", 1),), points=(5.0,))
    return await c.exam(uid, pid, [(qs[0][0], 2, 5, 0)], 0, 60)


async def test_set_final_refuses_the_reviewers_own_answer_in_every_scope(db):
    attempt = await pending_answer(db, 7)
    c = Crafted(db)
    await c.group(-5, members=(7,))
    await c.roster(-5, 7)
    for scope in (None, -5):
        me = Viewer(Role.admin if scope is None else Role.lead, 7)
        with pytest.raises(reviews.SelfReview):
            await reviews.set_final(db, attempt, 0, 5, viewer=me, scope=scope, now=1)
        assert await reviews.next_pending(db, await lens(db, me, scope), now=1) is None
        assert await reviews.next_pending(db, await lens(db, me, scope), now=1, attempt_id=attempt) is None
    assert not await final(db, attempt)
    outcome = await reviews.set_final(db, attempt, 0, 4, viewer=Viewer(Role.lead, 8), scope=-5, now=1)
    assert outcome.attempt_score == 4


async def test_set_final_refuses_a_candidate_off_the_roster(db):
    attempt = await pending_answer(db, 7)
    c = Crafted(db)
    await c.group(-5, members=(7, 8))  # wrote in the group: grants nothing
    with pytest.raises(reviews.OutOfScope):
        await reviews.set_final(db, attempt, 0, 5, viewer=Viewer(Role.lead, 8), scope=-5, now=1)
    await c.roster(-5, 7, status="pending")  # asked to join, not accepted
    with pytest.raises(reviews.OutOfScope):
        await reviews.set_final(db, attempt, 0, 5, viewer=Viewer(Role.lead, 8), scope=-5, now=1)
    assert await reviews.next_pending(db, await lens(db, Viewer(Role.lead, 8), -5), now=1) is None
    await c.roster(-5, 7)
    assert (await reviews.next_pending(db, await lens(db, Viewer(Role.lead, 8), -5), now=1)).user_id == 7
    await reviews.set_final(db, attempt, 0, 5, viewer=Viewer(Role.lead, 8), scope=-5, now=1)
    with pytest.raises(NotFound):
        await reviews.set_final(db, attempt, 9, 5, viewer=Viewer(Role.lead, 8), scope=-5, now=1)


async def test_resolve_refuses_the_raisers_own_dispute(db):
    c = Crafted(db)
    await c.user(7)
    pid, qs = await c.paper()
    await c.exam(7, pid, [(qs[0][0], 0, 1, 1)], 0, 1)  # a dispute is of a question one was asked
    did = await dsp.raise_dispute(db, question_id=qs[0][0], user_id=7, chat_id=7, reason="wrong key", now=1)
    with pytest.raises(dsp.OwnDispute):
        await dsp.resolve(db, did, upheld=True, lead=7, chat_id=None, now=2)
    assert await dispute_status(db, did) == "open"
    await dsp.resolve(db, did, upheld=False, lead=8, chat_id=None, now=2)
    assert await dispute_status(db, did) == "dismissed"
