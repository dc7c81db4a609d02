"""A schema's shape, read from SQLite or from PostgreSQL into the same form, so a test can hold the two
engines' schemas side by side: each table's columns in order (name, type, NOT NULL, default, whether the
engine numbers it), primary key, unique constraints, foreign keys and checks; each index (its keys,
uniqueness and WHERE); each trigger's name and each view's columns.

Types are named as PostgreSQL names them (SQLite's INTEGER is bigint, REAL double precision, TEXT text,
BLOB bytea). Expressions (defaults, checks, index keys and WHERE clauses) are compared in a normal form
that takes out what the engines write differently for the same thing: case, spaces, parentheses,
PostgreSQL's casts, `x = ANY (ARRAY[a, b])` for `x IN (a, b)`, `<>` for `!=`, BETWEEN, IFNULL.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, replace
from typing import Any

import psycopg

SQLITE_TYPES = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text", "BLOB": "bytea"}
# pg_constraint's confdeltype / confupdtype, as SQLite's foreign_key_list words them
_ACTIONS = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    not_null: bool  # a primary key's columns count as NOT NULL
    default: str | None  # normal form
    numbered: bool  # the engine numbers a row given none: SQLite's rowid, PostgreSQL's identity


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    table: str
    refers_to: tuple[str, ...]
    on_delete: str
    on_update: str


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    unique: frozenset[tuple[str, ...]]  # UNIQUE constraints (a unique index is an Index)
    foreign_keys: frozenset[ForeignKey]
    checks: frozenset[str]  # normal form


@dataclass(frozen=True)
class Index:
    table: str
    keys: tuple[str, ...]  # a column's name or an expression's normal form, then " desc", " collate x"
    unique: bool
    where: str | None  # normal form; None: the index is not partial


@dataclass(frozen=True)
class Shape:
    tables: dict[str, Table]
    indexes: dict[str, Index]  # the ones made by CREATE INDEX; a constraint's own index is not here
    triggers: frozenset[tuple[str, str]]  # (table, trigger)
    views: dict[str, tuple[str, ...]]  # its columns' names

    def without(self, tables: set[str]) -> Shape:
        """This shape less `tables` and their indexes and triggers."""
        return replace(self, tables={n: t for n, t in self.tables.items() if n not in tables},
                       indexes={n: i for n, i in self.indexes.items() if i.table not in tables},
                       triggers=frozenset(t for t in self.triggers if t[0] not in tables))


def normal(expression: str) -> str:
    """`expression` in the form both engines' spellings of it come to."""
    text = expression.casefold()
    text = re.sub(r"::\w+( precision| varying)?(\[\])?", "", text)
    text = re.sub(r"= any \(array\[(.*?)\]\)", r" in (\1)", text)
    text = re.sub(r"(\w+) between (\S+) and (\S+)", r"\1 >= \2 and \1 <= \3", text)
    text = text.replace("<>", "!=").replace("ifnull(", "coalesce(")
    text = re.sub(r"[\s()]", "", text)
    return re.sub(r"^'(-?[0-9.]+)'$", r"\1", text)  # PostgreSQL quotes a double precision default


def differences(sqlite: Shape, postgres: Shape) -> list[str]:
    """Each way the two shapes differ, in words; [] when they are the same."""
    out: list[str] = []

    def names(kind: str, a: set[Any], b: set[Any]) -> None:
        if only := sorted(a - b):
            out.append(f"{kind} only in SQLite: {only}")
        if only := sorted(b - a):
            out.append(f"{kind} only in PostgreSQL: {only}")

    names("tables", set(sqlite.tables), set(postgres.tables))
    for name in sorted(set(sqlite.tables) & set(postgres.tables)):
        a, b = sqlite.tables[name], postgres.tables[name]
        if [c.name for c in a.columns] != [c.name for c in b.columns]:
            out.append(f"table {name}: columns {[c.name for c in a.columns]} in SQLite, "
                       f"{[c.name for c in b.columns]} in PostgreSQL")
        else:
            out += [f"table {name}: column {x} in SQLite, {y} in PostgreSQL"
                    for x, y in zip(a.columns, b.columns, strict=True) if x != y]
        for field in ("primary_key", "unique", "foreign_keys", "checks"):
            x, y = getattr(a, field), getattr(b, field)
            if x != y:
                if isinstance(x, frozenset):
                    x, y = sorted(x - y, key=repr), sorted(y - x, key=repr)
                out.append(f"table {name}: {field} {x} in SQLite, {y} in PostgreSQL")
    names("indexes", set(sqlite.indexes), set(postgres.indexes))
    out += [f"index {n}: {sqlite.indexes[n]} in SQLite, {postgres.indexes[n]} in PostgreSQL"
            for n in sorted(set(sqlite.indexes) & set(postgres.indexes)) if sqlite.indexes[n] != postgres.indexes[n]]
    names("triggers", set(sqlite.triggers), set(postgres.triggers))
    names("views", set(sqlite.views), set(postgres.views))
    out += [f"view {n}: columns {sqlite.views[n]} in SQLite, {postgres.views[n]} in PostgreSQL"
            for n in sorted(set(sqlite.views) & set(postgres.views)) if sqlite.views[n] != postgres.views[n]]
    return out


# SQLite ---------------------------------------------------------------------------------------------

# SQL's tokens that can hold a parenthesis or a comma that is not one: strings, quoted names, comments
_SKIP = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/""", re.S)


def _closing(sql: str, start: int) -> int:
    """The index of the parenthesis that closes the one at `start`."""
    depth, i = 0, start
    while i < len(sql):
        if m := _SKIP.match(sql, i):
            i = m.end()
            continue
        depth += {"(": 1, ")": -1}.get(sql[i], 0)
        if depth == 0:
            return i
        i += 1
    raise ValueError(f"no closing parenthesis in {sql!r}")


def _split(sql: str) -> list[str]:
    """`sql` cut at its top-level commas, comments dropped."""
    parts, depth, current, i = [], 0, "", 0
    while i < len(sql):
        if m := _SKIP.match(sql, i):
            current += "" if m.group().startswith(("--", "/*")) else m.group()
            i = m.end()
            continue
        c = sql[i]
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
        i += 1
    return [*parts, current.strip()]


def _checks(create_table: str) -> frozenset[str]:
    found, i = set(), 0
    while m := re.compile(r"\bCHECK\s*\(", re.I).search(create_table, i):
        if any(s.start() < m.start() < s.end() for s in _SKIP.finditer(create_table)):
            i = m.end()
            continue
        end = _closing(create_table, m.end() - 1)
        found.add(normal(create_table[m.end():end]))
        i = end
    return frozenset(found)


def _sqlite_index(con: sqlite3.Connection, name: str, table: str, unique: bool, sql: str) -> Index:
    open_at = re.compile(r"\bON\s+\S+?\s*\(", re.I).search(sql)
    assert open_at, sql
    close = _closing(sql, open_at.end() - 1)
    items = _split(sql[open_at.end():close])
    keys = []
    for (_, cid, column, desc, coll, _), item in zip(
            (r for r in con.execute(f"PRAGMA index_xinfo({name})") if r[5]), items, strict=True):
        if cid == -2:  # an expression: its text as written, less its order and collation
            column = re.sub(r"\s+(COLLATE\s+\w+|ASC|DESC)\b", "", item, flags=re.I)
        keys.append(normal(column) + (" desc" if desc else "") + (f" collate {coll.casefold()}"
                                                                 if coll.upper() != "BINARY" else ""))
    where = re.match(r"\s*WHERE\s+(.*)$", sql[close + 1:], re.I | re.S)
    return Index(table, tuple(keys), unique, normal(where.group(1)) if where else None)


def _sqlite_table(con: sqlite3.Connection, name: str, sql: str, without_rowid: bool) -> Table:
    info = con.execute(f"PRAGMA table_info({name})").fetchall()
    key = tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
    # a rowid table's one INTEGER PRIMARY KEY column is its rowid
    rowid = next((r[1] for r in info if (r[1],) == key and r[2].upper() == "INTEGER" and not without_rowid), None)
    columns = tuple(Column(column, SQLITE_TYPES.get(declared.upper(), declared.casefold()),
                           bool(not_null) or column in key, None if default is None else normal(default),
                           column == rowid)
                    for _, column, declared, not_null, default, _ in info)
    unique = frozenset(tuple(r[2] for r in con.execute(f"PRAGMA index_info({index})"))
                       for _, index, _, origin, _ in con.execute(f"PRAGMA index_list({name})") if origin == "u")
    refs: dict[int, list[tuple[Any, ...]]] = {}
    for r in con.execute(f"PRAGMA foreign_key_list({name})"):
        refs.setdefault(r[0], []).append(r)
    keys = frozenset(ForeignKey(tuple(r[3] for r in rows), str(rows[0][2]), tuple(r[4] for r in rows),
                                str(rows[0][6]), str(rows[0][5])) for rows in refs.values())
    return Table(columns, key, unique, keys, _checks(sql))


def sqlite_shape(con: sqlite3.Connection) -> Shape:
    """The shape of a SQLite database's schema (SQLite's own tables left out)."""
    without_rowid = {r[1] for r in con.execute("PRAGMA table_list") if r[5]}
    objects = con.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema "
                          "WHERE name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
    tables = {name: _sqlite_table(con, name, sql, name in without_rowid)
              for kind, name, _, sql in objects if kind == "table"}
    indexes = {}
    for kind, name, table, sql in objects:
        if kind == "index" and sql:
            unique = next(r[2] for r in con.execute(f"PRAGMA index_list({table})") if r[1] == name)
            indexes[name] = _sqlite_index(con, name, table, bool(unique), sql)
    triggers = frozenset((table, name) for kind, name, table, _ in objects if kind == "trigger")
    views = {name: tuple(r[1] for r in con.execute(f"PRAGMA table_info({name})"))
             for kind, name, _, _ in objects if kind == "view"}
    return Shape(tables, indexes, triggers, views)


# PostgreSQL -----------------------------------------------------------------------------------------

_IN_SCHEMA = "c.relnamespace = current_schema()::regnamespace"


def _names(con: psycopg.Connection, table_oid: int, numbers: list[int]) -> tuple[str, ...]:
    found: dict[int, str] = dict(con.execute(
        "SELECT attnum, attname FROM pg_attribute WHERE attrelid = %s AND attnum = ANY(%s)", (table_oid, numbers)))
    return tuple(found[n] for n in numbers)


def _postgres_table(con: psycopg.Connection, oid: int) -> Table:
    columns = tuple(Column(name, kind, not_null, None if default is None else normal(default), identity != "")
                    for name, kind, not_null, default, identity in con.execute(
        """SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                  pg_get_expr(d.adbin, d.adrelid), a.attidentity
           FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
           WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum""", (oid,)))
    constraints = con.execute(
        """SELECT contype, conkey, confrelid::regclass::text, confkey, confdeltype, confupdtype,
                  pg_get_constraintdef(oid), confrelid FROM pg_constraint WHERE conrelid = %s""", (oid,)).fetchall()
    key = next((_names(con, oid, c[1]) for c in constraints if c[0] == "p"), ())
    unique = frozenset(_names(con, oid, c[1]) for c in constraints if c[0] == "u")
    refs = frozenset(ForeignKey(_names(con, oid, c[1]), c[2], _names(con, c[7], c[3]), _ACTIONS[c[4]], _ACTIONS[c[5]])
                     for c in constraints if c[0] == "f")
    checks = frozenset(normal(re.sub(r"^CHECK ", "", c[6])) for c in constraints if c[0] == "c")
    return Table(columns, key, unique, refs, checks)


def postgres_shape(con: psycopg.Connection) -> Shape:
    """The shape of the schema in a PostgreSQL database's current schema."""
    tables = {name: _postgres_table(con, oid) for oid, name in con.execute(
        f"SELECT c.oid, c.relname FROM pg_class c WHERE c.relkind = 'r' AND {_IN_SCHEMA}")}
    indexes = {}
    for index, name, table, unique, keys, where in con.execute(
            f"""SELECT i.indexrelid, c.relname, t.relname, i.indisunique, i.indnkeyatts,
                       pg_get_expr(i.indpred, i.indrelid)
                FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
                WHERE {_IN_SCHEMA} AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = i.indexrelid)"""):
        described = con.execute(
            """SELECT pg_get_indexdef(i.indexrelid, k, true), i.indoption[k - 1] & 1 = 1,
                      (SELECT collname FROM pg_collation WHERE oid = i.indcollation[k - 1])
               FROM pg_index i, generate_series(1, i.indnkeyatts) k WHERE i.indexrelid = %s ORDER BY k""",
            (index,)).fetchall()
        assert len(described) == keys
        indexes[name] = Index(table, tuple(normal(text) + (" desc" if desc else "")
                                           + (f" collate {coll}" if coll not in (None, "default") else "")
                                           for text, desc, coll in described),
                              unique, None if where is None else normal(where))
    triggers = frozenset(con.execute(
        f"""SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE NOT t.tgisinternal AND {_IN_SCHEMA}""").fetchall())
    views = {name: tuple(columns) for name, columns in con.execute(
        f"""SELECT c.relname, array_agg(a.attname ORDER BY a.attnum) FROM pg_class c
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
            WHERE c.relkind = 'v' AND {_IN_SCHEMA} GROUP BY c.relname""")}
    return Shape(tables, indexes, triggers, views)  # type: ignore[arg-type]
