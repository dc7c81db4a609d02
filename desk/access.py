"""Who may use the desk, for which teams: the desk's one role rule, asked on every request.

The rule (the same as the chat's): configured admins (PROCTOR_ADMINS) lead every team; a
group's Telegram administrators lead that group only. `access_of` is the only place the desk
decides this, so pointing it at explicit team rosters later changes one function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from desk import params
from proctor.chats import Team, all_teams
from proctor.storage.db import Database
from proctor.teams import leaderboard as lb
from proctor.teams.review import Outcome


class Bridge(Protocol):
    """What the desk needs from the chat side (implemented by bot.desk_bridge)."""

    def is_admin(self, user_id: int) -> bool: ...

    async def group_admins(self, chat_id: int) -> frozenset[int]: ...

    async def check_roster(self, chat_id: int | None) -> None:
        """Ask Telegram whether the group's roster members are still in it, where the last answer
        is stale (proctor/teams/consent.py); None (every team, no roster) asks nothing."""

    def notify_reviewed(self, outcome: Outcome) -> None: ...

    def deliver_notices(self) -> None: ...


class Refused(Exception):
    """The user may not see or act for that team (or is no lead at all)."""


ALL = "all"


@dataclass(frozen=True)
class Access:
    user_id: int
    admin: bool  # a configured admin: every team, the shared bank, hiring papers
    teams: tuple[Team, ...]  # the teams they lead

    @property
    def is_lead(self) -> bool:
        return self.admin or bool(self.teams)

    def scope(self, raw: str | None, *, allow_all: bool = True) -> tuple[int | None, Team | None]:
        """The team a request acts for, from its `team` parameter: (scope, team); scope None is
        every team (admins only). Raises Refused."""
        if not self.is_lead:
            raise Refused("not a lead")
        if raw in (None, "") and not (self.admin and allow_all):
            if not self.teams:
                raise Refused("no team")
            return self.teams[0].chat_id, self.teams[0]
        if raw in (None, "", ALL):
            if self.admin and allow_all:
                return None, None
            raise Refused("every team is for configured admins")
        chat_id = params.chat_id(raw or "")
        if chat_id is None:
            raise Refused("bad team")
        team = next((t for t in self.teams if t.chat_id == chat_id), None)
        if team is None:
            raise Refused("not a lead of that team")
        return chat_id, team


async def access_of(db: Database, bridge: Bridge, user_id: int) -> Access:
    """What `user_id` may do at the desk right now (group administrator lists are cached briefly)."""
    if bridge.is_admin(user_id):
        return Access(user_id, True, tuple(await all_teams(db)))
    led = []
    for chat_id, title, _ in await lb.my_groups(db, user_id):
        if user_id in await bridge.group_admins(chat_id):
            led.append(Team(chat_id, title or str(chat_id)))
    return Access(user_id, False, tuple(led))
