"""Freed memory kept for reuse while the build's process reads and enriches (Linux with glibc).

Reading and enriching make and free numpy blocks of a few MB again and again (word numbering,
term counts, scores, reasons: 1,000 texts or 256 rows at a time, README, Performance). glibc's
`malloc` gives each block above its threshold (128 KB at first) pages of its own from the kernel
and hands them back when the block is freed, so every block costs page faults anew; and on the
virtual machines measured here a page fault is dear. While `kept` holds, blocks below 32 MB come from the heap and
freed memory stays there for the next block (glibc's `mallopt`: the mmap threshold raised to its
largest, trimming off).

Memory kept across a fork is shared with the child, so each page of it either process took again
would be copied rather than handed out zeroed: before every fork while it holds (the reading,
tagging, early, scoring and reasons children), what is free goes back to the kernel first
(`malloc_trim`, from an `os.register_at_fork` hook), and the build's process made a quarter fewer
page faults. Before the build forks the worker that renders beside it, `release` gives it back
and turns trimming on again (keeping it through the render measured no better). Cold
10,000-paper builds in interleaved pairs: README, Performance. Nothing happens on another C
library, or with `READINGLIST_MALLOC=default`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .memory import glibc

if TYPE_CHECKING:
    import ctypes

SWITCH = "READINGLIST_MALLOC"
# mallopt(3) parameters and values.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
KEEP_BELOW = 32 << 20     # glibc's largest mmap threshold on 64-bit systems
NEVER_TRIM = 1 << 30
DEFAULT_TRIM = 128 << 10  # glibc's default trim threshold


class Heap:
    """What `kept` yields: `release()` (once is enough; later calls do nothing)."""

    def __init__(self, libc: ctypes.CDLL | None) -> None:
        self._libc = libc
        self.keeping = libc is not None
        if libc is not None:
            libc.mallopt(_M_MMAP_THRESHOLD, KEEP_BELOW)
            libc.mallopt(_M_TRIM_THRESHOLD, NEVER_TRIM)
            _KEEPING.append(self)

    def trim(self) -> None:
        """What is free back to the kernel, trimming still off (before a fork)."""
        if self._libc is not None:
            self._libc.malloc_trim(0)

    def release(self) -> None:
        """Free memory back to the kernel, and the heap trimmed as glibc does by default from
        now on. (The mmap threshold stays raised, as glibc's own adjustment raises it after a
        large block is freed: the render's few large strings reuse the heap as well.)"""
        if self._libc is None or not self.keeping:
            return
        self.keeping = False
        _KEEPING.remove(self)
        self._libc.malloc_trim(0)
        self._libc.mallopt(_M_TRIM_THRESHOLD, DEFAULT_TRIM)


# The heaps keeping now, trimmed before each fork (a build in progress; the watcher's builds
# run one at a time).
_KEEPING: list[Heap] = []


def _before_fork() -> None:
    for heap in _KEEPING:
        heap.trim()


if hasattr(os, "register_at_fork"):  # (not on Windows, where nothing forks)
    os.register_at_fork(before=_before_fork)


def _libc() -> ctypes.CDLL | None:
    if os.environ.get(SWITCH, "").lower() in {"default", "off", "0", "no", "false"}:
        return None
    if not sys.platform.startswith("linux") or not glibc():
        return None
    import ctypes  # (here: a no-change build imports this module and never needs it)

    try:
        libc = ctypes.CDLL(None)  # the process's own symbols: glibc's malloc among them
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        return None
    return libc


@contextmanager
def kept() -> Iterator[Heap]:
    """Keep freed memory for reuse until `release()` (or the end of the block, whatever happens)."""
    heap = Heap(_libc())
    try:
        yield heap
    finally:
        heap.release()
