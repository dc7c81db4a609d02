"""Every example in docs/ runs on the bundled bank.

A fenced block whose first line starts with `proctor ` is a shell example: each of its lines (a `\\` at
the end joins the next) runs in-process as the `proctor` command, in order, page by page: each page in
a folder of its own (the working directory) holding `data/proctor.db`, a copy of a database with the
bundled bank (what `proctor run` makes at its first start; PROCTOR_DB unset). Every command must end
with exit status 0. In a block, a line starting with `#` is output shown, and `# ...` after a command
is a comment. `> FILE` writes the command's output to FILE; a word with `*` names the checkout's files
(`bank/seeds/*.txt`); an absolute path (`/var/backups/...`) is taken inside the folder. A block whose
fence names a file after its language (```toml week3.toml) is that file's text: the page's blocks are
written to the folder before its commands run.

A fenced block whose first line starts with `/` is a chat example: each line is sent to the bot
(tests/harness.py, the bundled bank) by a configured admin, who leads every team, in a chat where the
command is offered (bot/menus.py): the private chat, the team group the admin administers, or for a
command of either the private chat and, when refused there, the group (`/team add @ann`,
`/leaderboard live`). No reply may be a refusal (a usage, an unknown paper, a bad word, "Sorry").

The bot's own prompts give examples too, and each runs the same way: a command form a usage or a hint
shows (`/invite <paper> [48h] [+15m] ...`, every command's usage in /help) is sent with its
placeholders filled in (`places`: a paper code, a question id, an upheld dispute, ...), its optional
words given and its `a|b` alternatives at their first; an example value (a blueprint line, a duration,
a number, a setting's value) goes through the parser that reads it. `PROMPTS` and `VALUES` list where
each prompt's examples are; a text that shows a command with arguments or an example and is listed in
neither fails the sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
import shlex
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import ValidationError

from bank.authoring.draft import Draft, Step, give_key, give_points
from bank.grading.numerical import parse_number
from bank.kinds import Kind
from bank.paper_list import find_paper
from bank.paper_store import load_paper
from bot import menus
from bot.app import commands as bot_commands
from bot.cli import main
from bot.i18n import CATALOGUE
from bot.menus import Where
from bot.settings import Settings, startup_error
from proctor.exams import blueprint as bp
from proctor.invites.request import parse_duration
from proctor.local_time import parse_timezone
from proctor.storage.db import Database
from proctor.teams import disputes as dsp
from tests.harness import BotEnv
from tests.proctor.test_leads_data import Crafted
from tests.stored import shown_ref
from tests.template_db import copy_with_bundled_bank

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NOW = 1_800_000_000.0
_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: str
    line: int  # of the opening fence
    info: str  # what follows the fence: the language, and for a file its name
    text: str

    @property
    def first(self) -> str:
        return next((line.strip() for line in self.text.splitlines() if line.strip()), "")

    @property
    def file_name(self) -> str | None:
        words = self.info.split()
        return words[1] if len(words) > 1 else None


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [Block(page.name, text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2))
            for m in _FENCE.finditer(text)]


def _pages(kind: str) -> list[str]:
    return [page.name for page in sorted(DOCS.glob("*.md"))
            if any(b.first.startswith(kind) for b in blocks(page))]


def commands(block: Block) -> list[str]:
    """The block's commands, continuation lines joined, output lines (`# ...`) left out."""
    joined = re.sub(r"\\\n\s*", " ", block.text)
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]


def _argv(command: str, folder: Path) -> tuple[list[str], Path | None]:
    """The `proctor` command's arguments (globs, absolute paths taken as documented) and its `> FILE`."""
    words = shlex.split(command, comments=True)
    assert words[0] == "proctor", f"not a proctor command: {command}"
    out = None
    if ">" in words:
        at = words.index(">")
        out, words = folder / words[at + 1], words[:at]
    argv = []
    for word in words[1:]:
        if "*" in word:
            found = sorted(str(p) for p in ROOT.glob(word))
            assert found, f"{word} names no file of the checkout"
            argv += found
        elif word.startswith("/"):
            inside = folder / "root" / word.lstrip("/")
            inside.parent.mkdir(parents=True, exist_ok=True)
            argv.append(str(inside))
        elif (folder / word).exists():  # a file read in a child process, forked where another test ran
            argv.append(str(folder / word))
        else:
            argv.append(word)
    return argv, out


def run(command: str, folder: Path) -> tuple[int, str, str]:
    """`command` run in-process: its exit status, what it printed (or wrote to its `> FILE`), its errors."""
    argv, out = _argv(command, folder)
    err = io.StringIO()
    with contextlib.ExitStack() as stack:
        stdout = stack.enter_context(out.open("w", encoding="utf-8") if out else io.TextIOWrapper(io.BytesIO()))
        stack.enter_context(contextlib.redirect_stdout(stdout))
        stack.enter_context(contextlib.redirect_stderr(err))
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own errors
            code = e.code if isinstance(e.code, int) else 1
        stdout.flush()
        said = "" if out else stdout.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
    return code, said, err.getvalue()


@pytest.mark.parametrize("page", _pages("proctor "))
def test_every_shell_example_runs_on_the_bundled_bank(page, tmp_path, monkeypatch):
    for name in ("PROCTOR_DB", "TELEGRAM_BOT_TOKEN", "PROCTOR_BOT_API_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of the checkout; `data/proctor.db` is the default database
    (tmp_path / "data").mkdir()
    asyncio.run(copy_with_bundled_bank(tmp_path / "data" / "proctor.db", NOW))
    page_blocks = blocks(DOCS / page)
    for block in page_blocks:
        if block.file_name:
            (tmp_path / block.file_name).write_text(block.text, encoding="utf-8")
    ran = 0
    for block in page_blocks:
        if not block.first.startswith("proctor "):
            continue
        for command in commands(block):
            code, out, err = run(command, tmp_path)
            assert code == 0, f"docs/{page}:{block.line}: `{command}` ended with {code}:\n{err}{out[-2000:]}"
            ran += 1
    assert ran


def test_the_shell_examples_are_found():
    """The pages with shell examples, so that a fence the reader misses cannot hide one."""
    assert {"bank.md", "hiring-papers.md", "operations-backups.md"} <= set(_pages("proctor "))


# --- chat examples: the docs' `/` blocks and the bot's own prompts ---------------------------------

ADMIN, ANN, GROUP = 1, 2, -100


@dataclass(frozen=True)
class Facts:
    """What the placeholders are filled with: ids of the bundled bank and of disputes set up for them."""

    single: int  # a single-choice question (P1's first)
    single_ref: str  # its reference as the bot shows it ("P1 · Q3")
    dispute_single: int  # an upheld dispute of Ann's about it
    dispute_fill: int  # an upheld dispute of Ann's about a fill-in question


def places(facts: Facts, form: str) -> dict[str, str]:
    """Each placeholder a prompt shows, with a value of the bundled bank."""
    dispute = facts.dispute_fill if " + " in form else facts.dispute_single  # `/keyfix <dispute> + <alternative>`
    return {"<paper>": "P1", "[paper]": "P1", "[paper or topic]": "梯度累积", "[paper|topic]": "梯度累积",
            "[topic]": "梯度累积",
            "<question>": facts.single_ref, "{question}": facts.single_ref,
            "{id}": str(dispute), "<dispute>": str(dispute),
            "<reason>": "the key looks wrong", "<new key>": "B", "<new key, in the same letters>": "B", "<alternative>": "另一种说法",
            "<alternative answer>": "另一种说法", "[HH:MM]": "09:00", "[Area/City]": "Asia/Shanghai",
            "[close after, e.g. 2h]": "2h", "[mon..sun]": "fri", "@user": "@ann", "[@username]": "@ann",
            "[Nq 1–30]": "5q", "[Ns 10–120]": "20s"}


_TOKEN = re.compile(r"\[[^\]]*\]|<[^>]*>|\{\w+\}|\S+")


def filled(form: str, facts: Facts) -> str:
    """`form` as a person would type it: placeholders filled, optional words given, `a|b` as `a`."""
    values = places(facts, form)
    words = []
    for token in _TOKEN.findall(form):
        if token in values:
            words.append(values[token])
        elif token[0] in "<{":
            raise AssertionError(f"{form}: no value for {token} (add one to `places`)")
        elif token[0] == "[":  # optional words, given: `[add|remove @user]` is `add @ann`
            words.append(filled(token[1:-1], facts))
        else:
            words.append(token.split("|")[0])
    return " ".join(words)


# where each prompt shows command forms (each must be in its English text), run through the bot
PROMPTS: dict[str, tuple[str, ...]] = {
    "lang_usage": ("/lang en", "/lang zh", "/lang auto"),
    "script_usage": ("/script orig", "/script hans", "/script hant"),
    "daily_usage": ("/daily on [HH:MM] [Area/City] [close after, e.g. 2h]", "/daily off", "/daily now",
                    "/daily status"),
    "daily_bad_time": ("/daily on 09:00 Asia/Shanghai",),
    "daily_bad_arg": ("/daily on [HH:MM] [Area/City] [close after, e.g. 2h]",),
    "dispute_hint": ("/dispute {question} <reason>",),
    "daily_qid": ("/dispute {question} <reason>",),
    "l_dp_usage": ("/dispute P3 Q43 <reason>",),  # its reply and exam forms need a question on screen
    "l_lb_usage": ("/leaderboard [live] [today|week|month|all]", "/leaderboard paper <paper>",
                   "/leaderboard rating [topic]"),
    "ad_intro": ("/practice <paper>",),
    "ad_none": ("/practice <paper>",),
    "l_rp_usage": ("/report [today|week|month|all]", "/report invites"),
    "l_ch_usage": ("/chart [today|week|month|all]",),
    "l_dg_usage": ("/digest on [mon..sun] [HH:MM]", "/digest off", "/digest now", "/digest"),
    "l_dg_none": ("/digest on [mon..sun] [HH:MM]",),
    "l_bs_usage": ("/bankstats [paper]",),
    "l_bs_commands": ("/retire P3 Q43", "/restore P3 Q43", "/examonly <paper> on|off"),
    "l_retire_usage": ("/retire <question>", "/restore <question>"),
    "l_examonly_usage": ("/examonly <paper> on|off",),
    "l_kf_prompt": ("/keyfix {id} <new key, in the same letters>", "/keyfix {id} + <alternative answer>"),
    "l_kf_prompt_withheld": ("/keyfix {id} <new key>", "/keyfix {id} + <alternative answer>"),
    "l_kf_usage": ("/keyfix <dispute> <new key> [keep]", "/keyfix <dispute> + <alternative> [keep]"),
    "l_tm_usage": ("/team", "/team add|remove|accept|reject @user", "/join"),
    "l_tm_empty": ("/join", "/team add @user"),
    "iv_usage": ("/invite <paper> [48h] [+15m] [@username] [2x] [notify]",),
    "iv_list_none": ("/invite <paper>",),
    "d_usage": ("/desk", "/desk link"),
    "eq_usage": ("/editq <question>",),
    "eq_changed": ("/editq {question}",),
    "au_expired": ("/editq <question>", "/newpaper"),
    "au_stale": ("/editq <question>", "/newpaper"),
    "lv_usage": ("/live [paper or topic] [5q] [20s]", "/live me", "/live stop"),
    "lv_bad_arg": ("/live [paper or topic] [Nq 1–30] [Ns 10–120]",),
}
NOT_EXAMPLES = {
    "np_created",  # "taken like any paper": a word, not an example
    "au_ended_editq", "au_expired_editq",  # "/editq of P3 · Q43": the command named, not a form to type
    "l_q_unknown", "eq_unknown",  # "such as P3 Q43": a reference's form, run in l_dp_usage's and l_bs_commands'
}


def _refusals() -> list[re.Pattern[str]]:
    """Each text that refuses a command (a usage, an unknown paper, a bad word, an own dispute, "Sorry"),
    in both languages, as a pattern a reply matches whole (its placeholders: anything)."""
    keys = [k for k in CATALOGUE if re.search(r"usage|unknown|_bad|_only$|^oops$|not_lead|no_admins|"
                                                r"kf_none|kf_open|dispute_own|own_score|group_only|no_user", k)]
    patterns = []
    for key in keys:
        for text in CATALOGUE[key].values():
            parts = [re.escape(literal) + (".*?" if name is not None else "")
                     for literal, name, _, _ in string.Formatter().parse(text)]
            patterns.append(re.compile("".join(parts), re.S))
    return patterns


REFUSALS = _refusals()


@pytest.fixture
async def chat(tmp_path, db_location):
    """The bot on the bundled bank; a configured admin who administers the team group where Ann (@ann,
    known to the bot) is a member; a quiz of the group's that asked them three questions (P3 · Q43, the
    texts' example, among them), and Ann's upheld disputes of two."""
    env = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await env.start()
    admin = env.api.user(ADMIN, "Boss", username="boss")
    ann = env.api.user(ANN, "Ann", username="ann")
    env.api.group(GROUP, "Team").set_admins([ADMIN])
    env.api.group(GROUP).add_members(ANN)
    await ann.send("/start")
    await ann.wait_message()
    p1 = await load_paper(env.db, (await find_paper(env.db, "P1")).id)
    single = next(q.id for q in p1.questions() if q.kind is Kind.single and q.id is not None)
    fill = next(q.id for q in p1.questions() if q.kind is Kind.fill and q.id is not None)
    crafted = Crafted(env.db)  # the group's quiz asked both of the admin and of Ann: they may dispute them
    await crafted.group(GROUP, "Team", members=(ADMIN, ANN))
    p3q43 = await db_question(env.db, "P3", 43)  # the reference the texts give as their example
    await crafted.daily(GROUP, "2026-12-01", [single, fill, p3q43], [])
    disputes = []
    for question in (single, fill):
        did = await dsp.raise_dispute(env.db, question_id=question, user_id=ANN, chat_id=GROUP, reason="wrong key",
                                      now=env.clock.now())
        await dsp.resolve(env.db, did, upheld=True, lead=ADMIN, chat_id=None, now=env.clock.now())
        disputes.append(did)
    yield env, admin, Facts(single, await shown_ref(env.db, single), *disputes)
    await env.close()


async def db_question(db, code: str, n: int) -> int:
    """The bank id of question `n` of paper `code`."""
    found = await db.scalar("SELECT q.id FROM questions q JOIN papers p ON p.id = q.paper_id WHERE p.code=? AND q.seq=?",
                            (code, n))
    assert found is not None, f"{code} · Q{n} is in the bundled bank"
    return int(found)


async def say(env: BotEnv, admin, line: str, chat: int | None) -> list[str]:
    """`line` sent by the admin in `chat` (None: the private chat); the texts of the bot's answer there."""
    chat_id = chat or ADMIN
    await admin.send(line, chat=chat)
    await admin.wait_message(chat=chat, timeout=15)
    await env.idle()
    after = admin.last_sent[chat_id]
    return [m.text or m.caption or "" for m in env.api.chat_view(chat_id) if m.from_bot and m.message_id > after]


async def runs(env: BotEnv, admin, line: str, where: str) -> None:
    """`line` is answered without a refusal in a chat where its command is offered: the private chat,
    the team group, or (a command for either) the private chat and else the group (`/team add @ann`
    and `/leaderboard live` are a group's)."""
    offered = {c.name: c.where for c in menus.table(env.app)}.get(line.split()[0].lstrip("/"), Where.anywhere)
    chats = {Where.private: [None], Where.group: [GROUP], Where.anywhere: [None, GROUP]}[offered]
    refused = []
    for chat in chats:
        refused = [r for r in await say(env, admin, line, chat) if any(p.fullmatch(r) for p in REFUSALS)]
        if not refused:
            return
    raise AssertionError(f"{where}: `{line}` was refused: {refused[0]}")


@pytest.mark.parametrize("key", sorted(PROMPTS))
async def test_every_command_a_prompt_shows_runs(chat, key):
    env, admin, facts = chat
    text = CATALOGUE[key]["en"]
    for form in PROMPTS[key]:
        assert form in text, f"{key} no longer shows `{form}`: {text!r}"
        await runs(env, admin, filled(form, facts), key)


def _usages() -> list[str]:
    return sorted(f"/{c.name} {c.usage}" for c in bot_commands() if c.usage)


@pytest.mark.parametrize("usage", _usages())
async def test_every_usage_help_shows_runs(chat, usage):
    """/help's arguments of each command (bot/menus.py `Command.usage`): each `·` part a form of its own."""
    env, admin, facts = chat
    name, _, rest = usage.partition(" ")
    for part in rest.split(" · "):
        form = f"{name} {part}" if not part.startswith("/") else part
        if form.split()[1:2] == ["<reason>"]:  # /dispute <reason>: of the question on screen or replied to
            form = form.replace("<reason>", "<question> <reason>")
        await runs(env, admin, filled(form, facts), usage)


@pytest.mark.parametrize("page", _pages("/"))
async def test_every_chat_example_in_the_docs_runs(chat, page):
    env, admin, facts = chat
    for block in blocks(DOCS / page):
        if block.first.startswith("/"):
            for line in commands(block):
                await runs(env, admin, line, f"docs/{page}:{block.line}")


# --- example values a prompt gives, through the parser that reads them -----------------------------

_ANY_POINTS_PAPER = Draft(id=0, user_id=0, chat_id=0, step=Step.points)
_A_NUMERICAL_KEY = Draft(id=0, user_id=0, chat_id=0, step=Step.key, kind=Kind.numerical, stem="?")

# where each prompt gives example values (the part after the words that introduce them), and the parser
# that must read every one of them (each raises or gives None for what it cannot read)
VALUES: dict[str, tuple[str, Callable[[str], object]]] = {
    "iv_bad_duration": (r"like (.+)$", parse_duration),  # /invite's 48h, `proctor invite create --window`
    "not_a_number": (r"like (.+)\.$", parse_number),  # a typed numerical answer
    "daily_number_unreadable": (r"like (.+)\.$", parse_number),
    "nq_bad_points": (r"e\.g\. (.+)\.$", lambda text: give_points(_ANY_POINTS_PAPER, text)),  # /newquestion
    "nq_bad_key_numerical": (r"e\.g\. (.+)\.$", lambda text: give_key(_A_NUMERICAL_KEY, text)),
    "daily_bad_tz": (r"such as (.+)\.$", parse_timezone),
}
_LIST = re.compile(r",\s+|\s+or\s+")


def examples_in(text: str, where: str) -> list[str]:
    found = re.search(where, text, re.M)
    assert found, f"no examples where {where!r} finds them: {text!r}"
    return _LIST.split(found.group(1))


@pytest.mark.parametrize("key", sorted(VALUES))
def test_every_example_value_a_prompt_gives_is_read(key):
    where, parse = VALUES[key]
    for example in examples_in(CATALOGUE[key]["en"], where):
        assert parse(example) is not None, f"{key}: {example!r}"
        assert example in CATALOGUE[key]["zh"], f"{key}: the Chinese text gives other examples"


async def test_the_blueprint_lines_newpaper_shows_are_read(tmp_path):
    """/newpaper's example blueprint, line by line, through the blueprint's parser on the bundled bank,
    and drawn whole from it (its topics and paper codes are the bundled bank's)."""
    await copy_with_bundled_bank(tmp_path / "p.db", NOW)
    db = await Database.open(tmp_path / "p.db")
    try:
        papers = await bp.paper_ids(db)
        for lang in ("en", "zh"):
            text = CATALOGUE["np_ask_parts"][lang]
            lines = re.search(r"(?:For example|例如)[:：]\n((?:.+\n)+)\n", text)
            assert lines, text
            for line in lines.group(1).splitlines():
                assert bp.part_of(line, papers).count > 0, line
            blueprint = bp.parse_lines(lines.group(1), papers)
            assert len(await bp.draw(db, blueprint, random.Random(0), strict=True)) == blueprint.count
    finally:
        await db.close()


@pytest.mark.parametrize("name, bad", [("PROCTOR_ADMINS", "ann"), ("PROCTOR_DAILY_TIME", "nine"),
                                       ("PROCTOR_TIMEZONE", "Mars/Base"), ("TELEGRAM_BOT_TOKEN", "abc"),
                                       ("PROCTOR_DAILY_QUESTIONS", "0"), ("PROCTOR_LANGUAGE", "fr")])
def test_every_example_a_bad_setting_gives_is_a_good_value(name, bad, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    given = {"TELEGRAM_BOT_TOKEN": "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "PROCTOR_DB": tmp_path / "p.db"}
    with pytest.raises(ValidationError) as e:
        Settings(**given | {name: bad})
    line = startup_error(e.value)
    found = re.search(r"(?:such as|like) ([^.]+?)(?:\.|$)", line)
    if found is None:
        assert name in ("PROCTOR_DAILY_QUESTIONS", "PROCTOR_LANGUAGE"), line  # their rule is their example
        return
    for example in _LIST.split(found.group(1)):
        Settings(**given | {name: example})  # no ValidationError


def test_every_prompt_with_an_example_is_run():
    """The sweep: a text showing a command with arguments, or an example (e.g., such as, like, For
    example), is listed where its examples are run."""
    shows = re.compile(r"Usage:|/[a-z]+(?: [a-z]+)? [<\[{]|/[a-z]+ [A-Z]{2,}\b|e\.g\.|such as|\blike\b|For example")
    found = {key for key, texts in CATALOGUE.items() if shows.search(texts["en"])}
    assert found - set(PROMPTS) - set(VALUES) - {"np_ask_parts"} - NOT_EXAMPLES == set()
