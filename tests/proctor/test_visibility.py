"""The read rule (proctor/exams/visibility.py): its table written out by hand, read from a real database
for every kind of paper and review option; the seal per person and per group; a team that loses its
verification reads nothing at its next read; a Lens filters SQL by the same decision; key reads audited."""

from __future__ import annotations

import itertools

import pytest

from bank.kinds import ReviewOption
from bank.store import engine_of, ids_in
from bot.i18n import t
from desk.audit_words import Names, sentence
from proctor import hiring
from proctor.audit import AuditAction
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.exams.visibility import (
    AUDIENCE,
    OPERATOR,
    Fact,
    Role,
    Viewer,
    Visibility,
    facts_for,
    lens,
    lens_in,
    record_key_read_in,
    visibility,
)
from proctor.teams import audit
from tests.proctor.test_leads_data import Crafted


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
ADMIN, LEAD, ANN, BOB, CAROL = 1, 2, 3, 4, 5
ALPHA = -100

# the letters of the nine facts, as the table below writes them
LETTER = {"Q": Fact.question, "K": Fact.key, "R": Fact.reference, "E": Fact.explanation, "S": Fact.section,
          "P": Fact.result, "D": Fact.doubt, "I": Fact.item_stats, "O": Fact.others_answers}
REVIEWS = ["unset", "score", "sections", "full", "none"]  # unset: the paper sets no review option

# role      paper        verified  review    facts       audited (a read of the keys is written down)
EXPECTED = """
operator  practice     any       any       QKRESPDIO   no
operator  exam-only    any       any       QKRESPDIO   no
operator  invite-only  any       any       QKRESPDIO   no
admin     practice     any       any       QKRESPDIO   no
admin     exam-only    any       any       QKRESPDIO   yes
admin     invite-only  any       any       QKRESPDIO   yes
lead      practice     any       any       QKRESPDIO   no
lead      exam-only    yes       any       QKRESPDIO   yes
lead      exam-only    no        any       -           no
lead      invite-only  yes       any       QKRESPDIO   yes
lead      invite-only  no        any       -           no
person    practice     any       unset     QKRESP      no
person    practice     any       full      QKRESP      no
person    practice     any       sections  QS          no
person    practice     any       score     Q           no
person    practice     any       none      Q           no
person    exam-only    any       unset     Q           no
person    exam-only    any       full      QKRESP      no
person    exam-only    any       sections  QS          no
person    exam-only    any       score     Q           no
person    exam-only    any       none      Q           no
person    invite-only  any       unset     Q           no
person    invite-only  any       full      QKRESP      no
person    invite-only  any       sections  QS          no
person    invite-only  any       score     Q           no
person    invite-only  any       none      Q           no
audience  practice     any       any       QKES        no
audience  exam-only    any       any       -           no
audience  invite-only  any       any       -           no
"""


def expected_rows() -> list[tuple[Role, str, bool, str, frozenset[Fact], bool]]:
    """Every (role, paper kind, verified, review) of the table, "any" written out."""
    rows = []
    for line in EXPECTED.strip().splitlines():
        role, kind, verified, review, facts, audited = line.split()
        for v, r in itertools.product([True, False] if verified == "any" else [verified == "yes"],
                                      REVIEWS if review == "any" else [review]):
            rows.append((Role(role), kind, v, r, frozenset(LETTER[c] for c in facts if c != "-"), audited == "yes"))
    return rows


ROWS = expected_rows()


def test_the_table_covers_every_role_kind_verification_and_review_once():
    cells = [(role, kind, v, r) for role, kind, v, r, _, _ in ROWS]
    assert len(cells) == len(set(cells)) == len(Role) * 3 * 2 * len(REVIEWS)


@pytest.mark.parametrize(("role", "kind", "verified", "review", "facts", "audited"),
                         [r for r in ROWS if r[3] != "unset"])
def test_facts_for_is_the_table(role, kind, verified, review, facts, audited):
    assert facts_for(role, hiring=kind != "practice", verified=verified, review=ReviewOption(review)) == facts


async def _paper(db, kind: str, slug: str) -> int:
    pid, _ = await Crafted(db).paper(slug)
    await db.run_write(lambda c: c.execute("UPDATE papers SET exam_only=?, invite_only=? WHERE id=?",
                                           (kind != "practice", kind == "invite-only", pid)))
    return pid


async def _set_review(db, pid: int, review: str) -> None:
    await db.run_write(lambda c: c.execute("UPDATE papers SET review=? WHERE id=?",
                                           (None if review == "unset" else review, pid)))


VIEWERS = {Role.operator: (OPERATOR, None), Role.admin: (Viewer(Role.admin, ADMIN), None),
           Role.lead: (Viewer(Role.lead, LEAD), ALPHA), Role.person: (Viewer(Role.person, ANN), None),
           Role.audience: (AUDIENCE, ALPHA)}


async def test_the_database_read_follows_the_table_for_every_paper_and_review(db):
    await Crafted(db).group(ALPHA, "Alpha")
    papers = {kind: await _paper(db, kind, kind) for kind in ("practice", "exam-only", "invite-only")}
    for verified in (False, True):
        if verified:
            await hiring.verify(db, ALPHA, None, actor=ADMIN, now=T0)
        for review in REVIEWS:
            for pid in papers.values():
                await _set_review(db, pid, review)
            lenses = {role: await lens(db, viewer, scope) for role, (viewer, scope) in VIEWERS.items()}
            for role, kind, v, r, facts, audited in ROWS:
                if (v, r) != (verified, review):
                    continue
                viewer, scope = VIEWERS[role]
                got = await visibility(db, viewer, scope, papers[kind])
                assert got == Visibility(papers[kind], facts, frozenset(), audited), (role, kind, v, r)
                assert lenses[role].of(papers[kind]) == got  # every paper at once: the same decision


async def test_an_attempt_without_a_paper_reads_as_practice_and_an_unknown_paper_shows_nothing(db):
    assert (await visibility(db, Viewer(Role.person, ANN), None, None)).facts == {
        Fact.question, Fact.key, Fact.reference, Fact.explanation, Fact.section, Fact.result}
    assert (await visibility(db, AUDIENCE, ALPHA, None)).facts == {
        Fact.question, Fact.key, Fact.explanation, Fact.section}
    for viewer, scope in VIEWERS.values():
        assert (await visibility(db, viewer, scope, 999)).facts == frozenset()
        assert (await lens(db, viewer, scope)).of(999).facts == frozenset()
    with pytest.raises(ValueError):
        await visibility(db, AUDIENCE, None, None)  # an audience is a group's


async def test_the_seal_is_per_person_and_a_group_post_holds_every_known_members(db):
    c = Crafted(db)
    for uid in (ADMIN, LEAD, ANN, BOB, CAROL):
        await c.user(uid)
    await c.group(ALPHA, "Alpha", members=(BOB,))  # Bob wrote in the group
    await c.group(-200, "Beta")
    await c.roster(-200, CAROL)  # Carol is on Beta's roster only
    pid, by_section = await c.paper("sat")
    qids = [q for section in by_section for q in section]
    other, _ = await c.paper("other")
    sitting = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=pid, mode=AttemptMode.exam,
                                           now=T0, shuffle=False)
    ann = await visibility(db, Viewer(Role.person, ANN), None, pid)
    assert ann.sealed == set(qids) and Fact.key in ann.facts  # a practice paper's full review, sealed
    assert not any(ann.shows(f, q) for f in (Fact.key, Fact.reference, Fact.explanation, Fact.doubt, Fact.result)
                   for q in qids)
    assert all(ann.shows(Fact.question, q) and ann.shows(Fact.section, q) for q in qids)
    assert not ann.shows(Fact.key)  # the paper's keys as a whole: withheld while any of its questions is sealed
    assert ann.shows(Fact.section) and ann.paper_sealed
    assert (await visibility(db, Viewer(Role.admin, ANN), None, pid)).sealed == set(qids)  # admins too
    assert (await visibility(db, Viewer(Role.lead, ANN), ALPHA, pid)).sealed == set(qids)  # leads too
    assert (await visibility(db, OPERATOR, None, pid)).sealed == frozenset()  # the command line: no person
    assert (await visibility(db, Viewer(Role.person, BOB), None, pid)).sealed == frozenset()  # not Bob's
    elsewhere = await visibility(db, Viewer(Role.person, ANN), None, other)
    assert elsewhere.shows(Fact.key) and not elsewhere.paper_sealed and not elsewhere.shows(Fact.key, qids[0])
    for group in (ALPHA, -200):  # nobody sitting is known in either group
        assert (await visibility(db, AUDIENCE, group, pid)).sealed == frozenset()
    await c.member(ALPHA, ANN)  # Ann answers in Alpha: Alpha's posts hold her seal
    group = await visibility(db, AUDIENCE, ALPHA, pid)
    assert group.sealed == set(qids) and not group.shows(Fact.key, qids[0]) and group.shows(Fact.question, qids[0])
    assert (await lens(db, AUDIENCE, ALPHA)).of(pid) == group
    assert (await visibility(db, AUDIENCE, -200, pid)).sealed == frozenset()
    await attempts.start_attempt(db, user_id=CAROL, chat_id=CAROL, paper_id=other, mode=AttemptMode.exam,
                                 now=T0, shuffle=False)
    beta = await visibility(db, AUDIENCE, -200, other)  # a roster member, never seen writing there
    assert beta.sealed and not beta.shows(Fact.key, min(beta.sealed))
    await attempts.finish_attempt(db, sitting.id, T0 + 60, FinishReason.submitted)
    done = await visibility(db, Viewer(Role.person, ANN), None, pid)
    assert done.sealed == frozenset() and done.shows(Fact.key) and done.shows(Fact.key, qids[0])
    assert (await visibility(db, AUDIENCE, ALPHA, pid)).shows(Fact.key, qids[0])


async def test_a_team_that_loses_its_verification_reads_nothing_at_its_next_read(db):
    await Crafted(db).group(ALPHA, "Alpha")
    pid = await _paper(db, "exam-only", "hire")
    lead = Viewer(Role.lead, LEAD)
    assert (await visibility(db, lead, ALPHA, pid)).facts == frozenset()
    await hiring.verify(db, ALPHA, [pid], actor=ADMIN, now=T0)
    read = await visibility(db, lead, ALPHA, pid)
    assert read.shows(Fact.key) and read.shows(Fact.others_answers) and read.audited
    assert (await lens(db, lead, ALPHA)).of(pid).shows(Fact.key)
    await hiring.unverify(db, ALPHA, [pid], actor=ADMIN, now=T0 + 1)
    again = await visibility(db, lead, ALPHA, pid)
    assert again.facts == frozenset() and not again.audited
    assert (await lens(db, lead, ALPHA)).of(pid).facts == frozenset()


def _doubt_listing(conn, lens_):
    """A listing of questions whose doubts the lens shows, as a guarded reader writes it: the papers
    that show doubts, less the sealed questions (a doubt names the key)."""
    ids = ids_in(engine_of(conn))
    rows = conn.execute(f"SELECT q.id, q.paper_id FROM questions q WHERE q.paper_id IN ({ids}) AND q.id NOT IN ({ids})",
                        (lens_.papers_showing(Fact.doubt), lens_.sealed_json())).fetchall()
    return {r["paper_id"] for r in rows}, {r["id"] for r in rows}


async def _questions(db, *paper_ids: int) -> set[int]:
    marks = ",".join("?" * len(paper_ids))
    return {r[0] for r in await db.fetchall(f"SELECT id FROM questions WHERE paper_id IN ({marks})", paper_ids)}


async def test_a_lens_filters_a_listing_in_sql_by_the_same_decision(db):
    c = Crafted(db)
    await c.group(ALPHA, "Alpha")
    for uid in (ADMIN, LEAD):
        await c.user(uid)
    practice = await _paper(db, "practice", "open")
    verified = await _paper(db, "exam-only", "verified")
    closed = await _paper(db, "invite-only", "closed")
    await hiring.verify(db, ALPHA, [verified], actor=ADMIN, now=T0)
    admin = await db.run(lambda conn: lens_in(conn, Viewer(Role.admin, ADMIN), None))
    assert await db.run(lambda conn: _doubt_listing(conn, admin)) == (
        {practice, verified, closed}, await _questions(db, practice, verified, closed))
    lead = await db.run(lambda conn: lens_in(conn, Viewer(Role.lead, LEAD), ALPHA))
    assert await db.run(lambda conn: _doubt_listing(conn, lead)) == (
        {practice, verified}, await _questions(db, practice, verified))
    group = await lens(db, AUDIENCE, ALPHA)
    assert await db.run(lambda conn: _doubt_listing(conn, group)) == (set(), set())  # no group reads doubts
    assert group.papers_showing(Fact.key) == f"[{practice}]"
    await attempts.start_attempt(db, user_id=LEAD, chat_id=LEAD, paper_id=practice, mode=AttemptMode.exam,
                                 now=T0, shuffle=False)  # the lead sits the practice paper
    lead = await lens(db, Viewer(Role.lead, LEAD), ALPHA)
    assert await db.run(lambda conn: _doubt_listing(conn, lead)) == ({verified}, await _questions(db, verified))


async def test_a_read_of_a_hiring_papers_keys_by_a_lead_or_an_admin_is_audited(db):
    c = Crafted(db)
    await c.group(ALPHA, "Alpha")
    await c.user(LEAD, "Lea")
    hire = await _paper(db, "exam-only", "hire")
    practice = await _paper(db, "practice", "open")
    await hiring.verify(db, ALPHA, None, actor=ADMIN, now=T0)
    lea = Viewer(Role.lead, LEAD)
    reads = [(lea, ALPHA, await visibility(db, lea, ALPHA, hire)),
             (lea, ALPHA, await visibility(db, lea, ALPHA, practice)),
             (OPERATOR, None, await visibility(db, OPERATOR, None, hire)),
             (Viewer(Role.person, LEAD), None, await visibility(db, Viewer(Role.person, LEAD), None, hire))]
    written = [await db.run_write(lambda conn, v=v, s=s, vis=vis: record_key_read_in(conn, v, s, vis, [7, 3, 7],
                                                                                      now=T0 + 5))
               for v, s, vis in reads]
    assert written == [True, False, False, False]
    assert not await db.run_write(lambda conn: record_key_read_in(conn, lea, ALPHA, reads[0][2], [], now=T0))
    [entry] = await audit.recent(db, action=AuditAction.key_read)
    assert (entry.actor_id, entry.chat_id, entry.target, entry.detail) == (LEAD, ALPHA, f"paper:{hire}",
                                                                           {"questions": [3, 7]})
    names = Names({LEAD: "Lea"}, {ALPHA: "Alpha"}, {str(hire): "Hiring paper"}, {None: None})
    assert sentence(entry, names, lambda key, **kw: t(key, "en", **kw)) == (
        "Lea read the keys of Hiring paper for Alpha: questions 3, 7")
    assert sentence(entry, names, lambda key, **kw: t(key, "zh", **kw)) == "Lea 为 Alpha 查看了 Hiring paper 的答案：题目 3, 7"
