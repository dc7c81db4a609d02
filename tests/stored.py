"""A hand-made question as the bank stores it, with the reference a stored one has (P1 · Q3): for pure
renders that name it (bank/question_ref.py)."""

from bank.models import Question, Source
from bank.question_ref import question_ref
from bank.store import Store
from bot.i18n import question_text


def stored(q: Question, n: int, code: str = "P1") -> Question:
    """`q` as question `n` of paper `code` in the paper's full order."""
    source = q.source or Source(paper=code.lower(), section=1, number=q.number)
    return q.model_copy(update={"seq": n, "source": source.model_copy(update={"code": code})})


async def shown_ref(db: Store, question_id: int, lang: str = "en") -> str:
    """The reference of a stored question as every screen shows it ("P1 · Q3")."""
    return question_text(await question_ref(db, question_id), lang)
