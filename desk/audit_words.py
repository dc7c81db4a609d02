"""An audit entry in words: one sentence per action (`audit_<action>`, bot/catalogue/audit.py) with
people's first names, paper and team titles instead of ids, a paper setting's name and value in words,
and times in the team's zone; each action's name in words too (`audit_action_<action>`). An action
without a sentence (one added later) reads as "actor: action · key value", never as raw JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from bank.kinds import GradingMethod, MultiPolicy, ReviewOption
from bank.question_ref import QuestionRef, question_refs
from proctor.audit import AuditAction
from proctor.chats import chat_title, chat_zone
from proctor.local_time import moment, zone
from proctor.people.users import find_prefs
from proctor.storage.db import Database
from proctor.teams.audit import Entry
from proctor.teams.leaderboard import PERIODS

Say = Callable[..., str]  # texts.t bound to the reader's language: say(key, **params)
WITHHELD = "🔒"  # a detail the reader may not read (proctor.teams.audit.read: a hiring paper's key, say)


@dataclass(frozen=True)
class Names:
    """What the entries' ids stand for, read once for a page."""

    users: dict[int, str]
    teams: dict[int, str]
    papers: dict[str, str]  # paper id (as text) and slug -> title
    zones: dict[int | None, ZoneInfo]  # a team's zone; None: the desk's default
    questions: dict[int, QuestionRef] = field(default_factory=dict)  # bank id -> the question's reference
    answers: dict[str, int] = field(default_factory=dict)  # a review's target ("7/1") -> its question's bank id


async def names_for(db: Database, entries: list[Entry], default_zone: str) -> Names:
    """The names and zones the entries mention."""
    users: dict[int, str] = {}
    for uid in {e.actor_id for e in entries} | {e.target_user for e in entries if e.target_user is not None}:
        prefs = await find_prefs(db, uid)
        users[uid] = prefs.first_name if prefs and prefs.first_name else str(uid)
    chats = {e.chat_id for e in entries if e.chat_id is not None}
    teams = {c: await chat_title(db, c) or str(c) for c in chats}
    papers: dict[str, str] = {}
    if any(_mentions_paper(e) for e in entries):
        for r in await db.fetchall("SELECT id, slug, title FROM papers"):
            papers[str(r["id"])] = papers[r["slug"]] = r["title"] or r["slug"]
    zones: dict[int | None, ZoneInfo] = {c: await chat_zone(db, c, default_zone) for c in chats}
    zones[None] = zone(default_zone)
    answers: dict[str, int] = {}
    for e in entries:
        if e.action == AuditAction.review and (at := _target_id(e.target)) not in answers:
            attempt, _, pos = at.partition("/")
            if attempt.isdigit() and pos.isdigit():
                found = await db.scalar("SELECT question_id FROM attempt_items WHERE attempt_id=? AND pos=?",
                                        (int(attempt), int(pos)))
                if found is not None:
                    answers[at] = int(found)
    ids = [q for e in entries if (q := _question_id(e)) is not None] + list(answers.values())
    return Names(users, teams, papers, zones, await question_refs(db, ids), answers)


def _question_id(e: Entry) -> int | None:
    """The bank id of the question an entry names in its detail or its target ("question:12")."""
    found = e.detail.get("question")
    if isinstance(found, int):
        return found
    ident = _target_id(e.target)
    return int(ident) if e.target.startswith("question") and ident.isdigit() else None


def _mentions_paper(e: Entry) -> bool:
    return e.target.startswith("paper") or "paper" in e.detail or "papers" in e.detail


def local_time(at: float, names: Names, chat_id: int | None) -> str:
    """"2027-01-15 17:30 CST": the moment in the team's zone (the desk's default for no team)."""
    return moment(at, names.zones.get(chat_id, names.zones[None]))


def _target_id(target: str) -> str:
    """"question:12", "question 12", "dispute:3", "answer:7/1" -> "12", "12", "3", "7/1"."""
    return target.replace(":", " ").split(" ", 1)[-1].strip()


def _number(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def sentence(e: Entry, names: Names, say: Say) -> str:
    """What the entry says happened, in the reader's language."""
    try:
        key, params = _words(e, names, say)
        return say(f"audit_{key}", **params)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):  # an action (or a shape of it) without words yet
        return plain_line(e, names)


def plain_line(e: Entry, names: Names) -> str:
    """"Lea: some_action question 12 · rows 3": an entry without a sentence, readable all the same."""
    detail = " · ".join(f"{k} {_plain(v)}" for k, v in (e.detail | dict.fromkeys(e.withheld, WITHHELD)).items())
    head = " ".join(x for x in (e.action, e.target) if x)
    return f"{names.users.get(e.actor_id, e.actor_id)}: {head}" + (f" · {detail}" if detail else "")


def _plain(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {_plain(x)}" for k, x in v.items())
    if isinstance(v, list):
        return ", ".join(_plain(x) for x in v)
    return _number(v)


def _words(e: Entry, names: Names, say: Say) -> tuple[str, dict[str, Any]]:
    """The sentence's key and its parameters: every detail as written, then names for the ids."""
    d = e.detail
    params: dict[str, Any] = {k: _plain(v) for k, v in d.items()} | dict.fromkeys(e.withheld, WITHHELD)
    paper_of = names.papers.get
    ident = _target_id(e.target)
    params |= {
        "actor": names.users.get(e.actor_id, str(e.actor_id)),
        "who": names.users[e.target_user] if e.target_user is not None else say("audit_someone"),
        "team": names.teams.get(e.chat_id, "") if e.chat_id is not None else say("audit_every_team"),
        "target": e.target,
    }
    if (qid := _question_id(e)) is not None:
        params["question"] = names.questions[qid]  # its reference (P3 · Q43); a question gone: the plain line
    key = e.action
    match e.action:
        case AuditAction.bank_upload:
            params |= {"file": e.target, "papers": ", ".join(f"{paper_of(slug, slug)} ({n})"
                                                               for slug, n in (d.get("papers") or {}).items())}
        case AuditAction.add_question:
            params |= {"paper": paper_of(str(d.get("paper", "")), str(d.get("paper", ""))),
                       "kind": say(f"kind_{d.get('kind')}")}
        case AuditAction.retire | AuditAction.restore | AuditAction.confirm_key:
            pass
        case AuditAction.paper_settings:
            params |= {"paper": paper_of(ident, e.target),
                       "changes": say("audit_setting_sep").join(
                           say("audit_setting_change", setting=_setting(k, say), value=_value(k, v, say))
                           for k, v in d.items())}
        case AuditAction.paper_compose:
            params["title"] = d.get("title") or paper_of(ident, e.target)
        case AuditAction.question_edit:
            params["field"] = _field(str(d.get("field", "")), say)
        case AuditAction.regrade:
            params |= {"attempt": ident, "new": say("audit_not_handed_in") if d.get("new") is None
                       else _number(d["new"]), "old": "—" if d.get("old") is None else _number(d["old"])}
            params |= dict.fromkeys(e.withheld, WITHHELD)
        case AuditAction.key_fix | AuditAction.dispute_upheld | AuditAction.dispute_dismissed:
            params["dispute"] = ident
        case AuditAction.review:
            params |= {"attempt": ident.partition("/")[0], "question": names.questions[names.answers[ident]]}
        case AuditAction.daily_on:
            params["at"] = e.target
        case AuditAction.digest:
            if d.get("enabled"):
                params["weekday"] = say(f"l_day_{d.get('weekday')}")
            else:
                key = "digest_off"
        case AuditAction.report | AuditAction.chart:
            params["what"] = (say(f"l_period_{e.target}") if e.target in PERIODS
                              else say("audit_what_invites") if e.target == "invites" else e.target)
        case AuditAction.key_read:
            params["paper"] = paper_of(ident, e.target)
        case AuditAction.team_verify | AuditAction.team_unverify:
            ids = d.get("papers")
            params["papers"] = say("audit_all_papers") if ids == "all" else ", ".join(
                paper_of(str(i), str(i)) for i in ids or [])
        case AuditAction.invite_create:
            params |= {"invite": ident, "paper": paper_of(str(d.get("paper")), str(d.get("paper"))),
                       "closes_at": local_time(float(d.get("closes_at", 0)), names, e.chat_id)}
            if d.get("username"):
                key = "invite_create_named"
        case AuditAction.invite_claim | AuditAction.invite_revoke | AuditAction.invite_resend:
            params["invite"] = ident
    return key, params


def _setting(name: str, say: Say) -> str:
    """A paper setting's name (bank/paper_settings.py), or the column's own for one added later."""
    try:
        return say(f"audit_setting_{name}")
    except KeyError:
        return name


_SWITCHES = frozenset({"exam_only", "shuffle_options", "invite_only", "signals"})
_CHOICES = {"review": ReviewOption, "grading_method": GradingMethod, "multi_policy": MultiPolicy}


def _value(name: str, value: Any, say: Say) -> str:
    """A paper setting's new value in words: on / off, the review option, the grading method and the
    multiple-choice policy said, "unlimited" attempts, no pass mark "off"; a number as it is."""
    if name in _SWITCHES:
        return say("audit_on" if value else "audit_off")
    if name in _CHOICES:
        try:
            return say(f"audit_{name}_{_CHOICES[name](value).name}")
        except ValueError:
            return _plain(value)
    if value is None:
        return say("audit_unlimited" if name == "attempts_allowed" else "audit_off")
    return _plain(value)


def action_words(action: AuditAction, say: Say) -> str:
    """An action's name in words ("answer scored")."""
    return say(f"audit_action_{action.value}")


def entry_action(e: Entry, say: Say) -> str:
    """The entry's action in words; one this release does not know (another release wrote it) as written."""
    try:
        return action_words(AuditAction(e.action), say)
    except ValueError:
        return e.action


def _field(name: str, say: Say) -> str:
    """A question's field as /editq names it: key, stem, explanation, option:N."""
    if name.startswith("option:") and name[7:].isdigit():
        return say("audit_field_option", letter=chr(65 + int(name[7:])))
    return say(f"audit_field_{name}") if name in ("key", "stem", "explanation") else name
