"""The program opts into python-telegram-bot's timedelta durations (PTB_TIMEDELTA) where it starts,
and reads a 429's retry_after as one; pyproject's pytest options make any PTB deprecation an error."""

from __future__ import annotations

import os
import tomllib
from datetime import timedelta
from pathlib import Path

from telegram.error import RetryAfter

from bot import pacing
from bot.cli import main


def test_the_program_opts_in_where_it_starts(tmp_path, monkeypatch, capsys):
    """Before: 29 PTBDeprecationWarnings in the test run (retry_after read as a number)."""
    monkeypatch.delenv("PTB_TIMEDELTA", raising=False)
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    main(["--db", str(tmp_path / "none.db"), "bank", "list"])  # fails (no database): the opt-in came first
    assert os.environ["PTB_TIMEDELTA"] == "1"


def test_a_429s_wait_is_a_timedelta_read_in_seconds():
    refused = RetryAfter(timedelta(seconds=7))
    assert refused.retry_after == timedelta(seconds=7) and pacing.seconds(refused.retry_after) == 7.0


def test_the_suite_fails_on_a_ptb_deprecation():
    options = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "error::telegram.warnings.PTBDeprecationWarning" in options["tool"]["pytest"]["ini_options"]["filterwarnings"]
