"""What may import what: import-linter's contracts in pyproject.toml ([tool.importlinter]) hold.

The layers (sandbox > bot > desk > proctor > bank), the domain without telegram, and no import
circle inside a package, counting imports inside functions. `.ci/run` runs `lint-imports` too; this
test makes a broken contract show in pytest, with import-linter's report as the failure message.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept():
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                               "sys.exit(lint_imports(no_cache=True, no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_the_contracts_cover_every_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    kinds = {c["type"]: c for c in config["contracts"]}
    assert kinds["layers"]["layers"] == ["sandbox", "bot", "desk", "proctor", "bank"]
    assert set(kinds["forbidden"]["source_modules"]) == {"proctor", "bank"}
    assert kinds["forbidden"]["forbidden_modules"] == ["telegram"]
    assert set(kinds["acyclic_siblings"]["ancestors"]) == set(config["root_packages"])
    assert set(config["root_packages"]) == {p.name for p in ROOT.iterdir()
                                         if (p / "__init__.py").is_file() and p.name != "tests"}
