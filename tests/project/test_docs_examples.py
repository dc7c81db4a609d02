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
(tests/harness.py, the bundled bank) by a configured admin, who leads every team: in a private chat,
or in the team group the admin administers for a command that works only in a group. No reply may be
a refusal (a usage, an unknown command or paper, "Sorry").
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import main
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
