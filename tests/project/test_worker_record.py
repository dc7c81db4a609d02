"""The PostgreSQL half's record per test (tests/postgres_fixtures.py, `WorkerRecord`): one database per
test process, emptied before each test, yet each test starts from what a fresh, migrated one holds."""

from __future__ import annotations

import psycopg

from tests.postgres_fixtures import WorkerRecord, pg_rows


def test_each_test_gets_an_empty_record_whose_ids_start_again(postgres_url):
    record = WorkerRecord(postgres_url)
    try:
        url = record.fresh()
        fresh = pg_rows(url, "SELECT * FROM schema_version UNION ALL SELECT * FROM app_stamp")
        with psycopg.connect(url) as conn:
            conn.execute("INSERT INTO users (first_name, created_at) VALUES ('Ann', 0), ('Bo', 0)")
            conn.execute("UPDATE schema_version SET version = 1")
        held = psycopg.connect(url)  # a connection the last test left open, inside a transaction
        held.execute("SELECT * FROM users FOR UPDATE")
        url = record.fresh()
        held.close()
        assert pg_rows(url, "SELECT * FROM users") == []
        assert pg_rows(url, "SELECT * FROM schema_version UNION ALL SELECT * FROM app_stamp") == fresh
        assert pg_rows(url, "SELECT sequencename FROM pg_sequences WHERE last_value IS NOT NULL") == []  # as new
        with psycopg.connect(url) as conn:
            assert conn.execute("INSERT INTO users (first_name, created_at) VALUES ('Cy', 0) RETURNING id"
                                ).fetchone() == (1,)
    finally:
        record.drop()


def test_a_test_that_changed_the_schema_leaves_it_to_be_made_again(postgres_url):
    record = WorkerRecord(postgres_url)
    try:
        url = record.fresh()
        with psycopg.connect(url) as conn:
            conn.execute("ALTER TABLE users ADD COLUMN extra integer")
            conn.execute("DROP TRIGGER questions_seq_given ON questions")
        url = record.fresh()
        assert "extra" not in [c for (c,) in pg_rows(
            url, "SELECT column_name FROM information_schema.columns WHERE table_name = 'users'")]
        assert pg_rows(url, "SELECT tgname FROM pg_trigger WHERE tgname = 'questions_seq_given'") != []
    finally:
        record.drop()
