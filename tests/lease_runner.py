"""A process that runs for the lease and, while it leads, writes a counter row every 100 ms under
`fence`: the real-process lease tests (tests/process/test_lease_failover.py) start two on one database.

    python -m tests.lease_runner URL [--ignore-stop]

One line per event on stdout, each stamped with time.monotonic() (one clock for every process on the
machine): `standby holder=H at=T`, `active epoch=E at=T`, `stopped reason=R epoch=E last_renew=T0
at=T`, `refused epoch=E at=T`, `exit at=T`. The lease's own log goes to stderr. With --ignore-stop the
writer keeps writing after the campaign stops, as a write already under way would, until the fence
refuses one: the fence, not the writer's good manners, keeps two writers apart.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time

import psycopg

from proctor.storage.campaign import Campaign, Stop, StopReason
from proctor.storage.lease import WRITE_SESSION_OPTIONS, StaleEpoch, fence

COUNTER_DDL = """
CREATE TABLE IF NOT EXISTS lease_counter (
    id bigserial PRIMARY KEY,
    holder text NOT NULL,
    epoch bigint NOT NULL,
    n int NOT NULL,
    written_at timestamptz NOT NULL DEFAULT clock_timestamp()
)
"""
WRITE_EVERY = 0.1


def say(event: str, **fields: object) -> None:
    words = [event, *(f"{k}={v}" for k, v in fields.items()), f"at={time.monotonic():.3f}"]
    print(" ".join(words), flush=True)


def write_counter(url: str, holder: str, epoch: int, keep_writing: threading.Event) -> bool:
    """Writes a row every WRITE_EVERY under `fence` while `keep_writing`; True when the fence refused one."""
    conn: psycopg.Connection | None = None
    n = 0
    while keep_writing.is_set():
        try:
            if conn is None or conn.closed:
                conn = psycopg.connect(url, autocommit=True, connect_timeout=2, options=WRITE_SESSION_OPTIONS)
            with conn.transaction():
                conn.execute("INSERT INTO lease_counter (holder, epoch, n) VALUES (%s, %s, %s)", (holder, epoch, n))
                fence(conn, epoch)
            n += 1
        except StaleEpoch:
            return True
        except psycopg.OperationalError as e:
            print(f"write failed: {e}".splitlines()[0], file=sys.stderr, flush=True)
            if conn is not None:
                conn.close()
        time.sleep(WRITE_EVERY)
    return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.lease_runner")
    parser.add_argument("url")
    parser.add_argument("--ignore-stop", action="store_true", help="keep writing after the campaign stops")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(relativeCreated)d %(name)s %(message)s")

    active = threading.Event()
    keep_writing = threading.Event()
    finished = threading.Event()

    def on_active(epoch: int) -> None:
        say("active", epoch=epoch)
        keep_writing.set()
        active.set()

    def on_stopped(stop: Stop) -> None:
        say("stopped", reason=stop.reason.value, epoch=stop.epoch, last_renew=f"{stop.last_renew:.3f}")
        if not args.ignore_stop:
            keep_writing.clear()
            finished.set()

    campaign = Campaign(args.url, on_active=on_active, on_stopped=on_stopped)
    say("standby", holder=campaign.holder)
    campaign.start()
    active.wait()

    def writer() -> None:
        if write_counter(args.url, campaign.holder, campaign.epoch, keep_writing):
            say("refused", epoch=campaign.epoch)
            campaign.step_down(StopReason.fenced)
        finished.set()

    # a daemon, as the campaign's threads: a write stuck on a cut connection must not keep the process
    threading.Thread(target=writer, name="writer", daemon=True).start()
    finished.wait()
    say("exit")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
