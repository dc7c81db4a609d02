"""Plain code, checked: imports at the top of the module, nothing of the standard library patched, and
no state passed in a ContextVar (ARCHITECTURE.md, "Plain parts").

- An import inside a function, or under `if TYPE_CHECKING:`, is only of a heavy optional library that
  one command uses. The list is pyproject.toml's `[tool.proctor] heavy-imports`, each with its reason
  there; a function-level import of one says why in a comment on its line or the line above.
- No module assigns to an attribute of a standard-library module (`ssl.SSLContext.x = ...`) or calls
  `setattr` on one; the documented hooks (`sys.excepthook`, the standard streams, ...) are not patches.
- No module uses `contextvars`.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")


def heavy_imports() -> frozenset[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return frozenset(config["tool"]["proctor"]["heavy-imports"])


def modules() -> Iterator[tuple[str, ast.Module, list[str]]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            yield str(path.relative_to(ROOT)), ast.parse(text), text.splitlines()


def imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return [node.module or ""] if node.level == 0 else ["." * node.level + (node.module or "")]


def nested_imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Imports inside a function (at any depth) and under a module-level `if TYPE_CHECKING:`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    yield sub, "inside a function"
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    yield sub, "under TYPE_CHECKING"


def says_why(lines: list[str], index: int) -> bool:
    """A comment on the import's line, or above it in its run of imports and comments."""
    while index >= 0:
        line = lines[index].strip()
        if "#" in line:
            return True
        if not line.startswith(("import ", "from ")):
            return False
        index -= 1
    return False


def misplaced_imports(tree: ast.Module, lines: list[str], heavy: frozenset[str]) -> list[str]:
    found = []
    for node, where in nested_imports(tree):
        names = imported(node)
        if not all(name.split(".")[0] in heavy for name in names):
            found.append(f"line {node.lineno}: {', '.join(names)} {where}")
        elif where == "inside a function" and not says_why(lines, node.lineno - 1):
            found.append(f"line {node.lineno}: {', '.join(names)} inside a function without a comment saying why")
    return found


# the standard library's documented places to put one's own object
HOOKS = frozenset({"sys.excepthook", "sys.unraisablehook", "sys.displayhook", "threading.excepthook",
                   "sys.stdin", "sys.stdout", "sys.stderr"})


def stdlib_patches(tree: ast.Module) -> list[str]:
    stdlib = {name for name in sys.stdlib_module_names if not name.startswith("_")}
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in stdlib:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in stdlib:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def base(expr: ast.expr) -> str | None:
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        return expr.id if isinstance(expr, ast.Name) and expr.id in aliases else None

    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
              and node.args):
            targets = [ast.Attribute(value=node.args[0], attr="?", ctx=ast.Store())]
        for target in targets:
            if (isinstance(target, ast.Attribute) and (name := base(target)) is not None
                    and ast.unparse(target) not in HOOKS):
                found.append(f"line {node.lineno}: {ast.unparse(target)} (of {aliases[name]})")
    return found


def context_vars(tree: ast.Module) -> list[str]:
    return [f"line {node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and any(n.split(".")[0] == "contextvars" for n in imported(node))]


def test_imports_are_at_the_top_but_for_the_heavy_libraries_pyproject_lists():
    heavy = heavy_imports()
    found = {path: bad for path, tree, lines in modules() if (bad := misplaced_imports(tree, lines, heavy))}
    assert not found, "imports belong at the top of the module (pyproject.toml [tool.proctor] heavy-imports): " + repr(found)


def test_nothing_of_the_standard_library_is_patched():
    found = {path: bad for path, tree, _ in modules() if (bad := stdlib_patches(tree))}
    assert not found, found


def test_no_state_is_passed_in_a_context_var():
    found = {path: bad for path, tree, _ in modules() if (bad := context_vars(tree))}
    assert not found, found


@pytest.mark.parametrize(("source", "complaint"), [
    ("def f():\n    import json\n", "json inside a function"),
    ("def f():\n    import sympy\n", "sympy inside a function without a comment"),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bank.models import Paper\n",
     "bank.models under TYPE_CHECKING"),
])
def test_the_import_check_catches_an_import_out_of_place(source, complaint):
    tree = ast.parse(source)
    assert any(complaint in line for line in misplaced_imports(tree, source.splitlines(), frozenset({"sympy"})))


def test_the_import_check_passes_a_heavy_import_that_says_why():
    source = "def f():\n    import sympy  # heavy: only LaTeX keys need it\n"
    assert misplaced_imports(ast.parse(source), source.splitlines(), frozenset({"sympy"})) == []


@pytest.mark.parametrize("source", [
    "import ssl\nssl.SSLContext.set_default_verify_paths = lambda self: None\n",
    "import ssl as s\ndel s.SSLContext.load_default_certs\n",
    "from ssl import SSLContext\nsetattr(SSLContext, 'x', 1)\n",
    "import os.path\nos.path.join = str\n",
])
def test_the_patch_check_catches_a_patched_standard_library(source):
    assert stdlib_patches(ast.parse(source))


def test_the_patch_check_leaves_our_own_attributes_alone():
    assert stdlib_patches(ast.parse("import ssl\nclass C:\n    pass\nc = C()\nc.context = ssl.create_default_context()\n")) == []


def test_the_context_var_check_catches_one():
    assert context_vars(ast.parse("from contextvars import ContextVar\nX = ContextVar('x')\n"))
