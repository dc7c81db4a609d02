"""A small CSV read in a child process, as `proctor import` and a chat upload read a file: the cost of one
read through the project's zygote (bank.child_process), and the same read through the standard library's
multiprocessing forkserver with the readers preloaded, for comparison.

Each way runs in a fresh interpreter of its own (this script with `--way`). Printed per way: the first
read (it starts the zygote or the forkserver), then the median wall time of the next --reads reads,
and the CPU per read of the whole process tree (this process, the server and its readers: counted
after the server has been stopped and reaped).

The forkserver inherits the environment of the process that starts it and takes no other: here,
single-threaded, os.environ is cut to the children's allow-list around its start, which a threaded
bot cannot do (bank/child_process.py says why the zygote stays).

    python bench/bench_child_reads.py [--reads 40]
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.forkserver
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bank import child_process  # noqa: E402
from bank.formats.files import parse_any, read_any  # noqa: E402

CSV = ("题型,题干,选项A,选项B,选项C,选项D,答案\n"
       "单选,2+2?,3,4,5,6,B\n"
       "多选,Even numbers?,1,2,3,4,BD\n"
       "判断,The sky is blue,,,,,对\n")


def _read_in_forkserver_child(path: str, result: str) -> None:
    """The forkserver child's work, as the zygote's reader does it: niced, the papers pickled to a file."""
    os.nice(child_process.NICENESS)
    papers = parse_any(path)
    with open(result, "wb") as f:
        pickle.dump(papers, f)


def _forkserver_read(ctx: multiprocessing.context.ForkServerContext, path: Path, work: Path) -> None:
    result = work / "result"
    p = ctx.Process(target=_read_in_forkserver_child, args=(str(path), str(result)))
    p.start()
    p.join(20.0)
    if p.is_alive():
        p.kill()
        p.join()
        raise TimeoutError(path)
    with result.open("rb") as f:
        pickle.load(f)
    result.unlink()


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def one_way(way: str, reads: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = work / "quiz.csv"
        path.write_text(CSV)
        cpu0, t0 = _cpu(), time.perf_counter()
        if way == "forkserver":
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["__main__", "bank.formats.files", "bank.authoring.upload"])
            saved = dict(os.environ)
            os.environ.clear()
            os.environ.update(child_process.child_env())
            ctx.Process(target=os.getpid).start()  # starts the forkserver in the clean environment
            os.environ.clear()
            os.environ.update(saved)

            def read() -> None:
                _forkserver_read(ctx, path, work)
        else:
            def read() -> None:
                read_any(path)
        read()
        first = time.perf_counter() - t0
        walls = []
        for _ in range(reads):
            t = time.perf_counter()
            read()
            walls.append(time.perf_counter() - t)
        if way == "forkserver":
            multiprocessing.forkserver._forkserver._stop()  # reaped: its CPU and its readers' are counted
        else:
            child_process.shutdown()
        cpu = _cpu() - cpu0
    print(f"{way:10}  first read {first * 1000:6.0f} ms   then median {statistics.median(walls) * 1000:5.1f} ms "
          f"wall, {cpu / (reads + 1) * 1000:5.1f} ms CPU per read (the tree, start-up spread over {reads + 1})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reads", type=int, default=40)
    parser.add_argument("--way", choices=["zygote", "forkserver"])
    args = parser.parse_args()
    if args.way:
        one_way(args.way, args.reads)
        return
    for way in ("zygote", "forkserver", "zygote", "forkserver"):
        subprocess.run([sys.executable, __file__, "--way", way, "--reads", str(args.reads)], check=True)


if __name__ == "__main__":
    main()
