"""The visibility matrix's world (tests/project/test_visibility_matrix.py): three papers that carry
canaries, the people who read them, their groups, and what the canaries are.

Every paper kind (practice, exam-only, invite-only) has its own canary for each fact the matrix
watches: a fill-in's key text, an explanation (on the fill-in and on a single choice, which a live
poll can carry), a short answer's reference answer, every section's name and the paper's subject, a
held question's doubt (its key in doubt, six letters: "key ACDFHJ, but the explanation speaks for B"),
the stranger's written answer and a roster member's dispute. The stranger's name is the invite-only paper's
`invited` canary: the verified team invited them, and who was invited (and how they did) is for that
team's leads. A canary is a word no other text of the program contains, so finding it anywhere a
person can read says that this person was shown that fact of that paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section


class PaperKind(StrEnum):
    practice = "practice"
    exam_only = "exam-only"
    invite_only = "invite-only"


class Canary(StrEnum):
    """The facts the matrix watches, each as a word planted in every paper."""
    key = "key"  # a fill-in's key
    explanation = "explanation"
    reference = "reference"  # a short answer's reference answer
    section = "section"  # every section's name, and the paper's subject (the topic the mastery shows)
    doubt = "doubt"  # a question held by the import's checks: its doubted key
    others_answers = "others_answers"  # the stranger's written answer
    dispute = "dispute"  # the roster member's dispute (its reason)
    invited = "invited"  # an invited candidate: the stranger's name (the verified team invited them)


_TAG = {PaperKind.practice: "PRAC", PaperKind.exam_only: "EXAM", PaperKind.invite_only: "INVT"}
_WORD = {Canary.key: "KEY", Canary.explanation: "EXP", Canary.reference: "REF", Canary.section: "SEC",
         Canary.others_answers: "ANS", Canary.dispute: "DSP", Canary.invited: "WHO"}
# the held question's key (ten options, A-J) and the option its explanation speaks for
_DOUBT = {PaperKind.practice: ("ACDFHJ", "B"), PaperKind.exam_only: ("BCEGHJ", "A"),
          PaperKind.invite_only: ("ABDEGI", "C")}


def word(canary: Canary, kind: PaperKind) -> str:
    """The canary itself: what must not be found where the matrix says no."""
    if canary is Canary.doubt:
        return _DOUBT[kind][0]
    return f"{_WORD[canary]}Q{_TAG[kind]}"


CANARIES: dict[str, tuple[PaperKind, Canary]] = {word(c, k): (k, c) for k in PaperKind for c in Canary}
_FIND = re.compile("|".join(sorted(map(re.escape, CANARIES), key=len, reverse=True)))


def found(text: str) -> set[tuple[PaperKind, Canary]]:
    """Every (paper kind, canary) whose word is in `text`."""
    return {CANARIES[m.group()] for m in _FIND.finditer(text)}


SLUGS = {PaperKind.practice: "mx-practice", PaperKind.exam_only: "mx-exam", PaperKind.invite_only: "mx-invite"}
TITLES = {PaperKind.practice: "Matrix practice", PaperKind.exam_only: "Matrix exam",
          PaperKind.invite_only: "Matrix invite"}
DECOY = "mx-decoy"  # a practice paper without canaries, for the routes that change a paper's settings
WRITTEN_STEM = "Explain briefly how the work is split"  # the short answer's stem (every paper)
# the stranger's written answer without its canary: the roster member's is this text alone, so the
# integrity check finds the two near-identical (the "similar answer" evidence)
ANSWER_TEXT = "the gradient is accumulated over several small batches before one update of the weights"


def canary_paper(kind: PaperKind) -> Paper:
    """A paper of this kind carrying its canaries: sections and subject named with the section canary,
    three single choices (keys A, each explained: a live round's poll carries an explanation whichever is
    drawn; three, so the weekly digest ranks the paper's subject), a fill-in whose key is the key canary, a short answer
    whose reference is the reference canary, and a held multiple choice whose doubted key is the doubt
    canary."""
    sec, exp = word(Canary.section, kind), word(Canary.explanation, kind)
    doubted, spoken = _DOUBT[kind]
    letters = "ABCDEFGHIJ"
    # the explanation presents `spoken` (off the key) as right: the import holds the question
    held_expl = f"选项（{doubted[0]}）和选项（{spoken}）都正确"
    settings = PaperSettings(time_limit_min=5000, exam_only=kind is not PaperKind.practice,
                             invite_only=kind is PaperKind.invite_only)
    # the subject carries the section canary too: the topics the desk's mastery and the digest show
    # (a question's own, else its paper's subject) are read under the sections' rule
    return Paper(slug=SLUGS[kind], title=TITLES[kind], subject=f"{sec} subject", settings=settings, sections=[
        Section(kind=Kind.single, title=f"{sec} choice", questions=[
            Question(number=1, kind=Kind.single, stem=f"Which colour is the {kind} sky?",
                     options=["blue", "green", "red", "black"], answer="A",
                     explanation=f"{exp} the sky is blue", points=1),
            Question(number=2, kind=Kind.single, stem=f"Which {kind} number is even?",
                     options=["two", "three", "five", "seven"], answer="A", explanation=f"{exp} two is even",
                     points=1),
            Question(number=3, kind=Kind.single, stem=f"Which {kind} animal barks?",
                     options=["dog", "cat", "cow", "owl"], answer="A", explanation=f"{exp} dogs bark", points=1),
        ]),
        Section(kind=Kind.fill, title=f"{sec} fill", questions=[
            Question(number=1, kind=Kind.fill, stem=f"The {kind} password is ______.",
                     answer=[[word(Canary.key, kind)]], explanation=f"{exp} the password", points=1),
        ]),
        Section(kind=Kind.short, title=f"{sec} written", questions=[
            Question(number=1, kind=Kind.short, stem=f"{WRITTEN_STEM} ({kind}).",
                     answer=f"{word(Canary.reference, kind)} the reference: split the batch and add up the gradients",
                     points=5),
        ]),
        Section(kind=Kind.multi, title=f"{sec} held", questions=[
            Question(number=1, kind=Kind.multi, stem=f"Which {kind} options apply?",
                     options=[f"option {c}" for c in letters], answer=doubted, explanation=held_expl, points=2),
        ]),
    ])


def decoy_paper() -> Paper:
    return Paper(slug=DECOY, title="Matrix decoy", sections=[
        Section(kind=Kind.single, title="Decoy part", questions=[
            Question(number=1, kind=Kind.single, stem="Which is a decoy?", options=["this", "that"], answer="A"),
        ]),
    ])


# ---- the people -----------------------------------------------------------------------------------

class Who(StrEnum):
    """The viewers of the issue's list (the candidate is one per paper kind; the revoked lead's team is
    verified while the world is made and loses it mid-run)."""
    admin = "configured admin"
    lead_verified = "lead of a verified team"
    lead_unverified = "lead of an unverified self-made team"
    member = "roster member"
    off_roster = "group member off the roster"
    stranger = "stranger"
    candidate_practice = "candidate mid-exam (practice paper)"
    candidate_exam = "candidate mid-exam (exam-only paper)"
    candidate_invite = "candidate mid-exam (invite-only paper)"
    lead_revoked = "lead of a team revoked mid-run"


@dataclass(frozen=True)
class Person:
    who: Who
    user_id: int
    name: str
    username: str


@dataclass(frozen=True)
class Group:
    chat_id: int
    title: str
    lead: Who
    members: tuple[Who, ...]  # known members besides the lead (the bot saw them there)
    roster: tuple[Who, ...] = field(default=())  # on the team's roster (joined)


PEOPLE = {p.who: p for p in (
    Person(Who.admin, 1, "Ada", "ada"),
    Person(Who.lead_verified, 10, "Vera", "vera"),
    Person(Who.lead_unverified, 20, "Uma", "uma"),
    Person(Who.lead_revoked, 30, "Rex", "rex"),
    Person(Who.member, 40, "Mia", "mia"),
    Person(Who.off_roster, 50, "Noa", "noa"),
    Person(Who.stranger, 60, f"Sam {word(Canary.invited, PaperKind.invite_only)}", "sam"),
    Person(Who.candidate_practice, 70, "Cal", "cal"),
    Person(Who.candidate_exam, 71, "Cem", "cem"),
    Person(Who.candidate_invite, 72, "Cid", "cid"),
)}
CANDIDATES = {PaperKind.practice: Who.candidate_practice, PaperKind.exam_only: Who.candidate_exam,
              PaperKind.invite_only: Who.candidate_invite}
VERIFIED, SELF_MADE, REVOKED = -1001, -1002, -1003
GROUPS = (
    Group(VERIFIED, "Verified team", Who.lead_verified,
          (Who.member, Who.off_roster, Who.candidate_practice, Who.candidate_exam, Who.candidate_invite),
          roster=(Who.member,)),
    Group(SELF_MADE, "Self-made team", Who.lead_unverified, (Who.member, Who.off_roster, Who.admin),
          roster=(Who.member,)),
    Group(REVOKED, "Revoked team", Who.lead_revoked, (Who.member, Who.off_roster), roster=(Who.member,)),
)


def groups_of(who: Who) -> list[Group]:
    """The groups `who` is a known member of (their lead's included)."""
    return [g for g in GROUPS if who is g.lead or who in g.members]


def readers(chat_id: int) -> list[Who]:
    """Who reads a message sent to this chat: a private chat's person, or every known member of a group."""
    for g in GROUPS:
        if g.chat_id == chat_id:
            return [g.lead, *g.members]
    return [p.who for p in PEOPLE.values() if p.user_id == chat_id]


def who_is(user_id: int) -> Who | None:
    return next((p.who for p in PEOPLE.values() if p.user_id == user_id), None)
