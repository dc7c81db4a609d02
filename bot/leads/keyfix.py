"""/keyfix: an upheld dispute's key fix, with the regrade, and the notices it sends (outbox)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import Application

from bank.errors import NotFound
from bank.paper_store import get_question
from bank.question_ref import question_ref
from bot.context import Ctx
from bot.i18n import t
from bot.leads import render
from bot.leads.access import require_bank_admin
from bot.outbox import kick
from bot.pacing import Turn
from bot.services import services
from bot.voice import person_voice
from proctor.exams.cards import told
from proctor.outbox import Outgoing
from proctor.storage.db import Database
from proctor.teams import disputes as dsp
from proctor.teams import key_fix as kf


async def keyfix(update: Update, context: Ctx) -> None:
    """/keyfix <dispute> <new key> [keep], or /keyfix <dispute> + <alternative> [keep] (fill-in blanks).
    Regrades every answer to the question unless `keep`; configured admins only, never one's own."""
    desk = await require_bank_admin(update, context)
    if desk is None:
        return
    lang, msg = desk.user.lang, context.message
    args = list(context.args or [])
    regrade = not (args and args[-1].lower() == "keep")
    if not regrade:
        args.pop()
    if len(args) < 2 or not args[0].lstrip("#").isdigit():
        await msg.reply_text(t("l_kf_usage", lang))
        return
    dispute_id = int(args[0].lstrip("#"))
    alternative = " ".join(args[2:]) if args[1] == "+" else None
    key = None if alternative is not None else " ".join(args[1:])
    svc = context.services
    try:
        fix = await kf.fix_key(svc.db, dispute_id, actor=desk.user.id, now=svc.now(), chat_id=desk.scope,
                               key=key, alternative=alternative, regrade=regrade)
    except dsp.OwnDispute:
        await msg.reply_text(t("l_dispute_own", lang))
        return
    except dsp.NotUpheld:
        await msg.reply_text(t("l_kf_open", lang, id=dispute_id))
        return
    except NotFound:
        await msg.reply_text(t("l_kf_none", lang, id=dispute_id))
        return
    except kf.BadKey as e:
        await msg.reply_text(t("l_kf_bad", lang, why=str(e)))
        return
    except kf.OwnScore:
        await msg.reply_text(t("l_own_score", lang,
                               question=await question_ref(svc.db, await dsp.question_of(svc.db, dispute_id) or 0)))
        return
    kick(context.application)  # the notices are committed with the fix; send them now
    text = t("l_kf_done", lang, question=await question_ref(svc.db, fix.question_id), version=fix.version,
             answers=fix.answers,
             changed=len(fix.changes))
    await msg.reply_text(text + ("\n" + t("l_kf_held", lang, held=fix.held) if fix.held else ""))


async def send_notice(app: Application, message: Outgoing, turn: Turn | None) -> None:
    """The outbox's sender of "the key of a question you answered or disputed was fixed": each change
    with its question where the read rule lets the candidate read their result on that sheet now, else
    the attempt's total alone (a hiring paper under the review option `score`; nothing under `none`)."""
    p = message.payload
    db, user_id = services(app).db, message.user_id if message.user_id is not None else message.chat_id
    lang = (await person_voice(app, user_id)).lang  # a notice to one person: their voice
    changes = p.get("changes", [p] if "new" in p else [])
    seen = await told(db, user_id, p["question"], [c.get("attempt") for c in changes])
    where = await question_where(db, p["question"], lang)
    lines = [t("l_kf_notice_disputer", lang, id=p["dispute"], where=where)] \
        if "dispute" in p else []
    lines += notice_lines({"question": p["question"], "changes": [c for c, s in zip(changes, seen, strict=True)
                                                                  if s.result]}, lang, where)
    lines += [t("l_kf_notice_total", lang, paper=c["title"], old=render.num(c["total_old"]),
                new=render.num(c["total_new"]))
              for c, s in zip(changes, seen, strict=True) if not s.result and s.total and "total_new" in c]
    if lines:
        await app.bot.send_message(message.chat_id, "\n".join(lines), rate_limit_args=turn)


async def question_where(db: Database, question_id: int, lang: str) -> str:
    """The question as the candidate met it: its reference and its paper's title."""
    try:
        q = await get_question(db, question_id)
    except NotFound:
        return t("l_kf_notice_nowhere", lang)
    src = q.source
    return t("l_kf_notice_where", lang, question=q.ref, paper=src.paper_title or src.paper if src else "")


def notice_lines(p: dict, lang: str, where: str) -> list[str]:
    """Every change of the candidate's scores, old → new: one line when there is one, else a line per
    attempt or daily answer (a notice queued before 028 carries one change as old/new/max)."""
    changes = p.get("changes", [p] if "new" in p else [])
    num = render.num
    if len(changes) == 1:
        [c] = changes
        return [t("l_kf_notice_score", lang, where=where, old=num(c["old"]), new=num(c["new"]),
                  max=num(c["max"]))]
    if not changes:
        return []
    return [t("l_kf_notice_scores", lang, where=where, n=len(changes))] + [
        t("l_kf_notice_line", lang, where=c.get("title") or t("l_kf_notice_daily", lang), old=num(c["old"]),
          new=num(c["new"]), max=num(c["max"])) for c in changes]
