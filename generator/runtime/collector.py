"""Python's cyclic garbage collector, paused while a build's stages run.

A build of 10,000 papers makes a few million small objects: YAML nodes of `citekeys.yml`, copies
of papers, CSL items, `papers.json` and search records, pieces of pages. They form no reference
cycles the collector could free (reference counting frees them: the peak memory is the same with
the collector paused, benchmark.md), yet the collector walks them again and again as the heap
grows: eleven passes over every object alive, 1.0-1.4 s of a 12 s generator run with the caches
kept (gc.callbacks, issue 34).

The pause is the build's, not the process's: the collector's previous state comes back when the
build ends, so MkDocs (which runs the build inside its own process through the plugin) and
`readinglist serve`'s other threads keep collecting between builds, and importing the package
changes nothing. A build that starts while the collector is already off (another build in a
thread, or a caller's own choice) leaves it as it finds it. `READINGLIST_GC_PAUSE=off` keeps the
collector running (the benchmark's `gc-running` variant measures what the pause buys).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from . import switches

SWITCH = "READINGLIST_GC_PAUSE"


@contextmanager
def paused() -> Iterator[None]:
    """The block runs with the cyclic collector off, then it is as it was."""
    if not gc.isenabled() or not switches.on(SWITCH):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
