"""`proctor team verify|unverify|list`: which teams a configured admin trusts with which hiring papers."""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC

from bank.errors import BankError, NotFound
from bank.paper_list import AmbiguousPaper, PaperSummary, find_paper
from bot.i18n import tn
from proctor import hiring
from proctor.local_time import moment
from proctor.storage.db import Database


def add_team_commands(subparsers: argparse._SubParsersAction) -> None:
    team = subparsers.add_parser("team", help="teams verified for hiring papers (exam-only or invite-only)")
    sub = team.add_subparsers(dest="team_command", required=True)
    for name, what in (("verify", "let a team invite to hiring papers and see their answers (audited)"),
                       ("unverify", "undo a verification (audited)")):
        cmd = sub.add_parser(name, help=what)
        cmd.add_argument("chat", type=int, metavar="CHAT", help="the team group's chat id (negative)")
        cmd.add_argument("--papers", metavar="P,…", help="codes (P4), slugs or titles, comma-separated (default: every hiring paper)")
        cmd.add_argument("--admin", type=int, default=0, metavar="ID",
                         help="the configured admin's Telegram id, for the audit log (default 0: the command line)")
    sub.add_parser("list", help="every verification, and teams holding invites to papers they are not verified for")


def team_commands() -> dict:
    return {"verify": _verify, "unverify": _unverify, "list": _list}


async def _papers(db: Database, raw: str | None) -> list[PaperSummary] | None:
    if raw is None:
        return None
    keys = [k.strip() for k in raw.split(",") if k.strip()]
    if not keys:
        raise BankError("--papers: name at least one paper")
    papers = []
    for key in keys:
        try:
            papers.append(await find_paper(db, key))
        except AmbiguousPaper:
            raise
        except NotFound:
            raise BankError(f"no paper {key!r}; `proctor bank list` shows each paper's code") from None
    return papers


def _ids(papers: list[PaperSummary] | None) -> list[int] | None:
    return None if papers is None else [p.id for p in papers]


def _what(papers: str | None) -> str:
    return f"papers {papers}" if papers else "every hiring paper"


async def _verify(db: Database, args) -> int:
    papers = await _papers(db, args.papers)
    for p in papers or []:
        if not (p.exam_only or p.invite_only):
            print(f"warning: {p.code} {p.title} is not a hiring paper (neither exam-only nor invite-only), so "
                  f"a verification changes nothing for it until it is one (`proctor bank set {p.code} "
                  f"--exam-only on`)", file=sys.stderr)
    n = await hiring.verify(db, args.chat, _ids(papers), actor=args.admin, now=time.time())
    print(f"team {args.chat}: verified for {_what(args.papers)}" if n else f"team {args.chat}: already verified")
    return 0


async def _unverify(db: Database, args) -> int:
    n = await hiring.unverify(db, args.chat, _ids(await _papers(db, args.papers)), actor=args.admin, now=time.time())
    if n:
        print(f"team {args.chat}: {tn('n_verification', n, 'en')} undone")
    elif any(v.paper_id is None for v in await hiring.listing(db, args.chat)):
        print(f"team {args.chat}: verified for every hiring paper; undo that with `proctor team unverify {args.chat}`")
    else:
        print(f"team {args.chat}: nothing to undo")
    return 0


def _when(ts: float) -> str:
    """A moment on the command line (which has no reader's zone: UTC, named)."""
    return moment(ts, UTC)


async def _list(db: Database, args) -> int:
    rows = await hiring.listing(db)
    for v in rows:
        print(f"{v.chat_id} {v.team or '(not seen yet)'} · {v.label or 'every hiring paper'} · "
              f"by {v.verified_by or 'the command line'} on {_when(v.verified_at)}")
    if not rows:
        print("no team is verified for hiring papers")
    for u in await hiring.unverified_invites(db):
        print(f"not verified: {u.chat_id} {u.team or '(not seen yet)'} holds {tn('n_invite', u.invites, 'en')} "
              f"to {u.label}"
              f" (their sections and answers stay with the admins)")
    return 0
