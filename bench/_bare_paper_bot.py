"""A bare python-telegram-bot bot that takes a paper with the same Bot API calls as `proctor run`.

Per kind of update it makes the calls `_paper_driver.CALLS` lists (bench/README.md), with screens
of the same shape and about the same size as ours (the header, the stem and its options, the letter
buttons, Back/Next, Flag, Questions, Finish), and nothing else: no database, no grading, no
pacing of its own; which screen comes next is all it knows. PTB as its documentation sets a bot
up: `ApplicationBuilder` with its defaults (httpx, a JobQueue) and PTB's own `AIORateLimiter`,
`run_polling()`, in a process of its own, as `proctor run` is.

    TELEGRAM_BOT_TOKEN=... PROCTOR_BOT_API_URL=... python bench/_bare_paper_bot.py PAPER.json

PAPER.json: `_paper_driver.Paper.as_json()`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard
from telegram import Update
from telegram.ext import (
    AIORateLimiter,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MINUTES = 60
PRESSED = ("single", "multi", "truefalse")  # every other kind is typed
HINTS = {"": "✍️ Type your answer as a message.",
         "fill": "✍️ Type your answer as a message. Several blanks: separate them with 、 or new lines."}


@dataclass
class Sitting:
    """One chat's paper: where they are, what they answered, the message on screen."""

    started: float
    pos: int = 0
    message_id: int = 0
    answers: dict[int, str] = field(default_factory=dict)
    ticks: list[str] = field(default_factory=list)


def _data(action: str, pos: int, arg: object = "") -> str:
    """Callback data of the shape and size of ours ("x:<attempt>:<action>:<pos>[:<arg>]")."""
    return f"x:1:{action}:{pos}:{arg}"


def screen(paper: dict[str, Any], s: Sitting, note: str = "") -> tuple[str, Keyboard]:
    """The question at `s.pos`, as ours draws it."""
    questions = paper["questions"]
    q = questions[s.pos]
    left = max(0, MINUTES * 60 - int(time.monotonic() - s.started))
    lines = [f"{q['ref']} · {s.pos + 1} of {len(questions)} · {q['section']} · {q['points']} · "
             f"{left // 60:02d}:{left % 60:02d} left",
             "", q["stem"], *(f"{LETTERS[i]}. {o}" for i, o in enumerate(q["options"]))]
    rows: list[list[Button]] = []
    if q["kind"] == "single":
        rows.append([Button(LETTERS[i], callback_data=_data("a", s.pos, LETTERS[i])) for i in range(len(q["options"]))])
    elif q["kind"] == "multi":
        rows.append([Button(f"☑ {LETTERS[i]}" if LETTERS[i] in s.ticks else LETTERS[i],
                            callback_data=_data("t", s.pos, LETTERS[i])) for i in range(len(q["options"]))])
        rows.append([Button("Submit", callback_data=_data("s", s.pos))])
    elif q["kind"] == "truefalse":
        rows.append([Button("✔ True", callback_data=_data("a", s.pos, "✔")),
                     Button("✘ False", callback_data=_data("a", s.pos, "✘"))])
    if q["kind"] == "multi" and s.ticks:
        lines += ["", f"Selected: {', '.join(sorted(s.ticks))} (press Submit)"]
    elif s.pos in s.answers:
        lines += ["", f"Your answer: {s.answers[s.pos]}"]
    if q["kind"] not in PRESSED:
        lines += ["", HINTS.get(q["kind"], HINTS[""])]
    nav = [Button("◀ Back", callback_data=_data("b", s.pos))] if s.pos else []
    if s.pos < len(questions) - 1:
        nav.append(Button("Next ▶" if s.pos in s.answers else "Skip ▶", callback_data=_data("n", s.pos)))
    rows += [nav, [Button("🚩 Flag", callback_data=_data("f", s.pos)), Button("☰ Questions", callback_data=_data("g", s.pos)),
                   Button("Finish", callback_data=_data("F", s.pos))]]
    text = "\n".join(lines) + (f"\n\n{note}" if note else "")
    return text, Keyboard([r for r in rows if r])


def confirm(paper: dict[str, Any], s: Sitting) -> tuple[str, Keyboard]:
    unanswered = [str(i + 1) for i in range(len(paper["questions"])) if i not in s.answers]
    text = f"Finish now?\nUnanswered: {', '.join(unanswered) or 'none'}\nFlagged: none"
    return text, Keyboard([[Button("Yes, finish", callback_data=_data("Y", s.pos)),
                            Button("Keep going", callback_data=_data("N", s.pos))],
                           [Button("☰ Questions", callback_data=_data("g", s.pos))]])


def result_card(paper: dict[str, Any], s: Sitting) -> tuple[str, Keyboard]:
    """About the size of ours: the score, a line a section, a mark a question."""
    questions = paper["questions"]
    used = int(time.monotonic() - s.started)
    sections = dict.fromkeys(q["section"] for q in questions)
    marks = " ".join(f"{i + 1}{'✓' if i % 3 else '✗'}" for i in range(len(questions)))
    text = "\n".join([f"🏁 {paper['title']} — result", f"Score: 0/{len(questions)} (0.0%)",
                      f"Time used: {used // 60:02d}:{used % 60:02d}", "",
                      *(f"• {name}: 0/10" for name in sections), "",
                      "By question (✓ right · ✗ wrong · ½ partly · 📝 awaiting review · – unanswered):", marks])
    return text, Keyboard([[Button("🔍 Review all answers", callback_data="x:1:v:0:1"),
                            Button("Review wrong answers", callback_data="x:1:r:0:1")]])


async def start_exam(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/exam: the first question at once (set-up; ours asks for the paper and ▶️ Start first)."""
    s = context.chat_data["sitting"] = Sitting(time.monotonic())
    text, kb = screen(context.bot_data["paper"], s)
    s.message_id = (await update.effective_message.reply_text(text, reply_markup=kb, protect_content=True)).message_id


async def typed_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A typed answer: the next question (after the last, "Finish now?") posted below it with the answer
    noted, the old screen deleted."""
    s: Sitting = context.chat_data["sitting"]
    paper, old = context.bot_data["paper"], s.message_id
    answer = update.effective_message.text
    s.answers[s.pos] = answer
    note = f"Recorded for Q{s.pos + 1}: {answer}"
    if s.pos == len(paper["questions"]) - 1:  # the last: "Finish now?" in the new message
        text, kb = confirm(paper, s)
        sent = await context.bot.send_message(update.effective_chat.id, f"{text}\n\n{note}", reply_markup=kb)
    else:
        s.pos += 1
        text, kb = screen(paper, s, note)
        sent = await context.bot.send_message(update.effective_chat.id, text, reply_markup=kb, protect_content=True)
    s.message_id = sent.message_id
    await context.bot.delete_message(update.effective_chat.id, old)


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button: answer, tick, Submit, Back, Next, Finish or Yes, finish; the toast, then the screen edited."""
    query = update.callback_query
    s: Sitting = context.chat_data["sitting"]
    paper = context.bot_data["paper"]
    _, _, action, _, arg = query.data.split(":", 4)
    last = len(paper["questions"]) - 1
    view = None
    match action:
        case "t":
            s.ticks = [t for t in s.ticks if t != arg] if arg in s.ticks else [*s.ticks, arg]
        case "a" | "s":
            s.answers[s.pos] = arg or "".join(sorted(s.ticks))
            s.ticks = []
            if s.pos == last:
                view = confirm(paper, s)
            else:
                s.pos += 1
        case "b":
            s.pos = max(0, s.pos - 1)
        case "n":
            s.pos = min(last, s.pos + 1)
        case "F":
            view = confirm(paper, s)
        case "Y":
            await query.answer(show_alert=False)
            await query.edit_message_text("✅ Handed in.")
            text, kb = result_card(paper, s)
            await context.bot.send_message(update.effective_chat.id, text, reply_markup=kb)
            return
    await query.answer(show_alert=False)
    text, kb = view or screen(paper, s)
    await query.edit_message_text(text, reply_markup=kb)


def main(paper_path: str) -> None:
    app = (ApplicationBuilder().token(os.environ["TELEGRAM_BOT_TOKEN"]).base_url(os.environ["PROCTOR_BOT_API_URL"])
           .rate_limiter(AIORateLimiter()).build())
    with open(paper_path, encoding="utf-8") as f:
        app.bot_data["paper"] = json.load(f)
    app.add_handler(CommandHandler("exam", start_exam))
    app.add_handler(CallbackQueryHandler(pressed))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, typed_answer))
    app.run_polling()


if __name__ == "__main__":
    main(sys.argv[1])
