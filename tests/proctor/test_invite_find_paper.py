"""The paper an /invite names is found from the paper summaries (bank/paper_list.py) as it was found
from the papers loaded whole: by its number among the papers with something to ask that are not
invite-only, its slug, or a unique part of its title (invite-only papers too)."""

from __future__ import annotations

from bank.errors import NotFound
from bank.paper_store import list_papers
from proctor import invites
from proctor.storage.bootstrap import open_database
from tests.bank.test_paper_list import varied_bank


async def _old_find_paper(db, key: str) -> tuple[int, str]:
    """proctor.invites.find_paper as it was, over `list_papers`."""
    papers = [p for p in await list_papers(db) if any(q.askable for q in p.questions())]
    key = key.strip()
    listed = [p for p in papers if not p.settings.invite_only]
    if key.isdigit() and 1 <= int(key) <= len(listed):
        p = listed[int(key) - 1]
        return p.id, p.title
    exact = [p for p in papers if p.slug == key]
    found = exact or [p for p in papers if key and key.casefold() in p.title.casefold()]
    if len(found) != 1:
        raise NotFound(key)
    return found[0].id, found[0].title


async def _either(find, db, key: str) -> tuple[int, str] | str:
    try:
        return await find(db, key)
    except NotFound:
        return "not found"


async def test_an_invite_finds_the_paper_it_found_before(tmp_path):
    db = await open_database(tmp_path / "bank.db")
    try:
        await varied_bank(db)
        keys = ["0", "1", "5", "7", "8", "99", "odd", "Paper odd", "paper INVITED", "invited", "hiring", "flagged",
                "Paper", "Frozen draw", "composed-10", "", "  odd  ", *(p.slug for p in await list_papers(db))]
        for key in keys:
            assert await _either(invites.find_paper, db, key) == await _either(_old_find_paper, db, key), key
        assert (await invites.find_paper(db, "invited"))[1] == "Paper invited"  # invite-only: by name, not number
    finally:
        await db.close()
