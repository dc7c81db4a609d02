"""What /cancel ends besides an exam: the exam owns the command, and each feature that keeps something
open for a user (a /newquestion draft, an /editq or /newpaper session, a file waiting for Import)
registers here how to end it, so the exam imports none of them and registering loads none of them
(bot/feature.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram.ext import Application

from bot.context import Ctx
from bot.services import Slot
from bot.userctx import UserCtx

Ender = Callable[[Ctx, UserCtx], Awaitable[list[str]]]  # ends the user's open work of one kind: the lines saying what


@dataclass(frozen=True, slots=True)
class _Registered:
    end: Ender
    admins_only: bool  # only configured admins can have it open: anyone else's /cancel skips it unloaded


_ENDERS: Slot[list[_Registered]] = Slot("open_work_enders", list)


def add_ender(app: Application, end: Ender, *, admins_only: bool) -> None:
    """Another feature's open work, for /cancel to end."""
    _ENDERS.of(app).append(_Registered(end, admins_only))


async def end_open_work(context: Ctx, u: UserCtx) -> list[str]:
    """Ends whatever the user has open (an exam aside); returns what was ended, a line each."""
    admin = context.services.is_admin(u.id)
    ended: list[str] = []
    for registered in _ENDERS.of(context):
        if admin or not registered.admins_only:
            ended += await registered.end(context, u)
    return ended
