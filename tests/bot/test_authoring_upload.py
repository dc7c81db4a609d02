"""A lead sends a question file in a private chat: preview (nothing written), then Import or Cancel;
bad files, non-leads and groups are refused with one message and nothing written."""

import io
import zipfile
from pathlib import Path

import pytest

from bank.authoring.upload import MAX_QUESTIONS
from bank.formats import FileFormat, child
from bank.formats.files import export
from bank.formats.sheet_export import to_csv, to_xlsx
from bank.importer.json_format import dumps, export_papers
from bank.paper_store import list_papers
from proctor.exams import blueprint as bp
from proctor.exams import compose
from proctor.teams import audit
from sandbox.fakeapi import ApiError
from tests.harness import BotEnv
from tests.papers_fixture import small_paper
from tests.reads import audit_count, question_count, uploads_of

LEAD, ANN, TEAM = 10, 30, -100
FIXTURES = Path(__file__).resolve().parents[1] / "formats_fixtures"
SEEDS = Path(__file__).parents[2] / "bank" / "seeds"

GIFT = """::g1:: What is 2 + 2? {=four ~three ~five}

::g2:: The sky is blue. {T}

::g3:: Name the largest planet. {=Jupiter}
"""
SHEET = [["题型", "题干", "选项A", "选项B", "选项C", "答案", "解析", "试卷"],
         ["单选", "1+1=?", "1", "2", "3", "B", "一加一等于二", "算术"],
         ["多选", "Which are even?", "2", "3", "4", "AC", "", "算术"],
         ["判断", "0 is even.", "", "", "", "对", "", "算术"]]


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


def _files() -> list[tuple[str, bytes, int]]:
    """(name, bytes, questions) in every format `proctor import` reads."""
    seed = sorted(SEEDS.glob("*.txt"))[0]
    json_export = dumps(export_papers([small_paper("exported")])).encode()
    return [
        ("quiz.gift", GIFT.encode(), 3),
        ("aiken.txt", (FIXTURES / "moodle_aiken.txt").read_bytes(), None),
        ("moodle.xml", (FIXTURES / "moodle_quiz.xml").read_bytes(), None),
        ("sheet.xlsx", to_xlsx(SHEET), 3),
        ("sheet.csv", to_csv(SHEET).encode(), 3),
        (seed.name, seed.read_bytes(), None),
        ("bank.json", json_export, 8),
    ]


async def _questions(env) -> int:
    return await question_count(env.db)


async def _uploads(env) -> list:
    """Every upload held for Import or Cancel, of the lead and of Ann."""
    return [*await uploads_of(env.db, LEAD), *await uploads_of(env.db, ANN)]


async def _preview(env, lead, name: str, data: bytes):
    await lead.send_document(data, name)
    return await lead.wait_message(lambda m: "✅ Import" in m.button_texts, timeout=15)


@pytest.mark.parametrize("name,data,n", _files(), ids=lambda v: v if isinstance(v, str) else "")
async def test_each_format_previews_then_imports(env, name, data, n):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    before = await _questions(env)
    preview = await _preview(env, lead, name, data)
    assert f"📄 {name}:" in preview.text and "Nothing is written until you press Import" in preview.text
    assert "as a candidate sees them" in preview.text and "new paper · Q1 · 1 of " in preview.text
    if n is not None:
        assert f": {n} questions" in preview.text
    assert await _questions(env) == before  # nothing written before Import
    await lead.press(preview, "✅ Import")
    done = await lead.wait_message(lambda m: "Imported" in (m.text or ""), timeout=15)
    added = await _questions(env) - before
    assert added > 0 and f"{added} questions" in done.text
    entries = await audit.recent(env.db, action="bank_upload")
    assert [(e.action, e.target) for e in entries] == [("bank_upload", name)]


@pytest.mark.parametrize("fmt", [FileFormat.csv, FileFormat.xlsx, FileFormat.gift])
async def test_an_export_sent_back_in_chat_updates_its_paper_in_place(env, fmt):
    """Before: an XLSX or CSV export uploaded in chat was seen as new questions and the import failed on
    the paper's slug; now it goes through `proctor import`'s function and changes nothing."""
    lead = env.api.user(LEAD, "Lea", language_code="en")
    papers = await list_papers(env.db)
    data, summary = export(papers, fmt)
    before = await _questions(env)
    preview = await _preview(env, lead, f"bank.{fmt.value}", data.encode() if isinstance(data, str) else data)
    assert "Already in the bank, updated in place" in preview.text
    await lead.press(preview, "✅ Import")
    done = await lead.wait_message(lambda m: "Imported" in (m.text or ""), timeout=15)
    assert f"updated in place: 0 changed, 0 added, {summary.total} unchanged" in done.text
    assert await _questions(env) == before
    assert await list_papers(env.db) == papers


async def test_preview_shows_kinds_lint_and_the_candidate_view(env):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    preview = await _preview(env, lead, "sheet.xlsx", to_xlsx(SHEET))
    text = preview.text
    assert "• 算术: 3 — Single choice 1, Multiple choice 1, True / false 1" in text
    assert "warnings:" in text and "no explanation for any of its questions" in text  # lint: a section without explanations
    # the first question as the exam screen shows it, headed by its kind in the chat's language (issue 22:
    # "Single choice 1" above and "Single choice" below, from the importer's default section names)
    assert "new paper · Q1 · 1 of 3 · Single choice · 1 pt\n\n1+1=?\nA. 1\nB. 2\nC. 3" in text
    assert "new paper · Q3 · 3 of 3 · True / false · 1 pt\n\n0 is even.\n\n[✔ True] [✘ False]" in text


def _raw_press(env, user_id: int, message_api: dict, data: str, query_id: str) -> None:
    """A callback_query as Telegram delivers it, e.g. a tap on a keyboard the chat still shows."""
    env.api.inject_update({"callback_query": {
        "id": query_id, "from": {"id": user_id, "is_bot": False, "first_name": "U", "language_code": "en"},
        "message": message_api, "chat_instance": "1", "data": data}})


async def _toast(env, query_id: str) -> str:
    calls = await env.api.wait_for(
        lambda: [c for c in env.api.calls if c.method == "answerCallbackQuery"
                 and c.params.get("callback_query_id") == query_id], timeout=15, what="toast")
    return calls[0].params.get("text", "")


def _import_data(preview) -> str:
    return next(b.callback_data for row in preview.buttons for b in row if b.text == "✅ Import")


async def test_cancel_writes_nothing_and_a_second_import_press_imports_once(env):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    before = await _questions(env)
    preview = await _preview(env, lead, "quiz.gift", GIFT.encode())
    old = env.api.state.message_to_api(preview)
    await lead.press(preview, "✖ Cancel")
    await lead.wait_message(lambda m: "Cancelled: nothing from quiz.gift was written." in (m.text or ""))
    _raw_press(env, LEAD, old, "a:u:1:i", "late")  # Import on the keyboard the chat showed before
    assert "already imported or cancelled" in await _toast(env, "late")
    assert await _questions(env) == before
    preview = await _preview(env, lead, "quiz.gift", GIFT.encode())
    old = env.api.state.message_to_api(preview)
    _raw_press(env, LEAD, old, _import_data(preview), "tap-1")
    _raw_press(env, LEAD, old, _import_data(preview), "tap-2")  # a double tap
    assert await _toast(env, "tap-1") == ""
    assert "already imported" in await _toast(env, "tap-2")
    await env.idle()
    assert await _questions(env) == before + 3
    assert await audit_count(env.db, action="bank_upload") == 1


async def test_a_pending_upload_survives_a_restart(env):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    preview = await _preview(env, lead, "quiz.gift", GIFT.encode())
    await env.restart()
    await lead.press(preview, "✅ Import")
    await lead.wait_message(lambda m: "Imported quiz.gift: 3 questions" in (m.text or ""), timeout=15)
    titles = [p.title for p in await list_papers(env.db)]
    assert "quiz" in titles


def _zip_bomb() -> bytes:
    """Made by the one test that sends it (1 s of CPU: not at every worker's collection)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * (300 * 1024 * 1024))  # unpacks to 300 MB
    return buf.getvalue()


REFUSED = [
    ("big.gift", b"x" * (20 * 1024 * 1024 + 1), "up to 20 MB"),
    ("bomb.xlsx", _zip_bomb, "unpacks to"),
    ("fake.xlsx", b"just some text, not a workbook", "not an XLSX workbook (not a zip file)"),
    ("book.gift", to_xlsx(SHEET), "is a binary file, not text"),
    ("photo.pdf", b"%PDF-1.4", "not a question file"),
    ("broken.gift", b"::a:: What? {=yes ~no\n\n::b:: Next {T}\n", "broken.gift: line"),
    ("broken.csv", "题干,答案,题型\n1+1?,B,单选题\n".encode(), "row 2"),
    # issue 21: 34 s of a quadratic regex in the bot's process, every other user waiting
    ("braces.txt", b"x" + b"{" * 300_000, "no section header such as"),
    ("braces.gift", b"x" + b"{" * 300_000, "expected } to close the answer block"),
    ("long.csv", "题干,答案\n".encode() + b"x" * 200_000 + b",A\n", "line 2: not a readable CSV row"),
    ("many.gift", "".join(f"::q{i}:: {i} + 1? {{={i + 1} ~0}}\n\n" for i in range(MAX_QUESTIONS + 1)).encode(),
     f"{MAX_QUESTIONS + 1} questions; a chat upload takes at most {MAX_QUESTIONS}"),
]


@pytest.mark.parametrize("name,data,why", REFUSED, ids=[r[0] for r in REFUSED])
async def test_bad_files_are_refused_with_one_message_and_nothing_written(env, name, data, why):
    data = data() if callable(data) else data
    lead = env.api.user(LEAD, "Lea", language_code="en")
    before = await _questions(env)
    await lead.send_document(data, name)
    refusal = await lead.wait_message(lambda m: "Not imported" in (m.text or ""), timeout=15)
    assert why in refusal.text, refusal.text
    await env.idle()
    assert [m for m in lead.chat() if m.from_bot] == [refusal]
    assert await _questions(env) == before
    assert await _uploads(env) == []
    if name == "big.gift":  # checked from file_size: never downloaded
        assert not env.api.calls_to("getFile")


async def test_non_leads_and_groups_are_refused(env):
    ann = env.api.user(ANN, "Ann", language_code="en")
    lead = env.api.user(LEAD, "Lea", language_code="en")
    team = env.api.group(TEAM, "Team")
    team.set_admins([ANN])  # a group administrator is not a bank admin
    team.privacy_mode = False  # with privacy mode on (the default) the bot never sees group files
    await ann.send_document(GIFT.encode(), "quiz.gift")
    assert "Only the bot's admins" in (await ann.wait_message()).text
    await lead.send_document(GIFT.encode(), "quiz.gift", chat=TEAM)
    assert "private chat" in (await lead.wait_message(chat=TEAM)).text
    await env.idle()
    assert not env.api.calls_to("getFile")
    assert await _uploads(env) == []


async def test_someone_elses_import_button_does_nothing(env):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    preview = await _preview(env, lead, "quiz.gift", GIFT.encode())
    before = await _questions(env)
    env.admins = (LEAD, ANN)
    await env.restart()
    _raw_press(env, ANN, env.api.state.message_to_api(preview), _import_data(preview), "forged")
    assert "already imported or cancelled" in await _toast(env, "forged")  # not hers: as if gone
    await env.idle()
    assert await _questions(env) == before
    assert [u.status for u in await _uploads(env)] == ["pending"]


async def test_the_same_import_update_delivered_twice_imports_once(env):
    lead = env.api.user(LEAD, "Lea", language_code="en")
    before = await _questions(env)
    preview = await _preview(env, lead, "quiz.gift", GIFT.encode())
    update = {"update_id": 900_001, "callback_query": {
        "id": "redelivered", "from": {"id": LEAD, "is_bot": False, "first_name": "Lea", "language_code": "en"},
        "message": env.api.state.message_to_api(preview), "chat_instance": "1", "data": _import_data(preview)}}
    env.api.inject_update(dict(update))
    await lead.wait_message(lambda m: "Imported quiz.gift" in (m.text or ""), timeout=15)
    env.api.inject_update(dict(update))  # Telegram delivers it again (e.g. after a timeout)
    await env.idle()
    assert await _questions(env) == before + 3
    assert sum("Imported" in (m.text or "") for m in lead.chat()) == 1


async def test_a_file_named_like_a_composed_paper_is_refused_at_import(env):
    """As `proctor import` refuses it (tests/bot/test_composed_export.py): `composed-N.gift` sent in the
    chat would otherwise land on the composed paper by its slug, its title replaced and the file's
    questions hidden under it. The Import press says which paper and writes nothing."""
    lead = env.api.user(LEAD, "Lea", language_code="en")
    draft = compose.Draft("Week 3", 20, bp.parse_lines("single 1 2", {}))
    made = await compose.compose_paper(env.db, draft, actor=LEAD, now=env.clock.now(), seed=1)
    before = await _questions(env)
    preview = await _preview(env, lead, f"{made.slug}.gift", GIFT.encode())
    await lead.press(preview, "✅ Import")
    refusal = await lead.wait_message(lambda m: "Not imported" in (m.text or ""), timeout=15)
    assert f"is the name of the composed paper {made.code}" in refusal.text, refusal.text
    await env.idle()
    assert await _questions(env) == before
    assert [p.title for p in await list_papers(env.db, composed=True) if p.code == made.code] == ["Week 3"]
    assert await audit.recent(env.db, action="bank_upload") == []


async def test_a_file_read_past_the_time_limit_is_refused_and_nothing_written(env, monkeypatch):
    monkeypatch.setattr(child, "READ_SECONDS", 0.01)
    lead = env.api.user(LEAD, "Lea", language_code="en")
    before = await _questions(env)
    # 3,000 questions (150 KB): no reader gets through them in 10 ms, even one forked from a warm zygote
    big = "".join(f"::q{i}:: {i}+2? {{={i + 2} ~{i}}}\n\n" for i in range(3_000))
    await lead.send_document(big.encode(), "quiz.gift")
    refusal = await lead.wait_message(lambda m: "Not imported" in (m.text or ""), timeout=15)
    assert ("quiz.gift: file: took too long to read (over 0.01 s); is it really a GIFT file? A chat upload takes "
            f"at most {MAX_QUESTIONS} questions.") in refusal.text
    await env.idle()
    assert await _questions(env) == before
    assert await _uploads(env) == []


async def test_a_chinese_chat_reads_the_readers_notes_in_chinese(env):
    """A reader's note (a GIFT description skipped) is a code: the preview says it in the lead's language."""
    lead = env.api.user(LEAD, "Lea", language_code="zh")
    await lead.send_document(("::d:: Read this first\n\n" + GIFT).encode(), "quiz.gift")
    preview = await lead.wait_message(lambda m: any(b.startswith("✅") for b in m.button_texts), timeout=15)
    assert "第 1 行：没有答案块 {…}，是说明文字而不是题目；已跳过" in preview.text
    assert "no answer block" not in preview.text and "导入说明" not in preview.text


async def test_a_failed_download_is_one_plain_line_and_the_detail_goes_to_the_log(env, caplog):
    """Issue 22: the sandbox's lead saw `httpx.ConnectError: [Errno -2] Name or service not known`."""
    lead = env.api.user(LEAD, "Lea", language_code="en")
    env.api.fail("getFile", ApiError.server_error(502))
    await lead.send_document(GIFT.encode(), "quiz.gift")
    reply = await lead.wait_message(timeout=15)
    assert reply.text == "❌ I could not fetch the file from Telegram; nothing was written. Try sending it again."
    assert any("Bad Gateway" in str(r.exc_info[1]) for r in caplog.records if r.exc_info), caplog.text
    assert await _uploads(env) == []
