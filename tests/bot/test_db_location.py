"""PROCTOR_DB and --db read once, as a SQLite file's path or a PostgreSQL URL (proctor/storage/location.py);
a URL's password never reaches a repr, a str, a log line (at DEBUG) or an error message."""

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from bank.errors import DatabaseUnusable
from bot import logging_setup
from bot.cli import main
from bot.logging_setup import RedactSecrets, register_settings
from bot.settings import RecordSettings, bad_setting
from proctor.storage.db import Database
from proctor.storage.location import PostgresUrl, needs_file, parse_location

PASSWORD = "pg-s3cret-word"
URL = f"postgresql://ann:{PASSWORD}@127.0.0.1:1/proctor?sslmode=disable"


@pytest.fixture
def clean(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    monkeypatch.setattr(logging_setup, "_secrets", {})


@pytest.mark.parametrize("given, read", [
    ("data/x.db", Path("data/x.db")),
    ("postgres://ann@db.example/proctor", PostgresUrl("postgres://ann@db.example/proctor")),
    ("postgresql://db.example:5433/proctor", PostgresUrl("postgresql://db.example:5433/proctor")),
    ("POSTGRESQL://db.example/proctor", PostgresUrl("POSTGRESQL://db.example/proctor")),
    (Path("a b/c.db"), Path("a b/c.db")),
])
def test_a_location_is_a_path_or_a_url(clean, given, read):
    assert parse_location(given) == read
    assert RecordSettings(PROCTOR_DB=given).db == read


def test_a_bad_url_is_an_error_naming_the_setting_never_its_value(clean):
    with pytest.raises(ValidationError) as e:
        RecordSettings(PROCTOR_DB=f"postgresql://ann:{PASSWORD}@db.example:port/x")
    assert bad_setting(e.value).name == "PROCTOR_DB" and PASSWORD not in str(bad_setting(e.value))


@pytest.mark.parametrize("url", [URL, f"postgresql://ann@db.example/proctor?password={PASSWORD}&sslmode=require"])
def test_the_password_is_in_no_repr_or_str(clean, url):
    s = RecordSettings(PROCTOR_DB=url)
    shown = f"{s!r} {s} {s.db} {s.db!r} {[s.db]} {s.model_dump()}"
    assert PASSWORD not in shown and "***" in shown
    assert s.db.conninfo() == url  # psycopg's copy is whole
    assert [x.value for x in s.secret_values()] == [PASSWORD]


def test_the_password_is_in_no_log_line_at_debug(clean):
    register_settings(RecordSettings(PROCTOR_DB=URL))
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(self.format(record))

    handler = Keep(level=logging.DEBUG)
    handler.addFilter(RedactSecrets())
    log = logging.getLogger("location-test")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        log.debug("opening %s", parse_location(URL))
        log.debug("connection string %s", parse_location(URL).conninfo())  # as a library might say it
        log.debug("password=%s", PASSWORD)
    finally:
        log.removeHandler(handler)
    text = "\n".join(records)
    assert len(records) == 3 and PASSWORD not in text and "<password>" in text


def test_an_unreachable_url_is_one_line_without_the_password(clean, capsys):
    with pytest.raises(DatabaseUnusable) as e:
        asyncio.run(Database.open(URL))
    assert PASSWORD not in str(e.value) and "ann:***@127.0.0.1:1/proctor" in str(e.value)
    assert main(["--db", URL, "bank", "list"]) == 1
    err = capsys.readouterr().err
    assert PASSWORD not in err and err.count("\n") == 1 and "cannot be opened" in err


@pytest.mark.parametrize("words, what", [(["sandbox"], "proctor sandbox")])
def test_what_needs_a_file_says_so_for_a_url(clean, capsys, words, what):
    assert main(["--db", URL, *words]) == 1
    err = capsys.readouterr().err
    assert err == f"proctor: {what} needs a SQLite file; {parse_location(URL)} is a PostgreSQL database\n"
    with pytest.raises(DatabaseUnusable):
        needs_file(parse_location(URL), what)


def test_a_url_may_name_several_hosts_as_libpq_takes_them_and_a_bad_port_is_refused():
    from proctor.storage.location import PostgresUrl, parse_location

    url = "postgresql://bot:s3cret@db1:5432,db2:5433/proctor?target_session_attrs=read-write"
    many = parse_location(url)
    assert isinstance(many, PostgresUrl) and many.conninfo() == url and "s3cret" not in str(many) + repr(many)
    assert isinstance(parse_location("postgresql://bot@[::1]:5432,db2/proctor"), PostgresUrl)
    for bad in ("postgresql://bot@db1:54x2/proctor", "postgresql://bot@db1:5432,db2:no/proctor"):
        with pytest.raises(ValueError, match="port that is a number"):
            parse_location(bad)
