"""What each lint code (bank/lint.py) and an upload's warnings say, in English, by named parameters.

The bank speaks no language of a chat: a `LintItem` carries its code and parameters, the CLI prints
these English texts, and the chat's catalogue (bot/catalogue/lint.py) takes them and adds Chinese,
so every lint message, warning and preview line exists in both languages. A code's text is found by
`message_key` (a code may say one of several things: `quarantined`).
"""

from __future__ import annotations

from collections.abc import Mapping

ENGLISH: dict[str, str] = {
    "note": "{note}",  # a note of the file's parser, as it wrote it
    "count": "question count: {declared} declared, {found} here",
    "default_points": "no points per question given, the default is used",
    "no_explanations": "no explanation for any of its questions ({n})",
    "truncated": "cut off at the end of the file; never asked",
    "corrupted": "garbled characters that could not be repaired; never asked",
    "repaired": "garbled characters were repaired",
    "no_answer": "no key; never asked",
    "no_explanation": "its section explains other questions but not this one",
    "duplicate": "same stem as question {other_number} of {other_section}",
    "duplicate_across": "same stem as question {other_number} of {other_paper} · {other_section}",
    "explanation_vs_key": "key {answer}, but the explanation speaks for {spoken}",
    "quarantined_key": "held out of exams, practice and daily quizzes until a lead confirms the key "
                       "(/bankstats, or `proctor bank confirm {qid}`) or fixes it",
    "quarantined_duplicate": "repeats an earlier question of this paper: asked once",
    "pinned_options": "option {letters}: refers to other options, so it stays in place when options are shuffled",
    "letter_refs": "options named by letter in {where}: shown with the letters the candidate sees",
    "same_title": "paper {other} already has the title “{title}”: Import will refuse it "
                  "(at a shell: proctor import --as-new)",
}


def english(message_key: str, params: Mapping[str, object]) -> str:
    """The English text of a lint message; an unknown key (a flag added later) reads as itself."""
    template = ENGLISH.get(message_key)
    return template.format(**params) if template is not None else message_key
