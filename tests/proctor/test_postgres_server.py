"""The tests' PostgreSQL: a real server, a database of each test's own."""

import psycopg


def test_each_test_gets_an_empty_database_of_its_own(pg_url: str, postgres_url: str) -> None:
    assert pg_url != postgres_url
    with psycopg.connect(pg_url, autocommit=True) as con:
        assert con.execute("SELECT current_database()").fetchone()[0].startswith("t_")
        tables = con.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0]
        assert tables == 0
        con.execute("CREATE TABLE mine (n int)")
