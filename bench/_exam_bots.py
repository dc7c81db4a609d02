"""The bot side of bench_exam: one bot per child process, driven over a pipe.

`serve(kind, ...)` runs either our real Application ("ours", built by bot.app.build_application
with a temp SQLite file) or a bare python-telegram-bot Application ("bare") that makes the same
Bot API calls per button press (answerCallbackQuery, then editMessageText with text and keyboard)
with no database and no logic, on PTB's default transport (httpx); "bare-aiohttp" is the same bare
bot on our transport (bot/aiohttp_request.py). The parent asks for CPU and memory figures and says when to stop.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import os
import resource
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard
from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.lifecycle import start_app, stop_app

# About the size of one of our attempt screens (header, a CJK stem, four options).
_STEM = "在使用Adam优化器进行混合精度训练时，以下哪种方法有助于提高数值稳定性？"
_OPTIONS = ["使用较小的学习率", "在更新梯度前进行缩放", "在更新参数前进行缩放", "以上都是"]


def _bare_screen(n: int, layout: str) -> tuple[str, Keyboard]:
    """Question n's screen; `layout` says which questions are answered by a button ("B") or typed ("T")."""
    text = "\n".join([f"Q {n}/49 · 单选题 · 1 pts · 59:{n % 60:02d} left", "", _STEM]
                     + [f"{'ABCD'[i]}. {o}" for i, o in enumerate(_OPTIONS)])
    rows = [[Button(c, callback_data=f"b:{n}:{i}") for i, c in enumerate("ABCD")]]
    if layout[(n - 1) % len(layout)] == "T":
        rows = []
    rows += [[Button("⬅️ Back", callback_data=f"b:{n}:b"), Button("Skip ➡️", callback_data=f"b:{n}:n")],
             [Button("🚩 Flag", callback_data=f"b:{n}:f"), Button("Finish", callback_data=f"b:{n}:F")]]
    return text, Keyboard(rows)


async def bare_exam(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Post a question screen (set-up only, not measured)."""
    text, kb = _bare_screen(1, context.bot_data["layout"])
    sent = await update.effective_message.reply_text(text, reply_markup=kb, protect_content=True)
    context.bot_data[update.effective_chat.id] = (1, sent.message_id)


async def bare_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer the press and edit the screen to the next question: our calls, none of our logic."""
    query = update.callback_query
    n = int(query.data.split(":")[1]) + 1
    text, kb = _bare_screen(n, context.bot_data["layout"])
    context.bot_data[update.effective_chat.id] = (n, query.message.message_id)
    await query.answer()
    await query.edit_message_text(text, reply_markup=kb)


async def bare_typed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A typed answer: our calls (say it is recorded, post the next screen, delete the old one).

    One chat's typed answers are handled in turn (ours does the same per user): the next one can
    arrive before the send of this one's screen has returned."""
    chat_id = update.effective_chat.id
    async with context.bot_data.setdefault("locks", defaultdict(asyncio.Lock))[chat_id]:
        n, old = context.bot_data[chat_id]
        await update.effective_message.reply_text(f"Answer {n} recorded: {update.effective_message.text[:100]}")
        text, kb = _bare_screen(n + 1, context.bot_data["layout"])
        sent = await context.bot.send_message(chat_id, text, reply_markup=kb, protect_content=True)
        context.bot_data[chat_id] = (n + 1, sent.message_id)
        await context.bot.delete_message(chat_id, old)


def build_bare(token: str, base_url: str, layout: str = "B", *, aiohttp: bool = False) -> Application:
    """`aiohttp`: both of PTB's HTTP clients are ours (bot/aiohttp_request.py), as in our bot; else PTB's httpx."""
    # Stock concurrent processing (256, like ours): the bare bot is not handicapped by serial updates.
    builder = ApplicationBuilder().token(token).base_url(base_url).concurrent_updates(256)
    if aiohttp:
        from bot.aiohttp_request import AiohttpRequest

        builder = builder.request(AiohttpRequest(connection_pool_size=256)).get_updates_request(AiohttpRequest())
    app = builder.build()
    app.bot_data["layout"] = layout
    app.add_handler(CommandHandler("exam", bare_exam))
    app.add_handler(CallbackQueryHandler(bare_answer))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, bare_typed))
    return app


def build_ours(token: str, base_url: str, db_path: Path, rate_limiter: bool) -> Application:
    from bot.app import build_application
    from bot.settings import Settings

    settings = Settings(TELEGRAM_BOT_TOKEN=token, PROCTOR_DB=db_path, PROCTOR_BOT_API_URL=base_url)
    return build_application(settings, rate_limiter=rate_limiter)


class GcPauses:
    """Garbage-collector pauses, to tell a latency tail caused by GC from one caused by work."""

    def __init__(self) -> None:
        self.total = 0.0
        self.worst = 0.0  # since the last report
        self._started = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._started
            self.total += pause
            self.worst = max(self.worst, pause)

    def take_worst(self) -> float:
        worst, self.worst = self.worst, 0.0
        return worst


def _main_thread_cpu() -> float:
    """CPU seconds of the main thread alone (the event loop's; aiosqlite's thread is another)."""
    fields = Path(f"/proc/self/task/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def usage(pauses: GcPauses) -> dict[str, float]:
    """CPU seconds of the whole process (all threads, aiosqlite's included), memory in MiB, GC pauses."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    rss = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return {"cpu": ru.ru_utime + ru.ru_stime, "loop_cpu": _main_thread_cpu(), "wall": time.perf_counter(), "rss_mib": rss,
            "peak_rss_mib": ru.ru_maxrss / 1024, "gc_total": pauses.total,
            "gc_worst": pauses.take_worst()}


async def _wait_warm_up() -> None:
    """Our bot loads the grader's dictionaries in a thread after start-up; let it finish first."""
    for _ in range(600):
        if not any(t.name == "warm-up" and t.is_alive() for t in threading.enumerate()):
            return
        await asyncio.sleep(0.1)


async def _serve(kind: str, token: str, base_url: str, db_path: str, conn, rate_limiter: bool,
                 profile_path: str | None, layout: str) -> None:
    bare = kind in ("bare", "bare-aiohttp")
    if bare:
        app = build_bare(token, base_url, layout, aiohttp=kind == "bare-aiohttp")
        await _start_bare(app)
    else:
        app = build_ours(token, base_url, Path(db_path), rate_limiter)
        await start_app(app, poll_timeout=1)
    await _wait_warm_up()
    # the event loop thread's CPU time, not the wall clock: time spent waiting (for a socket, a core
    # on a busy machine, the database thread) is not this thread's work
    profiler = cProfile.Profile(time.thread_time) if profile_path else None
    pauses = GcPauses()
    conn.send(("ready", usage(pauses)))
    loop = asyncio.get_running_loop()
    while True:
        command = await loop.run_in_executor(None, conn.recv)
        if command == "profile-on" and profiler:
            profiler.enable()
        elif command == "profile-off" and profiler:
            profiler.disable()
        elif command == "stop":
            break
        elif command == "settle":  # the warm-up thread (started by the first update) has finished
            await _wait_warm_up()
        conn.send(("usage", usage(pauses)))
    await (_stop_bare(app) if bare else stop_app(app))
    if profiler:
        profiler.dump_stats(profile_path)
    conn.send(("stopped", usage(pauses) | {"jieba": "jieba" in sys.modules}))


async def _start_bare(app: Application) -> None:
    """The bare bot as PTB runs it: its Updater polls."""
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=1)


async def _stop_bare(app: Application) -> None:
    assert app.updater is not None
    await app.updater.stop()
    await app.stop()
    await app.shutdown()


def _use_tree(tree: str) -> None:
    """Our packages from `tree` from now on: those this module imported already are dropped."""
    global start_app, stop_app
    sys.path.insert(0, tree)
    for name in list(sys.modules):
        if name.split(".")[0] in ("bot", "proctor", "bank", "sandbox", "desk"):
            del sys.modules[name]
    from bot.lifecycle import start_app, stop_app


def serve(kind: str, token: str, base_url: str, db_path: str, conn, rate_limiter: bool = False,
          profile_path: str | None = None, layout: str = "B", cpu: int | None = None,
          against: str | None = None) -> None:
    """Child process entry point. `cpu`: run every thread of the bot on that CPU alone. `against`: in
    the bare bot's place, our bot from that checkout (bench_exam --against)."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    if kind == "bare" and against:
        _use_tree(against)
        kind = "ours"
    asyncio.run(_serve(kind, token, base_url, db_path, conn, rate_limiter, profile_path, layout))


if __name__ == "__main__":  # the bare bot as a process of its own (bench_cold_start): TOKEN BASE_URL
    build_bare(sys.argv[1], sys.argv[2]).run_polling(poll_interval=0.0, timeout=1)
