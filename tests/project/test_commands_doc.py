"""docs/commands.md's table says who can use each command where, as the one table /help and the menus
come from (bot/menus.py, bot.app.commands). Before: it had no /live and marked /invites "configured admins
only" while /help listed it for every lead (issue 22)."""

import re
from pathlib import Path

from bot.app import commands
from bot.menus import Command, Where, Who

DOC = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
ROWS = {"anyone": Who.everyone, "a team's lead": Who.lead, "a configured admin": Who.admin}


def _documented() -> dict[tuple[Who, Where], set[str]]:
    """(audience, place) -> the commands the doc's table lists there."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        who = next((w for label, w in ROWS.items() if cells[0].startswith(label)), None)
        if who is not None and len(cells) == 3:
            for place, cell in zip((Where.private, Where.group), cells[1:], strict=True):
                # only commands: a note in a cell ("configured admins only") says what the table does not
                assert re.fullmatch(r"`/\w+`(, `/\w+`)*|—", cell), cell
                out[who, place] = set(re.findall(r"`/(\w+)`", cell))
    return out


def _facts() -> dict[tuple[Who, Where], set[str]]:
    out: dict[tuple[Who, Where], set[str]] = {(w, p): set() for w in Who for p in (Where.private, Where.group)}
    for c in (c if isinstance(c, Command) else Command(*c) for c in commands()):
        for place in (Where.private, Where.group):
            if c.where in (place, Where.anywhere):
                out[c.who, place].add(c.name)
    return out


def test_the_doc_lists_every_command_with_its_audience_and_place():
    documented, facts = _documented(), _facts()
    assert set(documented) == set(facts), "a row per audience, a column per place"
    wrong = {key: (sorted(facts[key] - documented[key]), sorted(documented[key] - facts[key]))
             for key in facts if facts[key] != documented[key]}
    assert wrong == {}, "(who, where): (missing from the doc, in the doc but not the table)"

