"""The real `proctor run` on a PostgreSQL URL: it migrates an empty database, fills the bundled bank,
takes a candidate's exam answer and keeps it across a restart; the URL's password is in no line it
prints."""

from __future__ import annotations

import json

from proctor.storage.db import migration_files
from tests.engines import POSTGRES_DIR
from tests.harness import at_place
from tests.postgres_fixtures import pg_rows
from tests.process_helpers import STARTUP, ProctorProcess, child_env, start_paper, type_answer


async def _run(tmp_path, api, url: str) -> ProctorProcess:
    return await ProctorProcess.start(["run"], env=child_env(tmp_path, api, PROCTOR_DB=url), cwd=tmp_path)


async def test_proctor_run_on_postgresql_keeps_an_answer_across_a_restart(tmp_path, api, pg_url):
    ann = api.user(1001, "Ann", language_code="en")
    first = await _run(tmp_path, api, pg_url)
    second = None
    try:
        await start_paper(api, ann)
        await type_answer(api, ann, "批量大小", next_q=2)
        assert await first.stop() == 0
        assert [json.loads(r[0]) for r in pg_rows(pg_url, "SELECT response FROM answers")] == ["批量大小"]
        newest = max(number for number, _ in migration_files(POSTGRES_DIR))
        assert pg_rows(pg_url, "SELECT version FROM schema_version") == [(newest,)]

        second = await _run(tmp_path, api, pg_url)
        await ann.send("/resume")
        screen = await ann.wait_message(lambda m: at_place(m.text, 2), timeout=STARTUP)
        assert at_place(screen.text, 2), screen.text
        await api.wait_idle(timeout=10)
        assert await second.stop() == 0
        assert pg_rows(pg_url, "SELECT COUNT(*), MIN(status) FROM attempts") == [(1, "running")]
    finally:
        await first.cleanup()
        if second is not None:
            await second.cleanup()
