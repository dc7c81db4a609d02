"""The wheel carries every package and the migrations, which exist once: migrations/ (the package
path proctor/storage/migrations is a symlink to it). Before: proctor/ and sandbox/ were left out
of the wheel, so an installed `proctor` had no domain and no migrations."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "bot", "desk", "proctor", "sandbox")


def test_migrations_exist_once():
    link = REPO / "proctor" / "storage" / "migrations"
    assert link.is_symlink() and link.resolve() == (REPO / "migrations").resolve()
    sql = [p.relative_to(REPO) for p in REPO.rglob("*.sql")
           if ".venv" not in p.parts and "build" not in p.parts and p.parts[-3:-1] != ("tests", "fixtures")
           and not p.is_relative_to(link)]
    assert sql and all(p.parts[0] == "migrations" for p in sql), sql


@pytest.mark.slow
def test_the_wheel_carries_every_package_and_the_migrations(tmp_path):
    src = tmp_path / "src"  # built from a copy: the checkout gets no build/ directory
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    for name in (*PACKAGES, "migrations"):
        shutil.copytree(REPO / name, src / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path / "wheel"
    # the backend pyproject names, called as pip would call it, but in this venv (setuptools is a dev
    # dependency): pip's isolated build env costs a fresh venv and a setuptools install per run
    build = "import sys; from setuptools import build_meta; build_meta.build_wheel(sys.argv[1])"
    done = subprocess.run([sys.executable, "-c", build, str(out)], cwd=src, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr
    [wheel] = out.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for package in PACKAGES:
        assert f"{package}/__init__.py" in names, package
    assert "proctor/storage/db.py" in names and "sandbox/fakeapi/__init__.py" in names
    carried = sorted(n.removeprefix("proctor/storage/migrations/") for n in names
                     if n.startswith("proctor/storage/migrations/"))  # SQLite's and PostgreSQL's (postgres/)
    assert carried == sorted(p.relative_to(REPO / "migrations").as_posix() for p in (REPO / "migrations").rglob("*.sql"))
    assert "proctor/storage/migrations/postgres/041_baseline.sql" in names
    assert not [n for n in names if n.endswith(".sql") and not n.startswith("proctor/storage/migrations/")]
