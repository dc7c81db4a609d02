"""The authoring domain without Telegram: upload checks, preview and import; the draft's steps and
store; adding one question through the import's path."""

import pytest

from bank.authoring import draft as dr
from bank.authoring import upload as up
from bank.authoring.add import BadTarget
from bank.errors import ImportFailed
from bank.grading.terms import SegmentIn
from bank.kinds import Kind
from bank.models import Question
from bank.paper_store import load_paper, paper_count
from bot.lint_lines import lint_text
from proctor.teams import curation
from proctor.teams.curation import add_question, set_retired
from tests.papers_fixture import save_paper, small_paper
from tests.reads import audit_count, question_count


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

HERE = SegmentIn.THIS_PROCESS

GIFT = b"::a:: 2+2? {=4 ~3}\n\n::b:: Sky is blue {T}\n"


def test_size_and_name_are_checked_before_downloading():
    up.check_size("quiz.gift", 20 * 1024 * 1024)
    with pytest.raises(up.UploadRefused, match="up to 20 MB"):
        up.check_size("quiz.gift", 20 * 1024 * 1024 + 1)
    with pytest.raises(up.UploadRefused, match="not a question file"):
        up.check_size("slides.pptx", 10)


@pytest.mark.parametrize("name,data,why", [
    ("a.xlsx", b"text", "not an XLSX workbook"),
    ("a.csv", b"PK\x03\x04zip", "binary file"),
    ("a.txt", b"abc\x00def", "binary file"),
])
def test_content_must_be_what_the_name_says(name, data, why):
    with pytest.raises(up.UploadRefused, match=why):
        up.read_upload(name, data)


def test_malformed_content_names_the_line():
    with pytest.raises(ImportFailed, match=r"bad\.gift: line"):
        up.read_upload("bad.gift", b"::a:: 2+2? {=4 ~3\n")


def test_the_same_file_hashes_the_same_and_another_differently():
    one = up.content_hash(up.read_upload("q.gift", GIFT))
    assert one == up.content_hash(up.read_upload("q.gift", GIFT))
    assert one != up.content_hash(up.read_upload("q.gift", GIFT.replace(b"{T}", b"{F}")))


def test_preview_counts_and_checks_duplicates_against_the_bank():
    papers = up.read_upload("q.gift", GIFT)
    bank = [small_paper()]
    bank[0].sections[0].questions[0].stem = "2+2?"
    p = up.preview("q.gift", papers, bank)
    assert p.total == 2 and p.kinds == {Kind.single: 1, Kind.truefalse: 1}
    assert any(w.code == "duplicate_across" for w in p.warnings)
    assert [s.question.stem for s in p.first] == ["2+2?", "Sky is blue"]
    bank[0].title = "q"  # another paper (slug demo) has the title the file's paper would get
    assert any(w.code == "same_title" and lint_text(w, "en").startswith("paper demo already has the title “q”: ")
               for w in up.preview("q.gift", papers, bank).warnings)


async def test_import_writes_once_and_only_what_the_preview_showed(db):
    papers, digest, fmt = up.read_for_import("q.gift", GIFT)  # read in a child process
    assert digest == up.content_hash(papers)
    pid = await up.hold(db, user_id=1, chat_id=1, file_id="F", file_name="q.gift", file_size=len(GIFT),
                        digest=digest, now=0)
    pending = await up.get_pending(db, pid, 1)
    other, other_digest, _ = up.read_for_import("q.gift", GIFT.replace(b"{T}", b"{F}"))
    with pytest.raises(up.UploadChanged):
        await curation.import_upload(db, pending, other, other_digest, fmt, now=1, chat_id=1)
    assert await question_count(db) == 0
    done = await curation.import_upload(db, pending, papers, digest, fmt, now=1, chat_id=1)
    assert [len(p.questions()) for p in done.new] == [2]
    with pytest.raises(up.UploadGone):
        await curation.import_upload(db, pending, papers, digest, fmt, now=2, chat_id=1)
    with pytest.raises(up.UploadGone):
        await up.cancel(db, pid, 1, now=2)
    assert await question_count(db) == 2
    assert await audit_count(db, action="bank_upload") == 1


def _d(**kw) -> dr.Draft:
    return dr.Draft(id=1, user_id=1, chat_id=1, **kw)


def test_a_multi_choice_draft_step_by_step_with_back():
    d = dr.choose_kind(_d(), Kind.multi)
    with pytest.raises(dr.BadInput, match="nq_bad_empty"):
        dr.give_stem(d, "   ")
    d = dr.give_stem(d, "Even numbers?")
    d = dr.add_option(d, "2")
    with pytest.raises(dr.BadInput, match="nq_bad_two_options"):
        dr.options_done(d)
    d = dr.options_done(dr.add_option(dr.add_option(d, "3"), "4"))
    with pytest.raises(dr.BadInput, match="nq_bad_pick"):
        dr.key_done(d)
    d = dr.pick_key(dr.pick_key(dr.pick_key(d, 2), 0), 1)
    assert d.picked == "ABC"
    d = dr.key_done(dr.pick_key(d, 1))
    assert (d.step, d.key) == (dr.Step.explanation, "AC")
    assert dr.back(d).step is dr.Step.key and dr.back(d).key is None
    assert dr.back(dr.back(d)).options == []  # back to the options: they are sent again
    d = dr.give_points(dr.give_explanation(d, None), "1,5")
    assert (d.step, d.points) == (dr.Step.paper, 1.5)
    d = dr.give_paper_title(dr.ask_new_paper(d), "Numbers")
    q = d.question()
    assert (q.kind, q.options, q.answer, q.points) == (Kind.multi, ["2", "3", "4"], "AC", 1.5)
    with pytest.raises(dr.BadInput, match="nq_bad_step"):
        dr.choose_kind(d, Kind.single)  # an old button of another step


@pytest.mark.parametrize("kind,text,key", [
    (Kind.fill, "Paris;巴黎 | Rome", [["Paris", "巴黎"], ["Rome"]]),
    (Kind.numerical, "3.14±0.01", [["3.14", "0.01"]]),
    (Kind.short, "Because.", "Because."),
])
def test_typed_keys(kind, text, key):
    d = dr.give_stem(dr.choose_kind(_d(), kind), "Stem")
    assert d.step is dr.Step.key and d.expects_text
    assert dr.give_key(d, text).key == key


@pytest.mark.parametrize("text", ["0", "-1", "101", "nan", "lots"])
def test_bad_points_stay_on_the_step(text):
    d = replace_step(dr.Step.points)
    with pytest.raises(dr.BadInput, match="nq_bad_points"):
        dr.give_points(d, text)


def replace_step(step: dr.Step) -> dr.Draft:
    return _d(step=step, kind=Kind.single)


async def test_the_draft_store_round_trips_and_save_claims_once(db):
    d = await dr.start_draft(db, 7, 7, now=0)
    d = dr.pick_truefalse(dr.give_stem(dr.choose_kind(d, Kind.truefalse), "Sky is blue"), False)
    await dr.save_draft(db, d, now=1)
    assert await dr.load_draft(db, 7) == d
    again = await dr.start_draft(db, 7, 7, now=2)  # a new /newquestion drops the old draft
    assert again.id != d.id and (await dr.load_draft(db, 7)).step is dr.Step.kind
    with pytest.raises(dr.DraftGone):
        await dr.save_draft(db, d, now=3)
    await dr.drop_draft(db, again.id)
    with pytest.raises(dr.DraftGone):
        await dr.drop_draft(db, again.id)


async def test_adding_after_a_retired_question_never_reuses_its_place(db):
    pid = await save_paper(db, small_paper(), now=0)
    paper = await load_paper(db, pid)
    last = paper.sections[0].questions[-1]
    await set_retired(db, last.id, True, lead=1, chat_id=None, now=1)
    q = Question(number=0, kind=Kind.single, stem="New one?", options=["x", "y"], answer="B", held="")
    added = await add_question(db, q, paper_id=pid, actor=1, now=2, segment_in=HERE)
    assert (added.section, added.number) == ("单项选择题", 3)
    after = await load_paper(db, pid, include_retired=True)
    assert [(x.number, x.retired) for x in after.sections[0].questions] == [(1, False), (2, True), (3, False)]
    with pytest.raises(BadTarget, match="already titled"):
        await add_question(db, q, paper_id=None, new_title=paper.title, actor=1, now=3, segment_in=HERE)
    assert await paper_count(db) == 1


async def test_a_question_goes_into_the_section_asked_for(db):
    pid = await save_paper(db, small_paper(), now=0)
    q = Question(number=0, kind=Kind.single, stem="Where?", options=["x", "y"], answer="A", held="")
    assert (await add_question(db, q, paper_id=pid, section=1, actor=1, now=1, segment_in=HERE)).section == "单项选择题"
    with pytest.raises(BadTarget, match="holds multi questions, not single"):  # a section of another kind
        await add_question(db, q, paper_id=pid, section=2, actor=1, now=1, segment_in=HERE)
    added = await add_question(db, q.model_copy(update={"stem": "New?"}), paper_id=pid, section=0, actor=1, now=2,
                               segment_in=HERE)
    assert (added.section, added.number) == ("单项选择题", 1)
    assert len((await load_paper(db, pid)).sections) == 6
    with pytest.raises(BadTarget, match="no section 99"):
        await add_question(db, q, paper_id=pid, section=99, actor=1, now=3, segment_in=HERE)


def test_back_from_the_preview_goes_to_the_section_or_the_new_title():
    d = dr.choose_section(dr.choose_paper(_d(step=dr.Step.paper, kind=Kind.single), 5, "P"), 2, "S")
    assert d.step is dr.Step.preview and dr.back(d).step is dr.Step.section
    d = dr.give_paper_title(dr.ask_new_paper(_d(step=dr.Step.paper, kind=Kind.single)), "New")
    assert dr.back(d).step is dr.Step.new_paper
