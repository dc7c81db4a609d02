"""Daily push to many chats at once, through the fake Bot API with Telegram's flood limits enforced.

Every chat's real cron job (`daily:<chat>`) is run at the trigger time, all together, as APScheduler
would at 09:00. The bot keeps its real rate limiter (bot/pacing.py: 30 msg/s overall,
1/s per chat, 20/min per group, three retries), the fake server refuses anything over its own limits with 429.

The chats are private chats with the default 5 questions: a private quiz sends one question at a
time, so each push is exactly one message (3,000 chats = 3,000 messages = 100 s at 30/s).
`--groups N` makes N of the chats groups with `--group-questions` questions each (default 1; a group
gets all its questions at once, one a second).

Run: python bench/bench_daily_push.py [--chats 3000] [--groups 0] [--group-questions 1]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import build_application  # noqa: E402
from bot.lifecycle import start_app, stop_app  # noqa: E402
from bot.services import services  # noqa: E402
from bot.settings import Settings  # noqa: E402
from proctor.clock import ManualClock
from proctor.daily import subscriptions as subs
from proctor.daily.schedule import fire_at
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from sandbox.fakeapi import FakeBotApi, RateLimits

TOKEN = "123456:BENCH-fake-token-for-the-daily-push"
CAP = 30.0  # Telegram's overall limit, messages per second
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC
TZ = "Asia/Shanghai"


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


async def seed(db_path: Path, chats: int, groups: int, group_questions: int = 1) -> list[int]:
    db = await Database.open(db_path)
    try:
        from proctor.storage.bootstrap import ensure_default_bank

        await ensure_default_bank(db, T0)
        ids = []
        for i in range(chats):
            if i < groups:
                chat_id, kind, n = -1_000_000 - i, "supergroup", group_questions
            else:
                chat_id, kind, n = 10_000 + i, "private", 5
                await ensure_user(db, chat_id, f"U{i}", None, T0)
            await subs.ensure_chat(db, chat_id, kind, f"chat {i}", T0)
            await subs.subscribe(db, chat_id, "09:00", TZ, n, None, T0)
            ids.append(chat_id)
        return ids
    finally:
        await db.close()


async def run(chats: int, groups: int, group_questions: int = 1) -> dict:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    tmp = Path(tempfile.mkdtemp(prefix="bench-daily-"))
    ids = await seed(tmp / "proctor.db", chats, groups, group_questions)
    clock = ManualClock(T0)
    api = FakeBotApi(TOKEN, clock=clock.now, rate_limits=RateLimits())
    for chat_id in ids:
        if chat_id > 0:
            api.user(chat_id, f"U{chat_id}")
        else:
            api.group(chat_id, f"G{chat_id}")
    await api.start()
    settings = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_DB=tmp / "proctor.db", PROCTOR_BOT_API_URL=api.base_url,
                        PROCTOR_TIMEZONE=TZ)
    app = build_application(settings, clock=clock)  # the real pacer (bot/pacing.py)
    await start_app(app, poll_timeout=1)  # an int: PTB turns 0.5 into 0, and polling would spin
    await _warm_up_done()
    try:
        from datetime import date

        clock.set(fire_at(date(2027, 1, 16), *_nine()).timestamp())
        jobs = [app.job_queue.get_jobs_by_name(f"daily:{c}")[0] for c in ids]
        rss_before = max_rss_mb()
        started, cpu_started = time.monotonic(), time.process_time()
        await asyncio.gather(*(job.run(app) for job in jobs))
        elapsed = time.monotonic() - started
        cpu = time.process_time() - cpu_started
        db = services(app).db
        unsent = await db.scalar("SELECT COUNT(*) FROM daily_items i JOIN daily_deliveries d ON d.id=i.delivery_id "
                                 "WHERE i.message_id IS NULL AND (d.chat_id < 0 OR i.pos = 0)")
        delivered = await db.scalar("SELECT COUNT(*) FROM daily_deliveries WHERE status='open'")
    finally:
        await stop_app(app)
        await api.stop()
    stats = api.stats
    per_chat = Counter({c: len(v) for c, v in stats.per_chat.items()})
    expected = {c: (group_questions if c < 0 else 1) for c in ids}  # private: one question at a time
    duplicates = sum(max(0, per_chat[c] - expected[c]) for c in ids)
    missed = sum(1 for c in ids if per_chat[c] < expected[c])
    rate = stats.sent / elapsed if elapsed else 0.0
    return {
        "chats": chats, "groups": groups, "group_questions": group_questions, "messages": stats.sent, "seconds": round(elapsed, 1),
        "send_rate": round(rate, 2), "ratio_of_cap": round(rate / CAP, 3),
        "server_rate_first_to_last": round(stats.average_per_second, 2),
        "first_message_after_s": round((stats.first_at or started) - started, 2),
        "last_message_after_s": round((stats.last_at or started) - started, 2),
        "peak_per_second": stats.peak_per_second, "http_429": stats.rejected, "duplicates": duplicates,
        "chats_missed": missed, "deliveries_open": delivered, "unsent_items": unsent,
        "cpu_busy": round(cpu / elapsed, 2) if elapsed else 0.0,
        "max_rss_mb_before": round(rss_before, 1), "max_rss_mb_after": round(max_rss_mb(), 1),
    }


async def _warm_up_done() -> None:
    """Start-up loads the grader's dictionaries in a thread; a 09:00 push does not race it in production."""
    import threading

    for thread in threading.enumerate():
        if thread.name == "warm-up":
            await asyncio.to_thread(thread.join)
    await asyncio.sleep(1)


def _nine():
    from datetime import time as dtime
    from zoneinfo import ZoneInfo

    return dtime(9, 0), ZoneInfo(TZ)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--chats", type=int, default=3000)
    p.add_argument("--groups", type=int, default=0)
    p.add_argument("--group-questions", type=int, default=1)
    args = p.parse_args()
    result = asyncio.run(run(args.chats, args.groups, args.group_questions))
    for key, value in result.items():
        print(f"{key:>26}: {value}")
    print(f"achieved {result['send_rate']} msg/s = {result['ratio_of_cap']:.1%} of the {CAP:g} msg/s cap "
          f"(target >= 90%); 429s={result['http_429']} duplicates={result['duplicates']} "
          f"missed={result['chats_missed']}")
    ok = (result["ratio_of_cap"] >= 0.9 and result["http_429"] == 0 and result["duplicates"] == 0
          and result["chats_missed"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
