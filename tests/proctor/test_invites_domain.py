"""Invites in bank/: the state machine refuses illegal moves, tokens, window maths, guess limiting,
the start checked inside the attempt's transaction, and `proctor invite create|list` / `bank set`."""

import csv
import io
import re
from pathlib import Path

import pytest

from bank.paper_store import load_paper
from bot.cli import main
from proctor.exams import invited
from proctor.exams import service as attempts
from proctor.exams.service import InviteOnly
from proctor.invites import links, request, states, store
from proctor.invites.states import InviteStatus as S
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.curation import update_settings
from proctor.transitions import IllegalTransition
from tests.papers_fixture import save_paper, small_paper
from tests.reads import attempts_of, lead_lens, outbox_due

T0 = 1_800_000_000.0


def test_transitions_are_named_and_refuse_illegal_moves():
    assert states.claim(S.open) == S.claimed
    assert states.start(S.claimed) == S.started
    assert states.finish(S.started) == S.finished
    assert states.revoke(S.claimed) == S.revoked
    for move, status in [(states.claim, S.claimed), (states.start, S.open), (states.finish, S.claimed),
                         (states.revoke, S.finished), (states.revoke, S.started), (states.claim, S.revoked),
                         (states.resend, S.finished), (states.start, S.revoked)]:
        with pytest.raises(IllegalTransition):
            move(status)
    assert states.effective(S.open, closes_at=100, now=100) == S.expired
    assert states.effective(S.claimed, closes_at=100, now=99) == S.claimed
    assert states.effective(S.started, closes_at=100, now=500) == S.started  # a started attempt runs on


def test_tokens_have_128_bits_fit_the_start_parameter_and_are_stored_hashed():
    token = links.new_token()
    assert len(token) == 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    p = links.payload(token)
    assert len(p) <= 64 and links.token_of(p) == token
    assert links.token_of("inv_short") is None and links.token_of("ref_" + token) is None
    assert links.hash_token(token) != token and len(links.hash_token(token)) == 64


def test_requests_and_windows():
    r = request.parse_request(["inference", "optimisation", "48h", "+15m", "@cand", "notify"])
    assert r == request.Request("inference optimisation", 48 * 3600, 15, "cand", True)
    assert request.parse_request(["3"]).window == 72 * 3600
    assert request.parse_request(["hire", "2x"]).attempts == 2
    P = request.Problem
    for bad, problem, text in ((["hire", "0h"], P.duration, "0h"), (["hire", "+2x"], P.duration, "2x"),
                               ([], P.no_paper, ""), (["hire", "61d"], P.window, ""), (["hire", "+25h"], P.extra, ""),
                               (["hire", "21x"], P.attempts, "")):
        with pytest.raises(request.BadInvite) as refused:
            request.parse_request(bad)
        assert (refused.value.problem, refused.value.text) == (problem, text)


def test_guess_limiter_per_user_with_time_as_a_parameter():
    g = links.GuessLimiter(limit=2, per=60)
    g.missed(1, 0)
    g.missed(1, 10)
    assert not g.allowed(1, 20) and g.allowed(2, 20)
    assert g.allowed(1, 61)


async def test_start_is_checked_with_the_attempt_and_nothing_is_half_created(db_location):
    db = await Database.open(db_location)
    try:
        hire = await save_paper(db, small_paper("hire"), T0)
        await update_settings(db, "hire", actor=0, now=T0, invite_only=True)
        for uid in (5, 6):
            await ensure_user(db, uid, "U", None, T0)
        with pytest.raises(InviteOnly):
            await attempts.start_attempt(db, user_id=5, chat_id=5, paper_id=hire, mode="exam", now=T0,
                                         shuffle=False)
        [(inv, token)] = await store.create(db, paper_id=hire, team=None, lead=1, now=T0, window=3600,
                                              extra_min=20)
        with pytest.raises(states.Refused) as refused:  # not claimed by this user
            await attempts.start_attempt(db, user_id=5, chat_id=5, paper_id=hire, mode="exam", now=T0,
                                         shuffle=False, invite_id=inv.id)
        assert refused.value.reason == "foreign"
        await invited.open_link(db, token, user_id=5, username=None, now=T0)
        with pytest.raises(states.Refused) as refused:
            await invited.open_link(db, token, user_id=6, username=None, now=T0)
        assert refused.value.reason == "foreign"
        with pytest.raises(states.Refused):  # past the window
            await attempts.start_attempt(db, user_id=5, chat_id=5, paper_id=hire, mode="exam", now=T0 + 3600,
                                         shuffle=False, invite_id=inv.id)
        assert await attempts_of(db) == []
        a = await attempts.start_attempt(db, user_id=5, chat_id=5, paper_id=hire, mode="exam", now=T0 + 3599,
                                         shuffle=False, invite_id=inv.id)
        assert a.deadline == T0 + 3599 + 80 * 60
        await attempts.finish_attempt(db, a.id, T0 + 4000, "submitted")
        assert (await store.get(db, inv.id)).status == S.finished
        kinds = {m.kind: m.chat_id for m in await outbox_due(db, T0 + 4000)}
        assert kinds == {"result": 5, "invite_result": 1}
        with pytest.raises(states.Refused) as refused:
            await invited.open_link(db, token, user_id=5, username=None, now=T0 + 4000)
        assert refused.value.reason == "used"
        with pytest.raises(IllegalTransition):
            await store.revoke_invite(db, inv.id, actor=1, now=T0 + 4000)
        actions = [e.action for e in reversed(await audit.recent(db))]
        assert actions[-2:] == ["invite_create", "invite_claim"]
        # an intended username: anyone else is told it is someone else's, and claims nothing
        [(named, token2)] = await store.create(db, paper_id=hire, team=None, lead=1, now=T0, window=3600,
                                                 username="Cand")
        with pytest.raises(states.Refused):
            await invited.open_link(db, token2, user_id=6, username="other", now=T0)
        assert (await invited.open_link(db, token2, user_id=6, username="cand", now=T0)).candidate_id == 6
    finally:
        await db.close()


def test_cli_invites_in_bulk_and_paper_settings(capsys, tmp_path, monkeypatch, db_location):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    monkeypatch.delenv("PROCTOR_BOT_USERNAME", raising=False)
    db = db_location
    seed = sorted((Path(__file__).resolve().parents[2] / "bank" / "seeds").glob("000_*.txt"))[0]
    assert main(["--db", db, "import", str(seed)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "bank", "set", seed.stem, "--invite-only", "on", "--review", "sections"]) == 0
    out = capsys.readouterr().out
    assert "exam-only on" in out and "invite-only on, review sections" in out
    assert main(["--db", db, "invite", "create", "--paper", seed.stem, "--count", "3", "--window", "48h",
                 "--bot", "proctor_bot"]) == 0
    urls = capsys.readouterr().out.split()
    assert len(urls) == 3 and len(set(urls)) == 3
    assert all(re.fullmatch(r"https://t\.me/proctor_bot\?start=inv_[A-Za-z0-9_-]{22}", u) for u in urls)
    assert main(["--db", db, "invite", "create", "--paper", seed.stem, "--count", "2", "--csv",
                 "--bot", "proctor_bot", "--extra", "15m"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["invite", "link", "closes_at"] and len(rows) == 3
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", r[2]) for r in rows[1:])  # ISO 8601, offset
    assert main(["--db", db, "invite", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 5 and listed[0].startswith("#5 open")
    # one clear line for a bad request, nothing created
    assert main(["--db", db, "invite", "create", "--paper", "no-such", "--bot", "b"]) == 1
    assert "no single paper matches" in capsys.readouterr().err
    assert main(["--db", db, "invite", "create", "--paper", seed.stem, "--window", "5x", "--bot", "b"]) == 1
    assert "not a duration" in capsys.readouterr().err
    assert main(["--db", db, "invite", "create", "--paper", seed.stem]) == 1
    assert "--bot" in capsys.readouterr().err
    assert main(["--db", db, "invite", "list", "--csv"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 6


async def test_an_invited_attempt_is_only_on_the_inviting_teams_views(db_location):
    from proctor.daily.subscriptions import ensure_chat
    from proctor.teams import leaderboard as lb
    from proctor.teams import roster
    from proctor.teams.reports import team_rows

    db = await Database.open(db_location)
    try:
        hire = await save_paper(db, small_paper("hire"), T0)
        await ensure_user(db, 5, "Cid", None, T0)
        for chat, title in ((-1, "Alpha"), (-2, "Beta")):
            await ensure_chat(db, chat, "supergroup", title, T0)
        await roster.invite(db, -2, 5, lead=9, in_group=True, now=T0)  # Cid joins Beta's roster; Alpha invites him
        await roster.consent(db, -2, 5, await roster.invitation(db, -2, 5), in_group=True, now=T0)
        [(inv, token)] = await store.create(db, paper_id=hire, team=-1, lead=9, now=T0, window=3600)
        await invited.open_link(db, token, user_id=5, username=None, now=T0)
        a = await attempts.start_attempt(db, user_id=5, chat_id=5, paper_id=hire, mode="exam", now=T0,
                                         shuffle=False, invite_id=inv.id)
        await attempts.finish_attempt(db, a.id, T0 + 60, "submitted")
        assert [r.user_id for r in await lb.paper_board(db, hire, [-1], invited=True)] == [5]
        assert await lb.paper_board(db, hire, [-2], also=5, invited=True) == []
        period = lb.period_bounds("all", T0 + 100, lb.zone("UTC"))
        _, beta = await team_rows(db, await lead_lens(db, -2), period)
        assert [(r.user_id, r.exams, r.best) for r in beta] == [(5, 0, {})]
        assert await attempts.user_stats(db, 5) == []  # not on the candidate's /mystats either
    finally:
        await db.close()


async def test_invite_only_implies_exam_only_both_ways(db_location):
    from proctor.teams.curation import set_exam_only

    db = await Database.open(db_location)
    try:
        pid = await save_paper(db, small_paper("hire"), T0)
        s = await update_settings(db, "hire", actor=0, now=T0, invite_only=True)
        assert s.exam_only and s.invite_only and s.review_option.value == "score"
        s = await update_settings(db, "hire", actor=0, now=T0, exam_only=False)
        assert not s.exam_only and not s.invite_only and s.review_option.value == "full"
        await update_settings(db, "hire", actor=0, now=T0, invite_only=True)
        await set_exam_only(db, pid, False, lead=0, chat_id=None, now=T0)  # /examonly off
        assert not (await load_paper(db, pid)).settings.invite_only
    finally:
        await db.close()
