"""Issue 36's matrix: one read rule, held by every route.

Every route of the application (tests/visibility_routes.py reads them from the application itself:
commands, `/report` views, deep links, every member of every callback codec's enum, other updates,
outbox kinds, job kinds, desk routes, command-line subcommands) is classified below and driven for
every viewer as a person would (the drivers: tests/visibility_chat_routes.py, tests/visibility_desk_cli.py,
tests/visibility_outbox_jobs.py), on a copy of a seeded history (tests/visibility_seed.py). Everything
each viewer can then read is searched for the canaries of the three papers (tests/visibility_world.py):
a canary found where EXPECTED says no fails as route × viewer × paper kind × fact, and a few cells
where EXPECTED says yes must be found (a route's `shows`), so the matrix fails both ways.

EXPECTED is written from the issue's text, not from what the code does today:
- a configured admin sees everything;
- a verified team's lead sees their team's: every fact of the papers it is verified for, other
  people's answers only of their team's candidates (their roster's, their invites');
- an unverified team (self-made, or whose verification was revoked mid-run) never sees a hiring
  paper's keys, per-question results, sections, doubts, item statistics or other people's answers
  (its roster member's dispute of a hiring paper names its question: withheld too);
- who a team invited and how they did is for that team's leads (the issue: invited candidates on
  `/leaderboard paper`, leads only): the stranger's name, whom the verified team invited, is read by a
  configured admin, that team's lead and the stranger alone;
- a person sees a practice paper's keys, explanations, reference answers and sections (anyone may
  practise it: its review is `full`), of a hiring paper only the sections of a paper they sat or sit
  (its review is `score`), their own written answer and dispute, never a held question's doubt;
- a key sealed for X (X sits that paper) is never in anything X can read: their private chat, any
  group they are a known member of, their desk session; so a group hears no key of a paper one of
  its members sits, and a hiring paper's keys are never posted in any group.
A viewer who starts or ends a sitting during the run is held to the same rule from then on (`expected`).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot.app import build_application
from bot.invites.callbacks import Press
from bot.scheduling import JobKind
from proctor import hiring
from proctor import outbox as box
from proctor.daily import steps as daily_steps
from proctor.exams.states import AttemptMode
from tests import visibility_chat_routes as chat
from tests import visibility_desk_cli as desk
from tests import visibility_outbox_jobs as later
from tests.bot.test_daily_support import fast
from tests.visibility_drive import OPERATOR, Matrix, sightings
from tests.visibility_routes import bot_routes, button, cli_routes, desk_routes, forget_press, pick
from tests.visibility_seed import make_world, new_env, seeded
from tests.visibility_world import PEOPLE, REVOKED, Canary, PaperKind, Who

C, K = Canary, PaperKind
A, S, L, E, N, D = chat.A, chat.S, chat.L, chat.E, chat.N, chat.D
ALL = frozenset(Canary)
NONE: frozenset[Canary] = frozenset()
PRACTICE = frozenset({C.key, C.explanation, C.reference, C.section})  # what anyone may see of a practice paper
SEALED = frozenset({C.key, C.explanation, C.reference, C.doubt})  # what a seal withholds

EXPECTED: dict[Who | str, dict[PaperKind, frozenset[Canary]]] = {
    OPERATOR: {K.practice: ALL, K.exam_only: ALL, K.invite_only: ALL},
    Who.admin: {K.practice: ALL, K.exam_only: ALL, K.invite_only: ALL},
    # the stranger is on no roster and sat the exam-only paper through /exam: not the team's; the
    # invite-only sitting was the verified team's invite
    Who.lead_verified: {K.practice: ALL - {C.others_answers}, K.exam_only: ALL - {C.others_answers},
                        K.invite_only: ALL},
    Who.lead_unverified: {K.practice: ALL - {C.others_answers}, K.exam_only: NONE, K.invite_only: NONE},
    Who.lead_revoked: {K.practice: ALL - {C.others_answers}, K.exam_only: NONE, K.invite_only: NONE},
    Who.member: {K.practice: PRACTICE | {C.dispute}, K.exam_only: frozenset({C.section, C.dispute}),
                 K.invite_only: frozenset({C.section, C.dispute})},
    Who.off_roster: {K.practice: PRACTICE, K.exam_only: NONE, K.invite_only: NONE},
    Who.stranger: {K.practice: PRACTICE | {C.others_answers}, K.exam_only: frozenset({C.section, C.others_answers}),
                   K.invite_only: frozenset({C.section, C.others_answers, C.invited})},
    Who.candidate_practice: {K.practice: frozenset({C.section}), K.exam_only: NONE, K.invite_only: NONE},
    Who.candidate_exam: {K.practice: PRACTICE, K.exam_only: frozenset({C.section}), K.invite_only: NONE},
    Who.candidate_invite: {K.practice: PRACTICE, K.exam_only: NONE, K.invite_only: frozenset({C.section})},
}
# a person's own sitting once it ended: the practice paper's review is `full`, a hiring paper's `score`
SAT: dict[PaperKind, frozenset[Canary]] = {K.practice: PRACTICE, K.exam_only: frozenset({C.section}),
                                          K.invite_only: frozenset({C.section})}


def expected(m: Matrix, reader: Who | str, kind: PaperKind) -> frozenset[Canary]:
    """EXPECTED, for a viewer who began a sitting during the run (its sections shown, its keys sealed)
    or ended one (what their review shows of it)."""
    allowed = EXPECTED[reader][kind]
    if isinstance(reader, Who):
        if kind in m.ended.get(reader, set()):
            allowed = allowed | SAT[kind]
        if kind in m.sitting.get(reader, set()):
            allowed = (allowed | {C.section}) - SEALED
    return allowed


@dataclass(frozen=True)
class Route:
    drive: Callable[[Matrix], Awaitable[None]] | None
    shows: tuple[tuple[Who | str, PaperKind, Canary], ...] = ()  # must be found (reader, paper, fact)
    why_not: str = ""  # a route not driven: why (it starts or replaces the program itself)


R = Route
every = chat.everyone_everywhere

# Every route, in the order the matrix takes them: reads first, then what changes the world a little
# (each change aimed at the decoy paper or a group nobody is in), then what changes who sits what.
ROUTES: dict[str, Route] = {
    # ---- commands --------------------------------------------------------------------------------
    "/start": R(every("/start")),
    "/help": R(every("/help")),
    "/lang": R(every("/lang en")),
    "/script": R(every("/script orig")),
    "/papers": R(every("/papers")),
    "/exam": R(chat.exam_command),
    "/practice": R(chat.practice_command),
    "/resume": R(every("/resume")),
    "/cancel": R(every("/cancel")),
    "/mystats": R(every("/mystats")),
    "/daily": R(every("/daily status", "/daily now")),
    "/leaderboard": R(every("/leaderboard", "/leaderboard all", *chat.per_paper("/leaderboard paper {slug}"),
                            "/leaderboard live", "/leaderboard rating", "/leaderboard rating the")),
    "/forgetme": R(every("/forgetme")),
    "/review": R(every("/review"), shows=((Who.lead_verified, K.invite_only, C.others_answers),)),
    "/report": R(every("/report", "/report all")),
    "/report invites": R(every("/report invites"), shows=((Who.lead_verified, K.invite_only, C.invited),)),
    "/report live": R(every("/report live")),
    "/chart": R(every("/chart all")),
    "/digest": R(every("/digest on", "/digest now")),
    "/bankstats": R(every("/bankstats", *chat.per_paper("/bankstats {slug}")),
                    shows=((Who.admin, K.exam_only, C.doubt), (Who.admin, K.invite_only, C.dispute))),
    "/team": R(chat.team_command),
    "/join": R(every("/join")),
    "/desk": R(every("/desk", "/desk link")),
    "/invites": R(every("/invites")),
    # ---- other updates ---------------------------------------------------------------------------
    "update bot.core.unknown_command": R(chat.unknown_command),
    "update bot.core.garbled_button": R(chat.garbled),
    "update bot.private_text.private_text": R(chat.private_text),
    # ---- the exam's buttons ----------------------------------------------------------------------
    button("^x:", A.answer): R(chat.exam_button(A.answer, "0")),
    button("^x:", A.toggle): R(chat.exam_button(A.toggle, "0")),
    button("^x:", A.submit): R(chat.exam_button(A.submit)),
    button("^x:", A.next): R(chat.exam_button(A.next)),
    button("^x:", A.clear): R(chat.exam_button(A.clear)),
    button("^x:", A.back): R(chat.exam_button(A.back)),
    button("^x:", A.flag): R(chat.exam_button(A.flag)),
    button("^x:", A.finish_ask): R(chat.exam_button(A.finish_ask)),
    button("^x:", A.finish_no): R(chat.exam_button(A.finish_no)),
    button("^x:", A.finish_yes): R(chat.exam_button(A.finish_yes, others_only=True)),
    button("^x:", S.review): R(chat.exam_button(S.review, pages=5)),
    button("^x:", S.review_all): R(chat.exam_button(S.review_all, pages=5),
                                   shows=((Who.stranger, K.practice, C.key), (Who.stranger, K.practice, C.reference))),
    button("^x:", S.grid): R(chat.exam_button(S.grid)),
    button("^x:", S.jump): R(chat.exam_button(S.jump)),
    button("^x:", S.cancel_no): R(chat.exam_button(S.cancel_no)),
    pick(False, AttemptMode.exam): R(chat.exam_pick(False, AttemptMode.exam)),
    pick(False, AttemptMode.practice): R(chat.exam_pick(False, AttemptMode.practice)),
    # ---- the leads' and the invites' buttons that read ------------------------------------------
    button("^l:", L.skip): R(chat.skip_button),
    forget_press(False): R(chat.forget_button(False)),
    forget_press(True): R(chat.forget_button(True)),
    button("^i:", Press.review): R(chat.invite_button(Press.review, chat.invited_attempts),
                                   shows=((Who.lead_verified, K.invite_only, C.others_answers),)),
    button("^i:", Press.resend): R(chat.invite_button(Press.resend, chat.all_invites)),
    # ---- outbox kinds: every message of the kind the history queued, queued and delivered again --
    "outbox result": R(later.redeliver(box.Kind.result)),
    "outbox result_in_place": R(later.redeliver(box.Kind.result_in_place)),
    "outbox invite_result": R(later.redeliver(box.Kind.lead_card),
                              shows=((Who.lead_verified, K.invite_only, C.invited),)),
    "outbox invite_note": R(later.redeliver(box.Kind.team_note)),
    "outbox review": R(later.redeliver(box.Kind.review_notice)),
    "outbox key_fix": R(later.redeliver(box.Kind.key_fix_notice)),
    # ---- the desk ----------------------------------------------------------------------------------
    "desk POST /auth": R(desk.desk_sign_in),
    **{f"desk GET {path}": R(desk.desk_get(path)) for path in (
        "/", "/link", "/team", "/team.csv", "/candidate", "/candidate.csv", "/review", "/items.csv",
        "/disputes.csv", "/hiring", "/hiring.csv", "/audit", "/audit.csv")},
    "desk GET /items": R(desk.desk_get("/items"), shows=(
        (Who.admin, K.exam_only, C.doubt), (Who.lead_verified, K.invite_only, C.doubt),
        (Who.lead_unverified, K.practice, C.doubt))),
    # ---- the command line (the operator: every fact) ---------------------------------------------
    "cli proctor status": R(desk.cli(["status"])),
    "cli proctor bank list": R(desk.cli(["bank", "list"])),
    "cli proctor bank stats": R(desk.cli(["bank", "stats"])),
    "cli proctor bank show": R(desk.cli(["bank", "show", "{fill_exam}"], ["bank", "show", "{held_invite}"]),
                               shows=((OPERATOR, K.exam_only, C.key), (OPERATOR, K.invite_only, C.doubt))),
    "cli proctor bank lint": R(desk.cli(["bank", "lint"])),
    "cli proctor bank export": R(desk.cli(["bank", "export"]), shows=((OPERATOR, K.invite_only, C.reference),)),
    "cli proctor bank template": R(desk.cli(["bank", "template", "-o", "{folder}/template.xlsx"])),
    "cli proctor invite list": R(desk.cli(["invite", "list"])),
    "cli proctor team list": R(desk.cli(["team", "list"])),
    "cli proctor import": R(desk.cli(["import", "--dry-run", "{folder}/questions.txt"])),
    "cli proctor bank add": R(desk.cli(["bank", "add", "--kind", "single", "--stem", "Which is a decoy too?",
                                        "--option", "this", "--option", "that", "--key", "A", "--paper", "{decoy}"])),
    "cli proctor bank confirm": R(desk.cli(["bank", "confirm", "{decoy_question}"])),
    "cli proctor bank set": R(desk.cli(["bank", "set", "{decoy}", "--time-limit", "30"])),
    "cli proctor bank edit": R(desk.cli(["bank", "edit", "{decoy_question}", "--stem", "Which is the decoy?"])),
    "cli proctor invite create": R(desk.cli(["invite", "create", "--paper", "{slug_invite}", "--bot", "proctor_bot",
                                             "--lead", "{lead}", "--team", str(chat.GROUPS[0].chat_id)])),
    "cli proctor team verify": R(desk.cli(["team", "verify", str(desk.UNUSED_TEAM)])),
    "cli proctor team unverify": R(desk.cli(["team", "unverify", str(desk.UNUSED_TEAM)])),
    "cli proctor paper compose": R(desk.cli(["paper", "compose", "--title", "Composed", "--part", "single 1",
                                             "--dry-run"])),
    "cli proctor backup": R(desk.cli(["backup", "{folder}/backup.db"])),
    "cli proctor db copy": R(desk.cli(["db", "copy", "{folder}/proctor.db", "{folder}/copy.db"])),
    "cli proctor ratings recompute": R(desk.cli(["ratings", "recompute"])),
    "cli proctor ratings replay": R(desk.cli(["ratings", "replay", "{folder}/log.csv", "--out", "{folder}/ratings.csv"])),
    "cli proctor run": R(None, why_not="runs the bot itself: its routes are this table's other rows"),
    "cli proctor sandbox": R(None, why_not="runs the bot with a fake Bot API: its routes are this table's other rows"),
    "cli proctor restore": R(None, why_not="replaces the database the running bot holds (stop the bot first)"),
    # ---- job kinds (the daily quizzes close at their time: the clock moves a day on) -------------
    f"job {JobKind.daily_push.value}": R(later.per_group(JobKind.daily_push)),
    f"job {JobKind.daily_close.value}": R(later.daily_close),
    f"job {JobKind.daily_catchup.value}": R(later.per_group(JobKind.daily_catchup, hours=1)),
    f"job {JobKind.daily_retry.value}": R(later.per_group(JobKind.daily_retry)),
    f"job {JobKind.daily_resume.value}": R(later.daily_resume),
    f"job {JobKind.daily_release.value}": R(later.daily_release),
    f"job {JobKind.digest.value}": R(later.digest),
    f"job {JobKind.outbox.value}": R(later.outbox_job),
    f"job {JobKind.set_commands.value}": R(later.set_commands),
    f"job {JobKind.exam_timer.value}": R(later.exam_timer),
    f"job {JobKind.deadline.value}": R(later.deadline),
    # ---- the daily quiz's buttons and replies (on the quizzes the jobs and /daily now sent) -----
    button("^d:", daily_steps.Action.pick): R(chat.daily_button(daily_steps.Action.pick)),
    button("^d:", daily_steps.Action.toggle): R(chat.daily_button(daily_steps.Action.toggle)),
    button("^d:", daily_steps.Action.submit): R(chat.daily_button(daily_steps.Action.submit)),
    "update bot.daily.answering.group_reply": R(chat.group_reply),
    # ---- what changes the world a little ---------------------------------------------------------
    "/dispute": R(chat.dispute_command),
    "/rating": R(every("/rating", "/rating public", "/leaderboard rating", "/mystats")),
    "/retire": R(every("/retire {decoy_question}")),
    "/restore": R(every("/restore {decoy_question}")),
    "/examonly": R(every("/examonly mx-decoy on", "/examonly mx-decoy off")),
    "/invite": R(every(*chat.per_paper("/invite {slug} 48h"))),
    "/start inv_…": R(chat.open_invite_links),
    button("^i:", Press.revoke): R(chat.invite_button(Press.revoke, chat.all_invites)),
    button("^l:", L.consent): R(chat.consent_button),
    button("^l:", L.join_request): R(chat.join_button),
    button("^l:", L.retire): R(chat.retire_button),
    button("^l:", L.restore): R(chat.restore_button),
    button("^l:", L.exam_only): R(chat.exam_only_button),
    button("^l:", L.set_score): R(chat.score_button),
    "/live": R(chat.live_command),
    f"job {JobKind.live.value}": R(later.live(to_end=False), shows=((Who.lead_unverified, K.practice, C.explanation),)),
    "update bot.live.answering.poll_answer": R(chat.poll_answer),
    f"job {JobKind.live.value} (the rounds to their end)": R(later.live(to_end=True)),
    "update bot.authoring.upload.received": R(chat.upload),
    button("^a:", chat.authoring_cb.UploadAction.import_): R(chat.upload_button(chat.authoring_cb.UploadAction.import_)),
    button("^a:", chat.authoring_cb.UploadAction.cancel): R(chat.upload_button(chat.authoring_cb.UploadAction.cancel)),
    "/newquestion": R(every("/newquestion")),
    button("^a:", D.kind): R(chat.draft_button(D.kind, 0)),
    "update bot.authoring.newquestion.typed (admins only)": R(chat.admins_text),
    button("^a:", D.options_done): R(chat.draft_button(D.options_done)),
    button("^a:", D.pick): R(chat.draft_button(D.pick, 0)),
    button("^a:", D.key_done): R(chat.draft_button(D.key_done)),
    button("^a:", D.tf): R(chat.draft_button(D.tf, 1)),
    button("^a:", D.skip): R(chat.draft_button(D.skip)),
    button("^a:", D.points): R(chat.draft_button(D.points, 1)),
    button("^a:", D.section): R(chat.draft_button(D.section, 0)),
    button("^a:", D.new_paper): R(chat.draft_button(D.new_paper)),
    button("^a:", D.paper): R(chat.draft_button(D.paper, 1)),
    button("^a:", D.back): R(chat.draft_button(D.back)),
    button("^a:", D.save): R(chat.draft_button(D.save)),
    button("^a:", D.cancel): R(chat.draft_button(D.cancel)),
    "/newpaper": R(every("/newpaper")),
    button("^a:", N.minutes): R(chat.newpaper_button(N.minutes, "30")),
    button("^a:", N.exam_only): R(chat.newpaper_button(N.exam_only)),
    button("^a:", N.per_candidate): R(chat.newpaper_button(N.per_candidate)),
    button("^a:", N.back): R(chat.newpaper_button(N.back)),
    button("^a:", N.create): R(chat.newpaper_button(N.create)),
    button("^a:", N.cancel): R(chat.newpaper_button(N.cancel)),
    "desk POST /lang": R(desk.desk_post("/lang", lambda m, who: [{"lang": "en"}])),
    "desk POST /link": R(desk.desk_post("/link", lambda m, who: [{"token": "not-a-link"}])),
    "desk POST /review": R(desk.desk_post("/review", desk.review_forms)),
    "desk POST /items": R(desk.desk_post("/items", desk.item_forms)),
    "desk POST /hiring": R(desk.desk_post("/hiring", desk.hiring_forms)),
    button("^l:", L.dismiss): R(chat.dismiss_button),
    button("^l:", L.uphold): R(chat.uphold_button),
    "/keyfix": R(every(*(f"/keyfix {{dispute_{k}}} KEYQ{t}FIXED" for k, t in (
        ("practice", "PRAC"), ("exam", "EXAM"), ("invite", "INVT"))))),
    button("^l:", L.confirm_key): R(chat.confirm_key_button),
    # ---- what changes who sits what: the matrix's end --------------------------------------------
    pick(True, AttemptMode.practice): R(chat.exam_pick(True, AttemptMode.practice)),
    pick(True, AttemptMode.exam): R(chat.exam_pick(True, AttemptMode.exam)),
    button("^i:", Press.start): R(chat.start_invites),
    button("^x:", S.cancel_yes): R(chat.cancel_own_exams),
    f"job {JobKind.deadline.value} (deadlines passed)": R(later.deadlines_passed),
    # ---- /editq (a question on a running exam is not edited: now none runs) ----------------------
    "/editq": R(every(*(f"/editq {{fill_{k}}}" for k in ("practice", "invite", "exam"))),
                shows=((Who.admin, K.exam_only, C.key), (Who.admin, K.exam_only, C.explanation))),
    button("^a:", E.field): R(chat.editq_button(E.field, "x")),
    "update bot.authoring.wizard_text.on_text (admins only)": R(chat.admins_text),
    button("^a:", E.done): R(chat.editq_button(E.done)),
    button("^a:", E.back): R(chat.editq_button(E.back)),
    button("^a:", E.key): R(chat.editq_button(E.key, "t")),
    button("^a:", E.tick): R(chat.editq_button(E.tick, "0")),
    button("^a:", E.save): R(chat.editq_button(E.save, "n")),
    button("^a:", E.cancel): R(chat.editq_button(E.cancel)),
    "desk POST /logout": R(desk.desk_logout),
}
EXTRA = {f"job {JobKind.deadline.value} (deadlines passed)", f"job {JobKind.live.value} (the rounds to their end)"}
# (a route driven a second time, later: not a route of its own)


def test_every_route_is_classified(tmp_path):
    """The routes the application has are exactly the routes this matrix classifies: a route added
    without a row here (or a row whose route is gone) fails, naming it."""
    env = new_env(tmp_path)
    app = build_application(env.settings())
    found = bot_routes(app) | desk_routes() | cli_routes()
    classified = set(ROUTES) - EXTRA
    problems = [f"unclassified route: {r}" for r in sorted(found - classified)]
    problems += [f"classified route no longer exists: {r}" for r in sorted(classified - found)]
    assert not problems, "\n".join(problems)


@pytest.fixture
async def matrix(tmp_path):
    await seeded(tmp_path)
    env = new_env(tmp_path, after_seed=True)
    await env.start()
    fast(env)
    make_world(env)
    m = Matrix(env)
    await m.prepare()
    yield m
    await m.close()
    await env.close()


async def test_every_route_shows_every_viewer_only_what_the_rule_allows(matrix):
    m = matrix
    # the revoked team's lead reads with a desk session and in the chat while verified; then a
    # configured admin undoes the verification: from their next request on they are an unverified team
    mark = m.mark()
    await desk.desk_get("/items")(m)
    await m.say(Who.lead_revoked, "/bankstats", chat=REVOKED)
    await m.settle()
    for where, readings in (("desk", m.read), ("chat", m.readings_since(mark))):
        seen = sightings(f"while verified ({where})", readings)
        assert any(s.reader == Who.lead_revoked and s.kind == K.exam_only and s.canary == C.doubt for s in seen), where
    await hiring.unverify(m.env.db, REVOKED, None, actor=PEOPLE[Who.admin].user_id, now=m.env.clock.now())
    broken: dict[tuple[str, str, PaperKind, Canary], list[str]] = {}  # a cell: where its canary was read
    missing: list[str] = []
    for name, route in ROUTES.items():
        if route.drive is None:
            continue
        m.read.clear()
        mark = m.mark()
        await route.drive(m)
        await m.settle()
        seen = sightings(name, [*m.readings_since(mark), *m.read])
        if name in os.environ.get("MATRIX_SHOW", "").split(";"):  # a debugging aid: what the route showed
            print(f"== {name}", *(f"{r.reader} | {r.where} | {r.text}" for r in [*m.readings_since(mark), *m.read]),
                  sep="\n")
        for s in seen:
            if s.canary not in expected(m, s.reader, s.kind):
                broken.setdefault((name, str(s.reader), s.kind, s.canary), []).append(s.where)
        for reader, kind, canary in route.shows:
            if not any(s.reader == reader and s.kind == kind and s.canary == canary for s in seen):
                missing.append(f"{name} × {reader} × {kind} {canary}: not shown, though the rule allows it")
    cells = [f"{name} × {reader} × {kind} {canary} (in {where[0]}" + (f", and {len(where) - 1} more)" if len(where) > 1
                                                                         else ")")
             for (name, reader, kind, canary), where in broken.items()]
    report = cells + missing
    assert not report, f"{len(cells)} cells break the rule, {len(missing)} show less than it allows:\n" + "\n".join(report)
