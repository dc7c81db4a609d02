"""A database's schema compared with the one the migrations make at its version.

A backup is a file from elsewhere: its `user_version` says which migrations made it, and its
`sqlite_schema` must then hold exactly their tables, indexes, views and triggers, each with their SQL,
no more (a trigger added by hand runs inside every transaction of the bot) and no fewer. The schema a
version should have is made once per version in a scratch database in memory, from the migration
files, as `Database.migrate` runs them. The SQL is compared with its layout taken out (comments,
spaces, the case and quotes of names): SQLite stores each object's text as it was written, so a
comment edited in a migration since, or another SQLite's quoting, is no difference; a change in what
the object does is.
"""

from __future__ import annotations

import functools
import re
import sqlite3

from proctor.storage.db import migration_files

Schema = frozenset[tuple[str, str, str | None]]  # (type, name, normalised SQL) of every object

# the query planner's statistics (ANALYZE, PRAGMA optimize): SQLite's own, not part of the schema
_STATISTICS = "type = 'table' AND name GLOB 'sqlite_stat[1-4]'"
# SQL's tokens: quoted strings and names, comments (each alternative takes the rest of the text when it
# is not closed, so every character is looked at once), words, whitespace, any other character
_SQL_TOKEN = re.compile(r"""'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`[^`]*`?|\[[^\]]*\]?|--[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?"""
                        r"""|[A-Za-z0-9_$\x80-\U0010ffff]+|\s+|.""", re.S)


def schema_of(con: sqlite3.Connection) -> Schema:
    """Every object of the database's schema as (type, name in lower case, its SQL normalised), the
    planner's statistics left out."""
    rows = con.execute(f"SELECT type, name, sql FROM sqlite_schema WHERE NOT ({_STATISTICS})")
    return frozenset((kind, name.casefold(), None if sql is None else _normal_sql(sql)) for kind, name, sql in rows)


def _normal_sql(sql: str) -> str:
    """`sql` with its layout taken out: comments dropped, one space between tokens, names and keywords
    in lower case and unquoted; string literals as they are."""
    tokens = []
    for m in _SQL_TOKEN.finditer(sql):
        token = m.group()
        if token[0].isspace() or token.startswith(("--", "/*")):
            continue
        if token[0] in "\"`[":  # a quoted name
            token = token[1:-1] if len(token) > 1 and token[-1] in "\"`]" else token[1:]
            token = token.replace('""', '"').casefold()
        elif token[0] != "'":
            token = token.casefold()
        tokens.append(token)
    return " ".join(tokens)


def difference(found: Schema, version: int) -> str | None:
    """The first object of `found` that is not as the migrations up to `version` make it, or that they
    make and `found` lacks, in words ("trigger spy is not part of it"); None when the two are the same."""
    return compared(found, _schema_at(version), version)


def compared(found: Schema, made: Schema, version: int) -> str | None:
    """The first object of `found` not as in `made` (the schema version `version` makes), or of `made`
    that `found` lacks, in words; None when the two are the same. Both engines' checks say it so."""
    extra = sorted((kind, name) for kind, name, _ in found - made)
    missing = sorted((kind, name) for kind, name, _ in made - found)
    if extra:
        kind, name = extra[0]
        how = f"is not as version {version} makes it" if (kind, name) in missing else "is not part of it"
        return f"{kind} {name} {how}"
    if missing:
        kind, name = missing[0]
        return f"{kind} {name} is missing"
    return None


@functools.cache
def _schema_at(version: int) -> Schema:
    """The schema the migrations up to `version` make, in a scratch database in memory."""
    con = sqlite3.connect(":memory:", isolation_level=None)
    try:
        con.execute("PRAGMA foreign_keys=ON")  # as Database.open sets it
        for number, path in migration_files():
            if number <= version:
                sql = path.read_text(encoding="utf-8")
                con.executescript(f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;")
        return schema_of(con)
    finally:
        con.close()
