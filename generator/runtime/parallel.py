"""The one place the build runs work in other processes: `map_ordered`.

Only the references stage needs it (render/references.py): citeproc-py formats a reference in
milliseconds (docs/developer-guide/benchmark.md gives its cost), so the first build of a
10,000-paper list spends over a minute there, all of it pure Python that one process runs on one
core. Everything else in the build takes milliseconds a paper and gained nothing from worker
processes (issue #21 removed them).

- The result is the same list, in the same order, as `[fn(x) for x in items]` (the serial run is
  the oracle: tests/render/test_references.py compares the two).
- Workers are started with `spawn`, not `fork`: `readinglist serve` builds in a thread beside
  the watcher's and the server's, and a forked child of a threaded process can hang on a lock
  another thread held.
- If the workers cannot start (a script that calls the build without an `if __name__ ==
  "__main__":` guard, which each spawned worker would run again), the work is done serially.
- `READINGLIST_WORKERS=1` runs everything in this process (the benchmark's `serial-references`
  variant); `READINGLIST_WORKERS=n` caps the workers at n. By default: one per CPU this process
  may use, and only when there is enough work to pay for starting them (each imports citeproc-py,
  about half a second).
- With a `label`, the work is counted on the terminal as it is done (runtime/progress.py:
  `readinglist: formatting references 3200/19874`), so the minute of a big list's first build
  does not look like a hang.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from . import switches
from .progress import track

T = TypeVar("T")
R = TypeVar("R")

ENV = "READINGLIST_WORKERS"


def workers() -> int:
    """How many processes may work at once: `READINGLIST_WORKERS`, else the usable CPUs."""
    given = switches.count(ENV)
    if given is not None:
        return given
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def map_ordered(fn: Callable[[T], R], items: Sequence[T], *, min_per_worker: int,
                label: str | None = None) -> list[R]:
    """`[fn(x) for x in items]`, spread over worker processes when each would get at least
    `min_per_worker` items. `fn` must be a module-level function; items and results pickle.
    `label`: what the terminal's progress line calls the work (none without it)."""
    count = min(workers(), len(items) // max(1, min_per_worker))
    if count <= 1:
        return [fn(x) for x in _counted(items, label, len(items))]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Chunks of a few dozen: big enough that pickling costs little, small enough that the
    # workers finish together.
    chunk = max(1, min(64, len(items) // (count * 8)))
    try:
        with ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn")) as pool:
            return list(_counted(pool.map(fn, items, chunksize=chunk), label, len(items)))
    except (BrokenProcessPool, OSError):
        # A spawned worker first imports the script that started the build, as `__mp_main__`;
        # a script that builds without an `if __name__ == "__main__":` guard makes it fail (so
        # may a machine out of processes). The work is then done here, with the same result.
        return [fn(x) for x in _counted(items, label, len(items))]


def _counted(results: Iterable[R], label: str | None, total: int) -> Iterable[R]:
    """`results`, counted on the terminal as they come when there is a label."""
    return track(results, label, total) if label else results
