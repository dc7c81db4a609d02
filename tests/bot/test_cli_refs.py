"""Every CLI command that prints questions names each by its reference (`P3 · Q43`), on the bundled bank
imported by `proctor import`: the import and its dry run, `bank list|stats|lint|show|confirm|edit|add`,
the notes of `bank export` and `paper compose --dry-run`. Their output is searched for any other form
(tests/ref_forms.py), and `bank show` names the question it shows by the reference a person typed, with
its bank id labelled beside it."""

from __future__ import annotations

import re

import pytest

from bot.cli import main
from tests.ref_forms import forms

REF = re.compile(r"P\d+ · Q\d+")


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def bank(capsys, db_location, monkeypatch, seed_files) -> tuple[str, str]:
    """A database (of each engine) holding the bundled bank, imported as a lead does; the import's own output."""
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    dbfile = db_location
    code, out = _run(capsys, "--db", dbfile, "import", *map(str, seed_files))
    assert code == 0, out
    return dbfile, out


def _clean(what: str, text: str) -> None:
    bad = forms(text)
    assert not bad, f"{what}:\n" + "\n".join(bad)


def test_every_command_that_prints_questions_names_them_by_reference(capsys, tmp_path, bank, seed_files):
    dbfile, imported = bank
    _clean("import", imported)
    db = ("--db", dbfile)
    outputs = {
        "import --dry-run": _run(capsys, *db, "import", "--dry-run", *map(str, seed_files)),
        "bank list": _run(capsys, *db, "bank", "list"),
        "bank stats": _run(capsys, *db, "bank", "stats"),
        "bank lint": _run(capsys, *db, "bank", "lint"),
        "bank show": _run(capsys, *db, "bank", "show", "P3", "Q17"),
        "bank confirm": _run(capsys, *db, "bank", "confirm", "P3 · Q17"),
        "bank edit": _run(capsys, *db, "bank", "edit", "P1", "Q2", "--explanation", "Because it is."),
        "bank add": _run(capsys, *db, "bank", "add", "--paper", "P1", "--kind", "truefalse",
                         "--stem", "A new statement", "--key", "true"),
        "bank export": _run(capsys, *db, "bank", "export", "--format", "aiken", "-o", str(tmp_path / "out.txt")),
        "paper compose --dry-run": _run(capsys, *db, "paper", "compose", "--title", "Mixed", "--part",
                                        "single 3 paper:P1", "--dry-run"),
    }
    for what, (code, text) in outputs.items():
        assert code == 0, f"{what}: {text}"
        _clean(what, text)
    # the lint names every flagged question by its reference; the held ones, with the command to confirm
    lint = outputs["bank lint"][1]
    flagged = [line for line in lint.splitlines() if ": quarantined: " in line]
    assert flagged and all(REF.match(line) for line in flagged), flagged
    assert outputs["bank confirm"][1] == "P3 · Q17: key confirmed, asked again\n"
    assert outputs["bank edit"][1].startswith("P1 · Q2: version 2")
    # a new question takes the paper's next n, after every question it holds (retired ones too)
    assert re.search(r"P1 · Q42\b", outputs["bank add"][1]), outputs["bank add"][1]
    # the export says what it left out, naming the questions by reference
    assert "left out:" in outputs["bank export"][1] and REF.search(outputs["bank export"][1])


def test_show_names_the_question_by_its_reference_and_labels_its_bank_id(capsys, bank):
    dbfile, _ = bank
    code, by_ref = _run(capsys, "--db", dbfile, "bank", "show", "P3", "Q17")
    assert code == 0
    head, bank_id = by_ref.splitlines()[:2]
    assert head.startswith("P3 · Q17 · ") and len(REF.findall(head)) == 1
    found = re.fullmatch(r"bank id #(\d+)", bank_id)
    assert found, bank_id
    # the bank id, the secondary handle, shows the same question under the same reference
    code, by_id = _run(capsys, "--db", dbfile, "bank", "show", found.group(1))
    assert code == 0 and by_id == by_ref
    # the letters it prints are the bank's, and the key says so
    assert re.search(r"^Answer: [A-Z]+, in the bank's letters$", by_ref, re.M), by_ref
    code, unknown = _run(capsys, "--db", dbfile, "bank", "show", "P3", "Q999")
    assert code == 1 and unknown == "proctor: no question P3 Q999\n"  # as it was typed
