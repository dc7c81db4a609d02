"""The matrix's drivers of the chat's routes: commands, other updates, and every member of every
callback codec's enum, each done by every viewer as a person would (in their private chat and in
every group they are in), with data built by the real codecs: for their own attempt, quiz, invite or
session where they have one, and for other people's (the stranger's and the member's sittings of
each paper), as a person who kept or crafted a button could."""

from __future__ import annotations

from collections.abc import Iterable

from bot.authoring import callbacks as authoring_cb
from bot.daily import callbacks as daily_cb
from bot.exam import callbacks as exam_cb
from bot.invites import callbacks as invites_cb
from bot.leads import callbacks as leads_cb
from bot.people import forget
from proctor.daily import delivery as deliveries
from proctor.daily import steps as daily_steps
from proctor.exams import service as attempts
from proctor.exams import steps as exam_steps
from proctor.exams.states import AttemptMode
from proctor.invites import links as invite_links
from proctor.invites import store as invite_store
from proctor.teams import roster
from proctor.teams.authoring import Wizard
from sandbox.fakeapi.state import StoredMessage
from tests.visibility_drive import Matrix
from tests.visibility_world import (
    GROUPS,
    PEOPLE,
    SLUGS,
    VERIFIED,
    PaperKind,
    Who,
    groups_of,
)

A, S = exam_steps.Action, exam_cb.Screen
L = leads_cb.Action
E, N = authoring_cb.EditqAction, authoring_cb.NewPaperAction
D = authoring_cb.DraftAction


def everyone_everywhere(*texts: str):
    """A driver: every viewer sends each text (its {names} filled in: Matrix.names) in every group they
    are in and in their private chat."""

    async def drive(m: Matrix) -> None:
        names = m.names()

        async def act(who: Who) -> None:
            for text in texts:
                await m.say_everywhere(who, text.format(**names))

        await m.each(act)

    return drive


def everyone_private(*texts: str):
    """A driver: every viewer sends each text in their private chat."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            for text in texts:
                await m.say(who, text)

        await m.each(act)

    return drive


def per_paper(template: str) -> list[str]:
    """The template for each paper kind's paper ({slug})."""
    return [template.format(slug=SLUGS[k]) for k in PaperKind]


# ---- commands ------------------------------------------------------------------------------------

async def exam_command(m: Matrix) -> None:
    """/exam everywhere; privately /exam random and /exam <paper> (its rules card) for each paper."""
    await everyone_everywhere("/exam")(m)
    await everyone_private("/exam random", *per_paper("/exam {slug}"))(m)


async def practice_command(m: Matrix) -> None:
    """Everyone sends /practice everywhere (questions at their level), then privately /practice <paper> for
    each paper; each practice this starts is cancelled again (Cancel, then Yes), so the routes after it
    meet the world as it was."""
    for text, everywhere in [("/practice", True), *((text, False) for text in per_paper("/practice {slug}"))]:
        await (everyone_everywhere if everywhere else everyone_private)(text)(m)
        await m.settle()

        async def cancel(who: Who) -> None:
            running = await attempts.running_attempt(m.env.db, m.uid(who))
            if running is not None and running.id != m.running.get(who):
                await m.press(who, exam_cb.act(running.id, S.cancel_yes, running.current_pos))

        await m.each(cancel)
        await m.settle()


async def dispute_command(m: Matrix) -> None:
    """Everyone disputes each paper's fill-in by its id (the member and the stranger were asked it)."""
    await everyone_everywhere(*(f"/dispute {m.fill[k]} the key is wrong" for k in PaperKind))(m)


async def open_invite_links(m: Matrix) -> None:
    """The verified team's lead made one invite to the invite-only paper for each viewer; each opens
    theirs (the first opening claims it), and then the member's used link again."""
    lead = PEOPLE[Who.lead_verified].user_id
    links: dict[Who, str] = {}
    for who in Who:
        [(inv, token)] = await invite_store.create(m.env.db, paper_id=m.papers[PaperKind.invite_only], team=VERIFIED,
                                              lead=lead, now=m.env.clock.now(), window=48 * 3600)
        links[who] = invite_links.payload(token)
        m.invites[who] = inv.id

    async def act(who: Who) -> None:
        await m.say(who, f"/start {links[who]}")
        await m.say(who, f"/start {links[Who.member]}")
        for g in groups_of(who):
            await m.say(who, f"/start {links[who]}", chat=g.chat_id)

    await m.each(act)


async def live_command(m: Matrix) -> None:
    """Leads start a round of the practice paper in their groups (anyone may try), then `me`."""
    await everyone_everywhere("/live mx-practice 2q 10s", "/live me")(m)


async def team_command(m: Matrix) -> None:
    """/team everywhere; each lead asks the off-roster member onto their roster (/team add)."""
    await everyone_everywhere("/team")(m)
    for g in GROUPS:
        await m.say(g.lead, f"/team add @{PEOPLE[Who.off_roster].username}", chat=g.chat_id)


# ---- other updates -------------------------------------------------------------------------------

async def private_text(m: Matrix) -> None:
    """Everyone types in their private chat: the candidates answer their question, others chat."""
    await everyone_private("B")(m)


async def admins_text(m: Matrix) -> None:
    """Text a configured admin's open /editq or /newquestion waits for (anyone may type it)."""
    await everyone_private("A question stem written in the chat?")(m)


def quiz_messages(m: Matrix, chat: int) -> list[StoredMessage]:
    """The daily quiz's questions in the chat (this run's: the fake Telegram keeps no earlier ones)."""
    return [x for x in m.env.api.chat_view(chat) if x.from_bot and "📅" in (x.text or "") and x.buttons]


async def group_reply(m: Matrix) -> None:
    """Everyone replies to the latest daily quiz question in each of their groups."""
    async def act(who: Who) -> None:
        for g in groups_of(who):
            shown = quiz_messages(m, g.chat_id) or [x for x in m.env.api.chat_view(g.chat_id) if x.from_bot]
            if shown:
                await m.user(who).send("B", chat=g.chat_id, reply_to=shown[-1])

    await m.each(act)


QUESTION_FILE = """Matrix upload

一、单项选择题（每题1分，共1分）

1.Which fruit is yellow?（）A.banana B.cherry C.grape D.plum 答案：A
"""


async def upload(m: Matrix) -> None:
    """Everyone sends a question file, privately and in their groups (a configured admin gets its preview)."""
    async def act(who: Who) -> None:
        for chat in (None, *(g.chat_id for g in groups_of(who))):
            await m.user(who).send_document(QUESTION_FILE.encode(), "questions.txt", chat=chat)

    await m.each(act)
    admin = m.user(Who.admin)  # its preview is read in a child process: wait for it
    await admin.wait_message(lambda x: bool(x.buttons), timeout=20)


async def poll_answer(m: Matrix) -> None:
    """Everyone votes in every open poll of their groups (the live rounds' first questions)."""
    async def act(who: Who) -> None:
        for g in groups_of(who):
            for poll in [x for x in m.env.api.chat_view(g.chat_id) if x.poll is not None]:
                if not poll.poll["is_closed"]:
                    try:
                        await m.user(who).answer_poll(poll, [0])
                    except ValueError:  # closed meanwhile, or voted already
                        pass

    await m.each(act)


async def garbled(m: Matrix) -> None:
    """Everyone presses a button no feature knows."""
    await m.each(lambda who: m.press(who, "zz:not-a-button"))


async def unknown_command(m: Matrix) -> None:
    """Everyone sends a command no feature knows."""
    await everyone_everywhere("/nosuchcommand")(m)


# ---- the exam's buttons --------------------------------------------------------------------------

def attempt_targets(m: Matrix, who: Who) -> list[tuple[int, int]]:
    """(attempt, position) pairs `who` presses on: their own running attempt at its question, and every
    finished sitting of the stranger and the member."""
    out = []
    if who in m.running:
        out.append((m.running[who], m.position[who]))
    out += [(a, 0) for a in m.sat.values()]
    return out


def exam_button(action: exam_steps.Action | exam_cb.Screen, arg: str | None = None, *, others_only: bool = False,
                pages: int = 1):
    """Everyone presses the button on their own running attempt (at its question) and on every finished
    sitting (their own: its first `pages` pages, a review pages through the answers), in their private
    chat; on their own sittings in their groups too (the bot answers a press where it was made)."""
    async def drive(m: Matrix) -> None:
        await m.refresh_positions()

        async def act(who: Who) -> None:
            mine = {a for (w, _), a in m.sat.items() if w is who}
            for attempt, pos in attempt_targets(m, who):
                running = attempt == m.running.get(who)
                if others_only and running:
                    continue
                own = running or attempt in mine
                chats = (None, *(g.chat_id for g in groups_of(who))) if own else (None,)
                for chat in chats:  # another's sitting is refused whatever the page
                    for page in (pos,) if running else range(pages if own else 1):
                        await m.press(who, exam_cb.act(attempt, action, page, arg), chat=chat)

        await m.each(act)

    return drive


def exam_pick(start: bool, mode: AttemptMode):
    """Everyone presses the paper button of every paper (and the random mock's)."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            for paper in [*m.papers.values(), None]:
                await m.press(who, exam_cb.pick(paper, mode, start=start))

        await m.each(act)
        await m.settle()
        await m.note_sittings()

    return drive


async def cancel_own_exams(m: Matrix) -> None:
    """Viewers who started a sitting during the run cancel it: Cancel, then Yes."""
    await m.refresh_positions()

    async def act(who: Who) -> None:
        running = await attempts.running_attempt(m.env.db, m.uid(who))
        if running is not None and running.id != m.running.get(who):
            await m.press(who, exam_cb.act(running.id, S.cancel_yes, running.current_pos))
        for attempt, _ in attempt_targets(m, who):
            if attempt != m.running.get(who):  # the candidates' own sittings end at their deadline
                await m.press(who, exam_cb.act(attempt, S.cancel_yes, 0))

    await m.each(act)
    await m.settle()
    for who in Who:
        if who in m.sitting:
            m.ended.setdefault(who, set()).update(m.sitting.pop(who))


# ---- the daily quiz's buttons --------------------------------------------------------------------

def daily_button(action: daily_steps.Action):
    """Everyone presses on every daily question they were sent (privately or in their groups)."""
    arg = {daily_steps.Action.pick: "0", daily_steps.Action.toggle: "0", daily_steps.Action.submit: None}[action]

    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            for chat in (m.uid(who), *(g.chat_id for g in groups_of(who))):
                latest = await deliveries.latest_delivery(m.env.db, chat)
                if latest is None:
                    continue
                for item in await deliveries.items(m.env.db, latest.id):
                    shown = next((x for x in m.env.api.chat_view(chat) if x.message_id == item.message_id), None)
                    data = daily_cb.encode(action, latest.id, item.pos, arg)
                    await m.press(who, data, chat=chat, on=shown)

        await m.each(act)

    return drive


# ---- the leads' buttons --------------------------------------------------------------------------

SCOPES: tuple[int | None, ...] = (None, *(g.chat_id for g in GROUPS))  # every team at once (0), each team
LEADS = (Who.admin, Who.lead_verified, Who.lead_unverified, Who.lead_revoked)


def lead_button(build):
    """Everyone presses the buttons `build(m, who, scope)` names (a list of data), in their groups and in
    their private chat (a lead's buttons come from messages in either; what is done once is done in a
    group): a lead for every scope, anyone else for one (whichever they name, they lead none)."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            for chat in (*(g.chat_id for g in groups_of(who)), None):
                for scope in SCOPES if who in LEADS else SCOPES[-1:]:
                    for data in build(m, who, scope):
                        await m.press(who, data, chat=chat)

        await m.each(act)

    return drive


def _written(m: Matrix) -> list[tuple[int, int]]:
    """(attempt, position) of the stranger's written answers awaiting review, by paper."""
    return [(m.sat[Who.stranger, k], m.written_pos[Who.stranger, k]) for k in PaperKind]


score_button = lead_button(lambda m, who, scope: [
    leads_cb.encode(L.set_score, a, pos, 4, scope=scope) for a, pos in _written(m)])
skip_button = lead_button(lambda m, who, scope: [
    leads_cb.encode(L.skip, a, pos, 1, scope=scope) for a, pos in _written(m)])
retire_button = lead_button(lambda m, who, scope: [leads_cb.encode(L.retire, m.decoy_question, scope=scope)])
restore_button = lead_button(lambda m, who, scope: [leads_cb.encode(L.restore, m.decoy_question, scope=scope)])
exam_only_button = lead_button(lambda m, who, scope: [leads_cb.encode(L.exam_only, m.decoy, 1, scope=scope),
                                                      leads_cb.encode(L.exam_only, m.decoy, 0, scope=scope)])
dismiss_button = lead_button(lambda m, who, scope: [leads_cb.encode(L.dismiss, m.disputes[k][1], scope=scope)
                                                    for k in PaperKind])
uphold_button = lead_button(lambda m, who, scope: [leads_cb.encode(L.uphold, m.disputes[k][0], scope=scope)
                                                   for k in PaperKind])
confirm_key_button = lead_button(lambda m, who, scope: [leads_cb.encode(L.confirm_key, m.held[k], scope=scope)
                                                        for k in PaperKind])
join_button = lead_button(lambda m, who, scope: [] if scope is None else [
    leads_cb.encode(L.join_request, m.uid(Who.off_roster), 1, scope=scope)])


def forget_button(confirm: bool):
    """Everyone answers /forgetme's question: No on their own and on the stranger's; Yes only on
    someone else's (the stranger's, or the member's for the stranger), which must be refused."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            others = [Who.member if who is Who.stranger else Who.stranger]
            for whose in others if confirm else [who, *others]:
                await m.press(who, forget.encode(m.uid(whose), confirm))

        await m.each(act)

    return drive


async def consent_button(m: Matrix) -> None:
    """Everyone presses Join on an invitation onto each team's roster (the off-roster member was
    invited by /team add; anyone else's stamp is none)."""
    async def act(who: Who) -> None:
        for g in GROUPS:
            stamp = await roster.invitation(m.env.db, g.chat_id, m.uid(who)) or 1
            await m.press(who, leads_cb.encode(L.consent, g.chat_id, stamp, 1))

    await m.each(act)


# ---- the invites' buttons ------------------------------------------------------------------------

def invite_button(press: invites_cb.Press, numbers):
    """Everyone presses the button on each of `numbers(m, who)` (invites or attempts), privately and in
    their groups (someone who leads no team: in one)."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            chats = (None, *(g.chat_id for g in groups_of(who)))
            for chat in chats if who in LEADS else chats[:2]:
                for number in numbers(m, who):
                    await m.press(who, invites_cb.encode(press, number), chat=chat)

        await m.each(act)

    return drive


def all_invites(m: Matrix, who: Who) -> Iterable[int]:
    return sorted(set(m.invites.values()) | set(m.seed_invites))


def own_invite(m: Matrix, who: Who) -> Iterable[int]:
    return [m.invites[who]] if who in m.invites else []


def invited_attempts(m: Matrix, who: Who) -> Iterable[int]:
    return [m.sat[w, PaperKind.invite_only] for w in (Who.stranger, Who.member)]


async def start_invites(m: Matrix) -> None:
    """Everyone presses Start on the invite they claimed, and on the member's (claimed by someone else)."""
    await invite_button(invites_cb.Press.start, lambda m, who: [*own_invite(m, who), m.invites[Who.member]])(m)
    await m.settle()
    await m.note_sittings()


# ---- /editq and /newpaper ------------------------------------------------------------------------

def editq_button(action: authoring_cb.EditqAction, arg: str = ""):
    """Everyone presses the /editq button on each paper's fill-in (the configured admin, whose /editq is
    open on the exam-only one, acts on their session; anyone else's press acts on nothing)."""
    async def drive(m: Matrix) -> None:
        async def act(who: Who) -> None:
            for k in PaperKind:
                await m.press(who, authoring_cb.wizard(Wizard.editq, action, arg, question=m.fill[k]))

        await m.each(act)

    return drive


def newpaper_button(action: authoring_cb.NewPaperAction, arg: str = ""):
    """Everyone presses the /newpaper button (the configured admin's session takes it)."""
    async def drive(m: Matrix) -> None:
        await m.each(lambda who: m.press(who, authoring_cb.wizard(Wizard.newpaper, action, arg)))

    return drive


# ---- uploads and /newquestion --------------------------------------------------------------------

def upload_button(action: authoring_cb.UploadAction):
    """Everyone presses on the uploads the configured admin has pending (and a forged one)."""
    async def drive(m: Matrix) -> None:
        pending = await m.pending_uploads()

        async def act(who: Who) -> None:
            for upload_id in [*pending, 999]:
                await m.press(who, authoring_cb.upload(upload_id, action))

        await m.each(act)

    return drive


def draft_button(action: authoring_cb.DraftAction, arg: int | None = None):
    """Everyone presses the /newquestion step on the configured admin's draft (and a forged one)."""
    async def drive(m: Matrix) -> None:
        draft = await m.draft_id()

        async def act(who: Who) -> None:
            for draft_id in (draft, 999):
                await m.press(who, authoring_cb.draft(draft_id, action, arg))

        await m.each(act)

    return drive

