"""A team that answers papers through the paths production takes, for the tests of who sees which
rating, the boards, questions' measures and hiring estimates (docs/ratings.md)."""

from __future__ import annotations

from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from proctor.chats import ensure_chat
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.people.users import ensure_user
from proctor.teams import roster
from tests.answering import answer
from tests.papers_fixture import save_paper

T0 = 1_800_000_000.0
TEAM, LEAD = -100, 99
LABELS = ("易", "中", "难")


def sums(slug: str, n: int, *, exam_only: bool = False, labels: tuple[str, ...] = LABELS,
         topic: str = "") -> Paper:
    """`n` fill-ins (`i + i = ______`), labelled easy, medium and hard in turn: typed answers, no guessing."""
    questions = [Question(number=i + 1, kind=Kind.fill, stem=f"{slug} {i} + {i} = ______", answer=[[str(2 * i)]],
                          points=1, difficulty=labels[i % len(labels)], topic=topic) for i in range(n)]
    return Paper(slug=slug, title=f"Sums {slug}", settings=PaperSettings(exam_only=exam_only),
                 sections=[Section(kind=Kind.fill, title="填空题", questions=questions)])


async def people(db, *names: tuple[int, str]) -> None:
    for uid, name in names:
        await ensure_user(db, uid, name, None, T0)


async def join(db, user_id: int, now: float, team: int = TEAM) -> None:
    """The user joins the team's roster with consent: a lead invites, they agree."""
    await ensure_chat(db, team, "supergroup", "Team", now)
    await roster.invite(db, team, user_id, lead=LEAD, in_group=True, now=now)
    assert await roster.consent(db, team, user_id, await roster.invitation(db, team, user_id), in_group=True,
                                now=now) is roster.Outcome.joined


async def sit(db, user_id: int, paper_id: int, right: set[int] | None, now: float, *,
              mode: AttemptMode = AttemptMode.exam, invite_id: int | None = None) -> int:
    """The user sits the paper (a fill-in paper of `sums`): right at the positions in `right` (None:
    every one), wrong elsewhere, and hands it in at `now + 100`; the attempt's id."""
    a = await attempts.start_attempt(db, user_id=user_id, chat_id=user_id, paper_id=paper_id, mode=mode, now=now,
                                     shuffle=False, invite_id=invite_id)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    for item in sheet.items:
        ok = right is None or item.pos in right
        await answer(db, a.id, item.pos, str(2 * (sheet.question(item).number - 1)) if ok else "x", now + 1 + item.pos)
    await attempts.finish_attempt(db, a.id, now + 100, FinishReason.submitted)
    return a.id


async def paper(db, p: Paper) -> int:
    return await save_paper(db, p, T0)
