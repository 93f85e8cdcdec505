"""Progress of long builds on a terminal (`reading digests 120/236`), silent everywhere else.

Shown only when stderr is a terminal, and never in CI (`CI=true`) or with
`READINGLIST_PROGRESS=off`; the line is redrawn in place at most ten times a second and erased
when the stage ends, so logs and test output never see it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

from . import switches

T = TypeVar("T")
_INTERVAL = 0.1


def enabled(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    if not switches.on("READINGLIST_PROGRESS") or switches.ci():
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


class Progress:
    """One stage's counter: `update(n)` redraws `readinglist: <label> n/total` now and then."""

    def __init__(self, label: str, total: int | None = None, stream: TextIO | None = None,
                 show: bool | None = None) -> None:
        self.label = label
        self.total = total
        self.stream = stream or sys.stderr
        self.show = enabled(self.stream) if show is None else show
        self._last = 0.0
        self._drawn = False

    def text(self, done: int) -> str:
        of = f"/{self.total}" if self.total is not None else ""
        return f"readinglist: {self.label} {done}{of}"

    def update(self, done: int) -> None:
        if not self.show:
            return
        now = time.monotonic()
        if now - self._last < _INTERVAL and done != self.total:
            return
        self._last = now
        self.stream.write("\r\x1b[K" + self.text(done))
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


def track(items: Iterable[T], label: str, total: int | None = None) -> Iterator[T]:
    """`items`, counting them on the terminal as they are consumed."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    bar = Progress(label, total)
    try:
        for n, item in enumerate(items, start=1):
            yield item
            bar.update(n)
    finally:
        bar.close()
