"""One part of a stage computed in a forked child while the build's own process does another.

Reading, topic matching and related papers each run one Python step after another, so a build
used one core of two until rendering. Where a stage splits into independent parts (the first and
second half of the digests; topic tags and the word statistics of related papers), `Beside`
starts the second part in a child made by `fork` (it sees the parent's data as it was, nothing
is sent to it), the parent does the first, and `result()` receives the child's value (pickled
back through a pipe). The parts are put together in the same order as a serial run, so the
output is the same (tested with `READINGLIST_JOBS=2` on small inputs).

Without `fork` (Windows), on one core, for small inputs or with `READINGLIST_JOBS=1`, the part
is computed in the parent when its result is asked for: the same value, one core.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def worth_forking(count: int, minimum: int) -> bool:
    """Whether to fork for `count` items: `READINGLIST_JOBS` when set (1 = never, more = always),
    else when there are `minimum` items and two cores."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    value = os.environ.get("READINGLIST_JOBS", "")
    if value.isdigit() and int(value) >= 1:
        return int(value) > 1
    return count >= minimum and _cores() >= 2


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Beside(Generic[T]):
    """`fn(*args)`, in a forked child when `fork` is true, else in this process on `result()`.

    Use it as a context manager, so that a child whose result is never asked for (the parent's
    own part failed) is stopped rather than left behind.
    """

    def __init__(self, fork: bool, fn: Callable[..., T], *args: Any) -> None:
        self._fn, self._args = fn, args
        self._process: Any = None
        self._receive: Connection | None = None
        if fork:
            context = multiprocessing.get_context("fork")
            self._receive, send = context.Pipe(duplex=False)
            self._process = context.Process(target=_child, args=(send, fn, args), daemon=True)
            self._process.start()
            send.close()

    def result(self) -> T:
        if self._receive is None:
            return self._fn(*self._args)
        try:
            ok, value = self._receive.recv()
        except EOFError:
            # The child died without a word (killed, out of memory): do its part here instead.
            ok, value = True, self._fn(*self._args)
        finally:
            self._stop(kill=False)
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def _stop(self, kill: bool) -> None:
        if self._receive is not None:
            self._receive.close()
            self._receive = None
        if self._process is not None:
            if kill and self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._process = None

    def __enter__(self) -> Beside[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop(kill=True)


def _child(send: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        outcome: tuple[bool, Any] = (True, fn(*args))
    except BaseException as exc:  # raised again in the parent, as a serial run would
        outcome = (False, exc)
    try:
        send.send(outcome)
    except Exception as exc:  # an exception that cannot be pickled: its text at least
        send.send((False, RuntimeError(f"{outcome[1]!r} (in a forked worker; {exc})")))
    finally:
        send.close()
