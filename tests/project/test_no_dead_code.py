"""No production function lives for the tests alone.

A public module-level function or method in the five packages that no module of those packages
references by name (nor bench/, nor an entry point in pyproject.toml, nor a desk template) is either
dead or a second path beside the one production uses; the test lists every such function. Names are
collected with `ast` from every reference there is (a bare name, an attribute, an aliased import, an
identifier-shaped string for getattr), so the check is conservative: a name used anywhere for
anything keeps every function of that name alive. It may miss a dead function; it never flags a live
one. Functions that only something outside the packages calls are in ALLOWED, each with the reason.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Decorators that leave a function to be called by name; any other decorator may register it
# (a route table, a pydantic validator), so such a function is not counted.
PLAIN_DECORATORS = {"property", "staticmethod", "classmethod", "cache", "lru_cache", "cached_property",
                    "contextmanager", "asynccontextmanager", "override", "wraps"}

ALLOWED: dict[str, str] = {
    # protocol methods a library calls by name
    "bot.aiohttp_request.AiohttpRequest.do_request": "PTB's BaseRequest: the Bot's every call goes through it",
    "bot.pacing.Pacer.process_request": "PTB's BaseRateLimiter: ExtBot calls it around every request",
    "sandbox.fakeapi.methods.formatting._HtmlText.handle_data": "html.parser.HTMLParser's callback",
    "sandbox.fakeapi.methods.formatting._HtmlText.handle_endtag": "html.parser.HTMLParser's callback",
    "sandbox.fakeapi.methods.formatting._HtmlText.handle_starttag": "html.parser.HTMLParser's callback",
    # the fake Bot API's driver: what tests do as Telegram and its users (ARCHITECTURE.md, sandbox/)
    "sandbox.fakeapi.driver.FakeGroup.remove_members": "tests make members leave a group",
    "sandbox.fakeapi.methods.errors.ApiError.server_error": "tests inject a 5xx into the bot's calls",
    "sandbox.fakeapi.state.StoredMessage.web_app_urls": "tests open the desk's Mini App button as a user does",
    # run by hand
    "proctor.storage.bootstrap.write_seed_key_terms": "rewrites bank/seeds/key_terms.json (python -c, its docstring)",
}


def _sources(root: Path) -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((root / package).rglob("*.py"))


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _registered(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(_decorator_name(d) not in PLAIN_DECORATORS for d in node.decorator_list)


def definitions(path: Path, module: str) -> Iterator[tuple[str, str]]:
    """(qualified name, name) of each public function at module level and each public method of a
    module-level class (nested classes included); dunders are the language's protocol."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, str]]:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if not node.name.startswith("_") and not _registered(node):
                    yield f"{prefix}.{node.name}", node.name
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, f"{prefix}.{node.name}")
            elif isinstance(node, ast.If):  # `if TYPE_CHECKING:` / `if sys.version_info ...`
                yield from walk(node.body + node.orelse, prefix)

    yield from walk(tree.body, module)


def references(tree: ast.AST) -> Iterator[str]:
    """Every name the tree uses: names, attributes, the original of an aliased import, and strings
    shaped like an identifier (getattr, names in tables)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.alias) and node.asname and node.asname != node.name:
            yield node.name.rpartition(".")[2]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and IDENTIFIER.fullmatch(node.value):
            yield node.value


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def used_names(root: Path) -> set[str]:
    """Names referenced by the packages, bench/, the desk's templates and pyproject's entry points."""
    names: set[str] = set()
    for path in [*_sources(root), *sorted((root / "bench").rglob("*.py"))]:
        names.update(references(ast.parse(path.read_text(encoding="utf-8"))))
    for package in PACKAGES:
        for template in (root / package).rglob("*.html"):
            names.update(IDENTIFIER.findall(template.read_text(encoding="utf-8")))
    scripts = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    names.update(target.rpartition(":")[2].rpartition(".")[2] for target in scripts.values())
    return names


def unreferenced(root: Path = ROOT) -> list[str]:
    """Qualified names of the public functions and methods nothing in production refers to."""
    used = used_names(root)
    return sorted(qualified for path in _sources(root)
                  for qualified, name in definitions(path, _module_name(path, root))
                  if name not in used)


def test_every_public_function_is_used_by_production():
    dead = [name for name in unreferenced() if name not in ALLOWED]
    assert not dead, ("only tests call these (remove them, or make them the path production uses):\n  "
                      + "\n  ".join(dead))


def test_the_finder_flags_what_nothing_references_and_nothing_else(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project.scripts]\nproctor = "bot.cli:main"\n')
    files = {
        "bank/a.py": ("def used(): pass\ndef dead(): pass\ndef by_attribute(): pass\ndef by_alias(): pass\n"
                      "def by_string(): pass\ndef _private(): pass\n@route('/x')\ndef registered(): pass\n"
                      "class C:\n    def method(self): pass\n    def gone(self): pass\n"
                      "    def __len__(self): return 0\n"),
        "proctor/b.py": ("from bank import a\nfrom bank.a import by_alias as other, dead, used\n"
                         "a.by_attribute()\nused()\nother()\nC().method()\ngetattr(a, 'by_string')\n"),
        "bot/cli.py": "def main(): pass\n",
        "desk/v.py": "def in_template(): pass\n",
        "desk/templates/page.html": "{{ row.in_template() }}",
        "sandbox/s.py": "def benched(): pass\n",
        "bench/b.py": "from sandbox.s import benched\nbenched()\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert unreferenced(tmp_path) == ["bank.a.C.gone", "bank.a.dead"]  # an import alone is no use


def test_the_allow_list_names_live_definitions():
    defined = {qualified for path in _sources(ROOT) for qualified, _ in definitions(path, _module_name(path, ROOT))}
    unused = set(unreferenced())
    stale = [name for name in ALLOWED if name not in defined or name not in unused]
    assert not stale, f"allowed but gone or now referenced: {stale}"
