"""The weekly digest: when it is due, what it says, and its job across restarts."""

import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import scheduling
from bot.leads import render as lead_render
from proctor.teams import digest as dg
from tests.harness import BotEnv
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted

UTC = ZoneInfo("UTC")
SH = ZoneInfo("Asia/Shanghai")
ALPHA, LEAD = -100, 10


def at(tz, *args) -> float:
    return datetime(*args, tzinfo=tz).timestamp()


def sched(weekday=4, at_time="17:00", last_week=None):
    return dg.Schedule(ALPHA, True, weekday, at_time, last_week)


def test_parse_schedule():
    assert dg.parse_schedule([]) == (0, "09:00")
    assert dg.parse_schedule(["fri", "7:30"]) == (4, "07:30")
    assert dg.parse_schedule(["17:00", "Sunday"]) == (6, "17:00")
    for bad in (["fr"], ["25:00"], ["noon"]):
        with pytest.raises(dg.BadSchedule):
            dg.parse_schedule(bad)


@pytest.mark.parametrize("tz", [UTC, SH])
def test_next_due_and_missed_follow_local_time(tz):
    s = sched()
    thursday = at(tz, 2027, 1, 14, 12)
    assert dg.next_due(s, thursday, tz) == at(tz, 2027, 1, 15, 17)
    assert not dg.missed(s, thursday, tz)
    saturday = at(tz, 2027, 1, 16, 12)
    assert dg.next_due(s, saturday, tz) == at(tz, 2027, 1, 22, 17)
    assert dg.missed(s, saturday, tz)  # Friday's digest was never posted
    assert dg.week_key(saturday, tz) == "2027-W02"
    assert not dg.missed(sched(last_week="2027-W02"), saturday, tz)
    # a new ISO week: last week's missed digest is not posted any more
    monday = at(tz, 2027, 1, 18, 8)
    assert not dg.missed(s, monday, tz)


def test_next_due_keeps_the_local_hour_across_daylight_saving():
    ny = ZoneInfo("America/New_York")
    s = sched(weekday=0, at_time="09:00")
    due = dg.next_due(s, at(ny, 2027, 3, 9, 12), ny)  # DST began on Sunday 14 March 2027
    assert datetime.fromtimestamp(due, ny).hour == 9 and datetime.fromtimestamp(due, ny).day == 15


def test_movers_rank_climbs_and_newcomers():
    from proctor.teams.leaderboard import Row

    def row(rank, uid, pts):
        return Row(rank, uid, f"u{uid}", pts, pts, 1, 1, 0.0)

    before = [row(1, 1, 5), row(2, 2, 4), row(3, 3, 3)]
    now = [row(1, 3, 9), row(2, 4, 8), row(3, 1, 2), row(4, 2, 1)]
    moved = dg.movers(now, before)
    assert [(m.name, m.previous, m.rank) for m in moved] == [("u3", 3, 1), ("u4", None, 2)]  # equal climbs: more points first


async def test_compose_covers_participation_movers_and_weak_topics(db):
    c = Crafted(db)
    await c.group(ALPHA, members=(1, 2, 3, 4))
    _, qs = await c.paper(sections=(("single", 3), ("single", 3)), points=(1.0, 1.0), subject="operations")
    await db.run_write(lambda conn: conn.execute(  # the first section's questions have their own topic
        f"UPDATE questions SET topic='dns' WHERE id IN ({','.join(map(str, qs[0]))})"))
    now = at(UTC, 2027, 1, 15, 17)
    week_ago = now - 7 * 86400
    await c.daily(ALPHA, "2027-01-07", qs[0], [(1, 0, 1, week_ago - 100), (2, 0, 0, week_ago - 90)])
    await c.daily(ALPHA, "2027-01-14", qs[0] + qs[1],
                  [(2, p, 1, now - 3600) for p in range(3)] + [(2, p, 0, now - 3600) for p in range(3, 6)]
                  + [(3, p, 1, now - 3000) for p in range(2)] + [(3, 3, 0, now - 3000)])
    d = await dg.compose(db, ALPHA, now, UTC)
    assert (d.members, d.active, d.active_before, d.answers) == (4, 2, 2, 9)
    assert [r.user_id for r in d.top] == [2, 3]
    assert [(m.name, m.previous, m.rank) for m in d.movers] == [("u2", 2, 1), ("u3", None, 2)]
    # topics: a question's own, else its paper's subject; never the sections' headings ("single part")
    assert [(w.name, round(w.accuracy, 2), w.answers) for w in d.weakest] == [("operations", 0.0, 4), ("dns", 1.0, 5)]


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)  # T0 is Friday 2027-01-15 08:00 UTC
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    yield e
    await e.close()


def live_jobs(env):
    return [j for j in env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.digest, ALPHA)) if not j.removed]


def digests(env):
    return [m for m in env.api.group(ALPHA).chat() if m.from_bot and (m.text or "").startswith("📰 Weekly digest")]


async def test_digest_schedule_job_posts_once_a_week_and_survives_restarts(env):
    lead = env.api.user(LEAD, "Lea")
    await lead.send("/digest on fri 17:00", chat=ALPHA)
    assert (await lead.wait_message(chat=ALPHA)).text == "🗓 Weekly digest: every Friday at 17:00 (UTC)."
    [job] = env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.digest, ALPHA))
    assert abs(job.next_t.timestamp() - time.time() - 9 * 3600) < 60  # due at 17:00, it is 08:00
    # time passes; the job fires: one digest, the week is marked
    env.clock.set(at(UTC, 2027, 1, 15, 17, 1))
    await job.run(env.app)
    await env.idle()
    assert len(digests(env)) == 1
    assert "Participation: 0 of the 1 person seen in this group answered the daily quiz" in digests(env)[0].text
    assert (await dg.get_schedule(env.db, ALPHA)).last_week == "2027-W02"
    [job] = live_jobs(env)  # re-armed for next Friday, one job
    assert abs(job.next_t.timestamp() - time.time() - (7 * 86400 - 60)) < 60
    await job.run(env.app)  # fired twice: still one digest this week
    await env.idle()
    assert len(digests(env)) == 1
    # the bot is down over next Friday's time and back on Saturday: the missed digest is posted once
    await env.stop_app()
    env.clock.set(at(UTC, 2027, 1, 23, 10))
    await env.start_app()
    await env.api.wait_for(lambda: len(digests(env)) == 2, timeout=10)
    await env.restart()
    await env.idle()
    assert len(digests(env)) == 2
    assert (await dg.get_schedule(env.db, ALPHA)).last_week == "2027-W03"
    # down across a week boundary: last week's digest is skipped, the next one is scheduled
    await env.stop_app()
    env.clock.set(at(UTC, 2027, 2, 1, 10))  # Monday; Friday 29 January was missed
    await env.start_app()
    await env.idle()
    assert len(digests(env)) == 2
    [job] = live_jobs(env)
    assert abs(job.next_t.timestamp() - time.time() - (4 * 86400 + 7 * 3600)) < 60


async def test_digest_off_removes_the_job_and_turning_on_late_waits_for_next_week(env):
    lead = env.api.user(LEAD, "Lea")
    await lead.send("/digest on fri 07:00", chat=ALPHA)  # it is already 08:00 on Friday
    await lead.wait_message(chat=ALPHA)
    await env.idle()
    assert digests(env) == []
    [job] = live_jobs(env)
    assert abs(job.next_t.timestamp() - time.time() - (7 * 86400 - 3600)) < 60
    await lead.send("/digest off", chat=ALPHA)
    assert (await lead.wait_message(chat=ALPHA)).text == "Weekly digest turned off."
    await env.idle()
    assert live_jobs(env) == []
    await lead.send("/digest now", chat=ALPHA)
    await env.api.wait_for(lambda: digests(env))


def test_the_digest_says_it_counts_the_groups_daily_players_not_the_roster():
    """Issue 22: 'Participation: 3 of 3 members answered' while /team listed a roster of 1: the digest
    counts the people seen in the group and the daily board's players, and says so."""
    d = dg.Digest(members=3, active=3, active_before=1, answers=9, top=[], movers=[], weakest=[])
    text = lead_render.digest_text(d, "Alpha", "en")
    assert "Participation: 3 of the 3 people seen in this group answered the daily quiz (9 answers)" in text
    assert "The roster (/team) lists only those who joined." in text and "member" not in text.split("\n")[2]
    assert "名单（/team）只含已加入的成员" in lead_render.digest_text(d, "Alpha", "zh")
