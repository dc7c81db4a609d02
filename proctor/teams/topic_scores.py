"""Points per paper, section and question topic over a period, read from the `daily_topics` and
`exam_topics` summaries (migration 025): what the team chart's accuracy by paper and the topic
heatmap read.

The design, in short:
- `daily_topics` holds, per chat, member, *slot* (a quarter hour of UTC, daily_scores' scheme: see
  proctor/daily/scores.py) and (paper, section, question topic), the sums of the daily answers' scores
  and maximum scores and their count. A period is whole slots from here plus, when its bounds are off
  the quarter hours, its two partial edges from `daily_answers` itself (as `scores.source` does).
- `exam_topics` holds, per exam attempt and (paper, section, question topic), the same sums over the
  attempt's final answers (one awaiting review counts once reviewed): a few rows per attempt. The
  attempt's mode, status, user, paper and finish time are filters joined at query time, so a status
  change (finishing, voiding) needs no trigger.
- Triggers keep both inside the statement that writes, rescores (regrade, review) or deletes
  (/forgetme's cascade) an answer: no extra round trip, no writer has to remember them. A question
  moved to another paper, section or topic (a re-import) recomputes its old and new groups.
- The topic shown is resolved when read (`TOPIC`, bank/topics.py): the question's topic, else its
  paper's subject, never a section's title; so a paper given a subject needs nothing.

The numbers are those the raw answers give (sums of the same scores, grouped differently: equal but
for the last bit of a sum of non-binary fractions).
"""

from __future__ import annotations

from bank.store import Engine
from bank.topics import topic_sql
from proctor.daily import scores

# the topic a row shows, given the row alias `s` and its paper joined as `p`
TOPIC = topic_sql("s", "p")


def daily_source(engine: Engine, start: float | None, end: float | None,
                 chat_param: str = ":chat") -> tuple[str, dict[str, object]]:
    """(SELECT, parameters): the chat's daily answers in the period [start, end) as rows (user_id,
    paper_id, section_id, topic, score, max_score, answers) from the daily_topics summary
    (`scores.period_source`: a group quiz's answers once its keys are posted)."""
    return scores.period_source(
        engine, start, end, chat_param=chat_param,
        summary="SELECT user_id, paper_id, section_id, topic, score, max_score, answers FROM daily_topics",
        answers="a.user_id, q.paper_id, q.section_id, q.topic, a.score, a.max_score, 1",
        joins="JOIN questions q ON q.id = a.question_id")


def grouped(source: str, keys: str) -> str:
    """SELECT `keys` and the sums (score, max_score, answers) of `source`'s rows grouped by `keys`: each
    source summed on its own before the two are combined, so the union is a few rows, not thousands."""
    return (f"SELECT {keys}, SUM(score) AS score, SUM(max_score) AS max_score, SUM(answers) AS answers "
            f"FROM ({source}) source GROUP BY {keys}")


def exam_source(where: str) -> str:
    """SELECT rows (user_id, paper_id, section_id, topic, score, max_score, answers) of the exam
    attempts `t` matching `where` (SQL over `t`, the attempt)."""
    return ("SELECT t.user_id, e.paper_id, e.section_id, e.topic, e.score, e.max_score, e.answers "
            f"FROM attempts t JOIN exam_topics e ON e.attempt_id = t.id WHERE {where}")
