"""A question's topic as everything that shows, scores or filters by topic reads it: the question's own
`topic`, else its paper's `subject` (bank/models.py), never a section heading. A question with neither
has the topic ''.

The desk's mastery by topic and its CSV (proctor/teams/mastery.py), the digest's weakest topics, a
live round's `/live <topic>` and a blueprint's `topic:NAME` all read it here, in SQL or in Python."""

from __future__ import annotations

from bank.script import folded


def topic_of(topic: str, subject: str) -> str:
    """The topic of a question whose own topic is `topic`, in a paper whose subject is `subject`."""
    return topic or subject


def topic_sql(question: str = "q", paper: str = "p") -> str:
    """`topic_of` in SQL, over a row aliased `question` (its `topic` column) and its paper aliased
    `paper` (its `subject`)."""
    return f"COALESCE(NULLIF({question}.topic, ''), {paper}.subject)"


def names_topic(key: str, topic: str) -> bool:
    """Does `key`, as a person typed it, name `topic`: a part of it, case and Simplified or Traditional
    characters ignored ('' names nothing)?"""
    wanted = folded(key.strip())
    return bool(wanted) and wanted in folded(topic)
