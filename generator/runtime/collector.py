"""Python's cyclic garbage collector, paused while a build runs.

A build makes a few million small objects (papers, their fields, pieces of pages) that hold no
reference cycles worth finding, and frees them together at the end; the collector's passes over
them, more frequent and longer as the heap grows, took 2.2 s of a 14 s generator run at 10,000
papers (the benchmark's `gc-on` variant measures it on the whole build). The previous state is
restored when the build ends, so a process that imports the package (MkDocs with the plugin)
keeps its own setting between builds. `READINGLIST_GC=on` leaves the collector running.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    if not gc.isenabled() or os.environ.get("READINGLIST_GC", "").lower() in {"on", "1", "yes"}:
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
