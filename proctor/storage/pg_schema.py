"""A PostgreSQL record's schema compared with the one the migrations make at its version.

A restored dump is a file from elsewhere: its `schema_version` says which migrations made it, and its
schema must then hold exactly their tables (each column's name, type, collation, NOT NULL, default and
identity), constraints, indexes, views, sequences, functions, triggers and collations, each as
PostgreSQL prints it back (`pg_get_constraintdef`, `pg_get_indexdef`, `pg_get_triggerdef`, ...), no more
and no fewer. The schema a version should have is made in the same database, in a scratch schema
inside a transaction that is rolled back (`difference`): the same server prints both the same way, and
nothing of it stays. The leadership lease's tables are a running process's state, not the record's
schema (`NOT_RECORD`), and are left out of both sides.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from proctor.storage.copy_engines import NOT_RECORD
from proctor.storage.db import MIGRATIONS_DIR, migration_files
from proctor.storage.postgres import VERSION_TABLE, PgConnection

POSTGRES_MIGRATIONS = MIGRATIONS_DIR / "postgres"
_PROCESS_TABLES = tuple(sorted(NOT_RECORD - {VERSION_TABLE}))  # the lease's: not compared

Schema = frozenset[tuple[str, str, str]]  # (kind, name, definition) of every object

# Each kind of object of the schema named by the parameter `s`, as (name, definition); `t` is the tuple
# of tables left out. The definitions are printed with the schema's own name taken out (`_unqualified`).
_QUERIES: dict[str, str] = {
    "column": """
        SELECT c.relname || '.' || a.attname,
               concat_ws(' ', a.attnum, format_type(a.atttypid, a.atttypmod), co.collname,
                         CASE WHEN a.attnotnull THEN 'not null' END, pg_get_expr(d.adbin, d.adrelid),
                         nullif(a.attidentity, ''), nullif(a.attgenerated, ''))
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 100
         WHERE n.nspname = :s AND c.relkind IN ('r', 'p', 'v') AND a.attnum > 0 AND NOT a.attisdropped
           AND c.relname <> ALL(:t)""",
    "table": """
        SELECT c.relname, c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = :s AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relname <> ALL(:t)""",
    "constraint": """
        SELECT c.relname || '.' || k.conname, pg_get_constraintdef(k.oid)
          FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = k.connamespace
         WHERE n.nspname = :s AND c.relname <> ALL(:t)""",
    "index": """
        SELECT i.relname, pg_get_indexdef(i.oid)
          FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
          JOIN pg_namespace n ON n.oid = i.relnamespace
         WHERE n.nspname = :s AND c.relname <> ALL(:t)""",
    "view": """
        SELECT c.relname, pg_get_viewdef(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = :s AND c.relkind IN ('v', 'm')""",
    "sequence": """
        SELECT c.relname, concat_ws(' ', format_type(q.seqtypid, NULL), q.seqincrement, q.seqmin, q.seqmax,
                                    q.seqcycle)
          FROM pg_sequence q JOIN pg_class c ON c.oid = q.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = :s""",
    "function": """
        SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', pg_get_functiondef(p.oid)
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = :s""",
    "trigger": """
        SELECT c.relname || '.' || g.tgname, pg_get_triggerdef(g.oid)
          FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = :s AND NOT g.tgisinternal AND c.relname <> ALL(:t)""",
    "collation": """
        SELECT co.collname, concat_ws(' ', co.collprovider, co.collisdeterministic, co.colliculocale,
                                      co.collcollate, co.collctype)
          FROM pg_collation co JOIN pg_namespace n ON n.oid = co.collnamespace WHERE n.nspname = :s""",
    "type": """
        SELECT t.typname, t.typtype::text FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = :s AND t.typtype IN ('e', 'd', 'r', 'm')""",
}


def schema_of(conn: PgConnection, schema: str) -> Schema:
    """Every object of `schema` (a namespace of the connected database) as (kind, name, definition)."""
    found = set()
    for kind, sql in _QUERIES.items():
        for name, definition in _rows(conn, sql, {"s": schema, "t": list(_PROCESS_TABLES)}):
            found.add((kind, name, _unqualified(str(definition), schema)))
    return frozenset(found)


def difference(conn: PgConnection, schema: str, version: int) -> str | None:
    """The first object of `schema` that is not as the PostgreSQL migrations up to `version` make it,
    or that they make and it lacks, in words ("trigger papers.spy is not part of it"); None when the two
    are the same. Runs in a transaction of its own on `conn` (autocommit), rolled back: the migrations
    are applied in a scratch schema of the same database to see what they make."""
    scratch = f"proctor_expected_{secrets.token_hex(4)}"
    conn.execute("BEGIN")
    try:
        conn.execute(f"CREATE SCHEMA {scratch}")
        conn.execute(f"SET LOCAL search_path = {scratch}")
        for number, path in migration_files(POSTGRES_MIGRATIONS):
            if number <= version:
                conn.execute(path.read_text(encoding="utf-8"))
        made = schema_of(conn, scratch)
    finally:
        conn.execute("ROLLBACK")
    found = schema_of(conn, schema)
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


def _rows(conn: PgConnection, sql: str, params: dict[str, Any]) -> list[Any]:
    return list(conn.execute(sql, params).fetchall())


def _unqualified(definition: str, schema: str) -> str:
    """`definition` with `schema.` and `"schema".` taken out of the names in it, and its layout (runs of
    whitespace) made one space."""
    text = re.sub(rf'(?<![\w$"])("{re.escape(schema)}"|{re.escape(schema)})\.', "", definition)
    return " ".join(text.split())
