"""What a wheel carries: every top-level package of the repo, and the migrations as package data."""

import fnmatch
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_every_top_level_package_is_shipped():
    conf = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    include = conf["packages"]["find"]["include"]
    packages = sorted(p.parent.name for p in REPO.glob("*/__init__.py") if p.parent.name not in ("tests", "bench"))
    assert packages, "no packages found"
    missing = [p for p in packages if not any(fnmatch.fnmatch(p, pat) for pat in include)]
    assert missing == [], f"packages a wheel would leave out: {missing}"


def test_migrations_are_package_data_through_one_link():
    link = REPO / "proctor" / "storage" / "migrations"
    assert link.is_symlink() and link.resolve() == (REPO / "migrations").resolve()
    conf = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "migrations/*.sql" in conf["package-data"]["proctor.storage"]
