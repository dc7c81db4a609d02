"""A lead sends a question file: it is fetched, parsed without writing, previewed; Import or Cancel."""

from __future__ import annotations

import asyncio
import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from bank.authoring import upload as up
from bank.errors import ImportFailed, NotFound, TermsUnavailable
from bank.models import Paper
from bank.paper_store import list_papers
from bank.round_trip import Outdated
from bot.authoring import render
from bot.authoring.callbacks import UploadAction, UploadPress
from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.userctx import UserCtx, user_ctx
from proctor.teams import curation
from proctor.teams.paper_counts import paper_tallies
from proctor.teams.question_edit import Sealed

log = logging.getLogger(__name__)


async def _fetch(context: Ctx, file_id: str) -> bytes:
    """The file's bytes. Raises TelegramError (logged here: the user is told one plain line, not the detail)."""
    try:
        file = await context.bot.get_file(file_id)
        return bytes(await file.download_as_bytearray())
    except TelegramError:
        log.warning("could not fetch an uploaded file from Telegram", exc_info=True)
        raise


async def received(update: Update, context: Ctx) -> None:
    """A document arrived: preview it for a configured admin in a private chat; refuse anything else."""
    msg, chat, doc = context.message, context.chat, context.message.document
    if doc is None:  # registered for documents only
        return
    svc = context.services
    admin = svc.is_admin(context.user.id)
    if chat.type != ChatType.PRIVATE:
        if admin:  # a member's files in a team group are not for the bot
            u = await user_ctx(update, context)
            await msg.reply_text(t("up_private_only", u.lang))
        return
    u = await user_ctx(update, context)
    if not admin:
        await msg.reply_text(t("up_admins_only", u.lang))
        return
    name = doc.file_name or "upload"
    try:
        up.check_size(name, doc.file_size)
        data = await _fetch(context, doc.file_id)
        # read in a child process (the thread only waits for it): parse, lint and hash
        digest, preview = await asyncio.to_thread(up.preview_upload, name, data, await _bank(context))
    except (up.UploadRefused, ImportFailed) as e:
        await msg.reply_text(t("up_refused", u.lang, why=str(e)))
        return
    except TelegramError:
        await msg.reply_text(t("up_fetch_failed", u.lang))
        return
    upload_id = await up.hold(svc.db, user_id=u.id, chat_id=chat.id, file_id=doc.file_id, file_name=name,
                              file_size=doc.file_size or 0, digest=digest, now=svc.now())
    await msg.reply_text(render.upload_preview(preview, u.lang, u.script),
                         reply_markup=render.upload_keyboard(upload_id, u.lang))


async def _bank(context: Ctx) -> list[Paper]:
    return await list_papers(context.services.db)


async def pressed(update: Update, context: Ctx, press: UploadPress) -> None:
    """Import or Cancel on a preview: the presser must be the uploader and still a configured admin."""
    query, svc = context.query, context.services
    u = await user_ctx(update, context)
    if not svc.is_admin(u.id):
        await ack(query, t("up_admins_only", u.lang), show_alert=True)
        return
    try:
        pending = await up.get_pending(svc.db, press.upload_id, u.id)
        if pending.status is not up.UploadStatus.pending:
            raise up.UploadGone(str(press.upload_id))
        if press.action == UploadAction.cancel:
            await up.cancel(svc.db, pending.id, u.id, svc.now())
            text = t("up_cancelled", u.lang, file=pending.file_name)
        else:
            text = await _import(context, pending, u)
    except (NotFound, up.UploadGone):
        await ack(query, t("up_gone", u.lang), show_alert=True)
        return
    await ack(query)
    await _finish(query, text)


async def end_uploads(context: Ctx, u: UserCtx) -> list[str]:
    """/cancel: every file of the admin's waiting for Import is dropped."""
    names = await up.cancel_all(context.services.db, u.id, context.services.now())
    return [t("up_cancelled", u.lang, file=name) for name in names]


async def _import(context: Ctx, pending: up.Pending, u: UserCtx) -> str:
    svc = context.services
    try:
        data = await _fetch(context, pending.file_id)
        papers, digest, fmt = await asyncio.to_thread(up.read_for_import, pending.file_name, data)
        before = await paper_tallies(svc.db)
        done = await curation.import_upload(svc.db, pending, papers, digest, fmt, now=svc.now(),
                                            chat_id=pending.chat_id)
    except (up.UploadRefused, ImportFailed, TermsUnavailable, Outdated, Sealed) as e:
        return t("up_refused", u.lang, why=str(e))
    except up.UploadChanged:
        return t("up_changed", u.lang)
    except TelegramError:
        return t("up_fetch_failed", u.lang)
    return render.imported(pending.file_name, done, before, await paper_tallies(svc.db), u.lang)


async def _finish(query, text: str) -> None:
    """The preview loses its buttons (the outcome is committed already); the outcome is a new message."""
    try:
        await query.edit_message_reply_markup(None)
    except TelegramError:
        log.info("could not remove the preview's buttons", exc_info=True)
    await query.message.reply_text(text)
