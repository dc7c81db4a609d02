"""What each lint code (bank/lint.py), an upload's warnings and a reader's notes (bank/import_notes.py)
say, in English, by named parameters.

The bank speaks no language of a chat: a `LintItem` carries its code and parameters, the CLI prints
these English texts, and the chat's catalogue (bot/catalogue/lint.py) takes them and adds Chinese,
so every lint message, warning and preview line exists in both languages. A code's text is found by
`message_key` (a code may say one of several things: `quarantined`; a reader's note says its own code).
A note's place ("line 12", "sheet S, row 5") is in its parameters too, said by `PLACES`.
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
    "duplicate": "same stem as {other_question}",
    "duplicate_across": "same stem as {other_question} ({other_paper})",
    "explanation_vs_key": "key {answer}, but the explanation speaks for {spoken}",
    "quarantined_key": "held out of exams, practice and daily quizzes until a lead confirms the key "
                       "(/bankstats, or `proctor bank confirm {question}`) or fixes it",
    "quarantined_duplicate": "repeats an earlier question of this paper: asked once",
    "pinned_options": "option {letters}: refers to other options, so it stays in place when options are shuffled",
    "letter_refs": "options named by letter in {where}: shown with the letters the candidate sees",
    "same_title": "paper {other} already has the title “{title}”: Import will refuse it "
                  "(at a shell: proctor import --as-new)",
    # a reader's notes (bank/import_notes.py), by the reader that writes them
    "description_skipped": "{place}: no answer block {{…}}: a description, not a question; skipped",  # GIFT
    "no_credit_skipped": "{place}: no option earns credit; skipped",
    "key_no_option": "{place}: the key '{key}' names no option; kept, never asked",  # Aiken
    "xml_description_skipped": "{place}: a description, not a question; skipped",  # Moodle XML
    "type_skipped": "{place}: a question of type {type}, which the bank cannot hold yet; skipped",
    "no_credit_kept": "{place}: no answer earns credit; kept, never asked",
    "wildcard": "{place}: the * wildcard is matched as a plain character",
    "units": "{place}: units are not read; the number alone is graded",
    "no_stem_column": "{place}: no 题干/stem column in the first row; sheet skipped",  # sheets
    "options_ignored": "{place}: options given, but a question of kind {kind} has none; ignored",
    "key_option_missing": "{place}: the key {key}: option {option} is not there; kept, never asked",
    "garbled_title": "the title holds garbled characters",  # the seed format
    "declared_count": "{place} ({title}): question count {declared} declared, {found} found",
    "points_missing": "{place} ({title}): points per question not given, default {points}",
    "cut_before_text": "{place}: cut off before its text, dropped",
    "cut_at_end": "{place}: cut off at the end of the file",
    "fill_parts": "{place}: the key's parts ({parts}) do not match the blanks ({blanks})",
    "settings_safe": "Aiken carries no paper settings: a new paper is imported exam-only, with review score "
                     "(change them with proctor bank set)",  # bank/formats/build.assemble(safe=True)
    "tags_dropped": "{place}: the first tag, “{kept}”, is the topic; the other tags ({dropped}) are not read",  # XML
    "kept_edit": "{question} keeps its edit (version {version}, /editq or /keyfix): "
                 "the file's text and key for it were not applied",  # a file imported over an edited question
}

# where a reader's note is, by the parameters it has (place_shape): a place in the file read (its n-th
# question, `item`: a note's `question` parameter), not a stored question's reference
PLACES: dict[str, str] = {
    "sheet_row": "sheet {sheet}, row {row}",
    "row": "row {row}",
    "line": "line {line}",
    "section_question": "section {section}, question {item}",
    "section": "section {section}",
    "question": "question {item}",
    "at": "{at}",  # a place no shape fits, as the reader wrote it
}
_SHAPES = (("sheet_row", {"sheet", "row"}), ("row", {"row"}), ("line", {"line"}),
           ("section_question", {"section", "question"}), ("section", {"section"}), ("question", {"question"}),
           ("at", {"at"}))


def place_shape(params: Mapping[str, object]) -> str | None:
    """Which of PLACES says where a note with these parameters is; None: it has no place."""
    return next((shape for shape, keys in _SHAPES if keys <= params.keys()), None)


def place_fields(params: Mapping[str, object]) -> dict[str, object]:
    """A note's parameters as PLACES names them (its `question`, the n-th of the file, is `item`)."""
    return {("item" if k == "question" else k): v for k, v in params.items()}


def english(message_key: str, params: Mapping[str, object]) -> str:
    """The English text of a lint message; an unknown key (a flag added later) reads as itself."""
    template = ENGLISH.get(message_key)
    if template is None:
        return message_key
    if "{place}" in template and (shape := place_shape(params)):
        params = {**params, "place": PLACES[shape].format(**place_fields(params))}
    return template.format(**params)
