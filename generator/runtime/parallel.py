"""Parallel work, behind one call: `map_in_order(fn, items)` is `[fn(x) for x in items]`.

Rendering ten thousand paper pages and writing their BibTeX entries are most of the
generator's time, and each item depends only on the finished model. On a machine with several
cores and `fork`, long lists are split into contiguous runs that forked worker processes take
in turn; the results come back in item order, so the output is the same as a serial run
(tests/runtime/test_parallel.py builds a list both ways and compares the files). The workers
inherit `fn` and the items when they are forked (nothing of the model is pickled to them), and
send back only their results.

`READINGLIST_JOBS` sets the number of processes (`1`: everything in this process); otherwise
lists under `PARALLEL_MIN` items, and machines without `fork`, work serially.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .progress import track

T = TypeVar("T")
R = TypeVar("R")

# Below this many items a pool costs more than it saves (its start is about 0.05 s).
PARALLEL_MIN = 2000
# The items and the function of the running map, set just before the workers fork so that they
# inherit them; cleared when the map ends. Private to this module: nothing else reads it.
_TASK: dict[str, Any] = {}


def jobs_for(count: int) -> int:
    """Processes to use for `count` items: `READINGLIST_JOBS`, else the cores for long lists."""
    value = os.environ.get("READINGLIST_JOBS", "")
    if value.isdigit() and int(value) >= 1:
        return int(value)
    if count < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(os.cpu_count() or 1, 4))


def map_in_order(fn: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
                 label: str = "working", meanwhile: Callable[[], None] | None = None) -> list[R]:
    """`[fn(item) for item in items]`, on `jobs` processes (default: `jobs_for(len(items))`).
    `meanwhile()` is run in this process while the workers work (after the items when serial)."""
    jobs = jobs_for(len(items)) if jobs is None else jobs
    if jobs < 2 or len(items) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        out = [fn(item) for item in track(items, label)]
        if meanwhile is not None:
            meanwhile()
        return out
    runs = _runs(len(items), jobs)
    _TASK.update(fn=fn, items=items)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.imap(_run, runs)
            if meanwhile is not None:
                meanwhile()
            out = []
            for part in track(parts, label, total=len(runs)):
                out.extend(part)
            return out
    finally:
        _TASK.clear()


def _run(run: tuple[int, int]) -> list[Any]:
    """In a worker: `fn` of the items of one run."""
    fn, items = _TASK["fn"], _TASK["items"]
    return [fn(item) for item in items[run[0]:run[1]]]


def _runs(count: int, jobs: int) -> list[tuple[int, int]]:
    """Contiguous (start, end) runs, shorter towards the end: the last to finish are short, so no
    worker waits long for another at the end, and the first are long, so there are few to hand out."""
    runs: list[tuple[int, int]] = []
    start = 0
    while start < count:
        size = max(50, min(count // (jobs * 8) + 1, (count - start) // (jobs * 3) + 1))
        runs.append((start, min(start + size, count)))
        start += size
    return runs
