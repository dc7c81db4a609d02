"""The bank's data model: papers hold sections, sections hold questions (pydantic classes over the
words in bank/kinds.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from bank.kinds import (
    UNASKABLE,
    Answer,
    GradingMethod,
    Kind,
    MultiPolicy,
    ReviewOption,
    fingerprint,
    review_option,
)
from bank.question_ref import QuestionRef


class Source(BaseModel):
    paper: str  # paper slug
    section: int  # 1-based section position
    number: int
    paper_title: str = Field(default="", exclude=True)  # what people see (a stored question's)
    code: str = Field(default="", exclude=True)  # the stored paper's code (P3)
    section_title: str = Field(default="", exclude=True)


class Question(BaseModel):
    id: int | None = None
    number: int
    kind: Kind
    stem: str
    options: list[str] = Field(default_factory=list)
    answer: Answer
    explanation: str = ""
    points: float = 1.0
    flags: list[str] = Field(default_factory=list)
    source: Source | None = None
    topic: str = ""
    retired: bool = False
    name: str = ""  # a short name from GIFT or Moodle XML
    difficulty: str = ""  # as a spreadsheet gave it (易/中/难, 1-5, ...)
    # Moodle fractions (-1..1), one per option (single, multi), per accepted form (one-blank fill)
    # or per accepted value (numerical); empty: follow the key
    weights: list[float] = Field(default_factory=list)
    feedback: list[str] = Field(default_factory=list)  # aligned with weights, per option or form

    # found at import (bank/question_checks.py), stored apart from the paper's text: never exported
    pinned: list[int] = Field(default_factory=list, exclude=True)  # options that stay in place
    letter_refs: dict[str, list[int]] = Field(default_factory=dict, exclude=True)  # letters naming options
    held: str = Field("", exclude=True)  # 'key' (in doubt) | 'duplicate': not asked
    # subjective kinds: the reference answer's key terms, found when it was imported (None: not yet)
    key_terms: list[str] | None = None
    # the version of its text and key (/editq, /keyfix): 1 until a lead edits it; an answer is graded
    # against the version its sheet showed
    version: int = Field(default=1, exclude=True)
    # where an exported file says the question came from (bank/formats/ref.py; `version` is then the
    # version the file was exported at): importing that file updates this question in place
    origin: Source | None = Field(default=None, exclude=True)
    # its place in its own paper's full order, the n of its reference (P3 · Q43): given when it is first
    # stored and never changed; a file may carry it (bank/formats/ref.py) so another bank keeps it
    seq: int | None = Field(default=None, exclude=True)

    @property
    def askable(self) -> bool:
        return not self.retired and not self.held and not (set(self.flags) & UNASKABLE)

    @property
    def ref(self) -> QuestionRef:
        """Its reference, `P3 · Q43` (bank/question_ref.py), read where it is stored. Raises ValueError
        for a question not stored yet."""
        if self.source is None or not self.source.code or self.seq is None:
            raise ValueError("a question has a reference once it is stored")
        return QuestionRef(self.source.code, self.seq, self.id)

    def home_seq(self, slug: str) -> int | None:
        """Its place in the full order of the paper `slug` when it is stored in that paper, else None (a
        composed paper's question: its place is its home's)."""
        return self.seq if self.source is not None and self.source.paper == slug else None

    @property
    def fingerprint(self) -> str:
        """Stable identity: where the question stands, so re-importing a fixed text updates it."""
        if self.source is None:
            raise ValueError("a question needs a source to have a fingerprint")
        return fingerprint(self.source.paper, self.source.section, self.source.number)


class Section(BaseModel):
    kind: Kind
    title: str
    points_each: float | None = None
    declared_count: int | None = None
    questions: list[Question] = Field(default_factory=list)


class PaperSettings(BaseModel):
    time_limit_min: int = 60
    attempts_allowed: int | None = None  # None: unlimited
    grading_method: GradingMethod = GradingMethod.best
    multi_policy: MultiPolicy = MultiPolicy.partial
    exam_only: bool = False
    shuffle_options: bool = True
    invite_only: bool = False  # only an invite opens it (implies exam-only)
    review: str | None = None  # ReviewOption; None: `score` for hiring papers (exam-only or invite-only), else `full`
    pass_percent: float | None = None  # the pass mark, percent of the maximum; None: no pass mark
    # integrity signals (docs/integrity-signals.md): on or off, and the thresholds
    signals: bool = True
    signal_similar: float = 90.0  # percent: near-identical written answers
    signal_fast: int = 3  # right answers under the reading floor in one attempt
    signal_late: int = 3  # answers changed in the last 30 seconds
    signal_quick: float = 33.0  # percent of the paper's median time

    @property
    def review_option(self) -> ReviewOption:
        """What a candidate sees at the end (and in practice feedback) on this paper."""
        return review_option(self.exam_only or self.invite_only, self.review)


class Note(BaseModel):
    """Something a reader noted while parsing a file (a question skipped, a key kept but never asked), as a
    code with named parameters, where it is among them (bank/import_notes.py): bank/lint_messages.py says
    it in English, bot/catalogue/lint.py in Chinese too. A note an older release stored as English text
    reads as the code `note` with that text, and shows as written."""

    code: str
    params: dict[str, str | int | float] = Field(default_factory=dict)


class Paper(BaseModel):
    id: int | None = None
    slug: str
    title: str
    subject: str = ""  # what the whole paper is about (梯度累积); a question's own is its `topic`
    source_file: str = ""
    sections: list[Section] = Field(default_factory=list)
    settings: PaperSettings = Field(default_factory=PaperSettings)
    # problems found while parsing that are not tied to one question (declared vs found, ...)
    notes: list[Note] = Field(default_factory=list)
    # a composed paper (/newpaper): its blueprint as JSON, and whether each attempt draws anew; its
    # sections hold the frozen draw (the one shown in lists). None: an imported paper.
    blueprint: str | None = Field(default=None, exclude=True)
    per_candidate: bool = Field(default=False, exclude=True)
    code: str = Field(default="", exclude=True)  # "P3", given when first stored (bank/paper_list.py)

    @field_validator("notes", mode="before")
    @classmethod
    def _english_notes(cls, notes: object) -> object:
        """Notes stored as English text (older releases, older exports) are read as they are."""
        if isinstance(notes, list):
            return [{"code": "note", "params": {"note": n}} if isinstance(n, str) else n for n in notes]
        return notes

    def questions(self) -> list[Question]:
        return [q for s in self.sections for q in s.questions]

    @property
    def label(self) -> str:
        """The paper as a terminal names it: "P3 title" (the title alone before it is first stored)."""
        return f"{self.code} {self.title}" if self.code else self.title

    def ref_of(self, q: Question) -> QuestionRef:
        """The reference of `q`, a question of this paper: its stored one; before the paper is stored,
        the n its file gives it or its place in the paper's full order, under no code ("new paper · Q12")."""
        if q.seq is not None and q.source is not None and q.source.code:
            return q.ref
        n = q.seq if q.seq is not None else next(i for i, x in enumerate(self.questions(), start=1) if x is q)
        return QuestionRef("", n, q.id)

    def ref_at(self, pos: int, number: int) -> QuestionRef | None:
        """The reference of the question numbered `number` in section `pos` (1-based); None if there is none."""
        if not 0 < pos <= len(self.sections):
            return None
        q = next((x for x in self.sections[pos - 1].questions if x.number == number), None)
        return None if q is None else self.ref_of(q)

    @property
    def max_score(self) -> float:
        return sum(q.points for q in self.questions() if q.askable)
