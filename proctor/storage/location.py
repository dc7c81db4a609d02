"""Where the record is: a SQLite file (a `Path`) or a PostgreSQL database (a `PostgresUrl`).

`PROCTOR_DB` and `--db` are read by `parse_location`, once, where the settings are read
(bot/settings.py); everything below takes the parsed `DbLocation`. A URL's password is kept out of
its `str` and `repr` (they show `***`), so an error message or a log line that names the location
cannot carry it; only `PostgresUrl.conninfo()`, handed to psycopg, holds it whole.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bank.errors import DatabaseUnusable

SCHEMES = ("postgresql", "postgres")  # libpq's URI schemes
MASK = "***"


class PostgresUrl:
    """A PostgreSQL database by its libpq URL (`postgresql://user:password@host:port/db?sslmode=...`).

    Its str and repr show the URL with the password as `***`; `conninfo()` is the URL as given.
    """

    __slots__ = ("_url", "_shown", "_passwords")

    def __init__(self, url: str):
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            raise ValueError("a SQLite file path or a postgresql:// URL")
        hosts = parts.netloc.rpartition("@")[2]  # libpq takes several, `a:5432,b:5433` (a standby's failover)
        if any(not _port_ok(host) for host in hosts.split(",")):
            raise ValueError("a postgresql:// URL with a port that is a number")
        query = parse_qsl(parts.query, keep_blank_values=True)
        passwords = [v for k, v in query if k == "password"]
        self._url = url
        self._passwords = tuple(p for p in [parts.password or "", *passwords] if p)
        netloc = parts.netloc
        if parts.password is not None:
            user_info, _, host = netloc.rpartition("@")
            netloc = f"{user_info.partition(':')[0]}:{MASK}@{host}"
        shown_query = urlencode([(k, MASK if k == "password" else v) for k, v in query], safe="*")
        self._shown = urlunsplit(parts._replace(netloc=netloc, query=shown_query))

    @property
    def passwords(self) -> tuple[str, ...]:
        """The URL's password (in its user info or as `?password=`); none, and libpq reads PGPASSWORD
        or ~/.pgpass."""
        return self._passwords

    def masked(self, text: str) -> str:
        """`text` (a server's or a tool's message) with this URL as shown and its password masked."""
        text = text.replace(self._url, self._shown)
        for password in self._passwords:
            text = text.replace(password, MASK)
        return text

    def conninfo(self) -> str:
        """The URL as given, password and all: for psycopg only, never for a message."""
        return self._url

    def __str__(self) -> str:
        return self._shown

    def __repr__(self) -> str:
        return f"PostgresUrl({self._shown!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PostgresUrl) and other._url == self._url

    def __hash__(self) -> int:
        return hash(self._url)

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return PostgresUrl, (self._url,)


def _port_ok(host: str) -> bool:
    """A host of a URL's list, `name`, `name:5432` or `[::1]:5432`: its port, if any, is a number."""
    _, colon, port = host.rpartition("]")[2].rpartition(":")
    return not colon or port.isdigit()


DbLocation = Path | PostgresUrl


def parse_location(value: object) -> DbLocation:
    """`PROCTOR_DB` or `--db` read: a `postgresql://` (or `postgres://`) URL, else a SQLite file's path.

    Raises ValueError (pydantic reports it naming the setting, never its value)."""
    if isinstance(value, PostgresUrl | Path):
        return value
    if not isinstance(value, str):
        raise ValueError("a SQLite file path or a postgresql:// URL")
    if value.split(":", 1)[0].lower() in SCHEMES and "://" in value:
        return PostgresUrl(value)
    return Path(value)


def needs_file(location: DbLocation, what: str) -> Path:
    """The SQLite file `what` works on; a PostgreSQL URL is refused in one line (DatabaseUnusable)."""
    if isinstance(location, PostgresUrl):
        raise DatabaseUnusable(f"{what} needs a SQLite file; {location} is a PostgreSQL database")
    return location
