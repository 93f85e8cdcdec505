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
import pickle
import tempfile
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, wait
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

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
        _end(self._process, kill)
        self._process = None

    def __enter__(self) -> Beside[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop(kill=True)


def _end(process: Any, kill: bool) -> None:
    """A child (if any) that is done, or is stopped now with `kill`: joined later (`reap`)."""
    if process is not None:
        if kill and process.is_alive():
            process.terminate()
        end_later(process)


# Children that are done, or stopping, but not joined yet. A child's exit takes the kernel
# 10-30 ms at 10,000 papers (its memory is taken down), and joining it at once made the build's
# process wait that long, five times a build, while the other core did the taking down.
_ENDING: list[Any] = []


def end_later(child: Any) -> None:
    """Join `child` (a process, or a pool that was closed) in `reap`, not now."""
    _ENDING.append(child)


def reap() -> None:
    """Join every child `end_later` was given (the build calls it as it ends)."""
    while _ENDING:
        _ENDING.pop().join()


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


class Streamed(Generic[T]):
    """The items `fn(*args)` yields, made in a forked child (when `fork` is true) and taken one by
    one as it makes them: `ready()` takes those made so far without waiting, so the parent can
    take them between pieces of its own work; `rest()` waits for the others. Without the child,
    `rest()` makes them all in this process. If the child dies, `rest()` returns what came (the
    caller redoes what is missing); an exception in `fn` is raised again here.

    The child appends each item, pickled, to a temporary file rather than a pipe: a pipe holds
    64 KB, so a child whose items are larger would wait for the parent after each one."""

    def __init__(self, fork: bool, fn: Callable[..., Iterable[T]], *args: Any) -> None:
        self._fn, self._args = fn, args
        self._process: Any = None
        self._file: Records | None = None
        self._done: Connection | None = None  # closed by the child once it has written its last record
        if fork:
            self._file = Records()
            context = multiprocessing.get_context("fork")
            self._done, done = context.Pipe(duplex=False)
            self._process = context.Process(target=_stream_child, args=(self._file, fn, args, done), daemon=True)
            self._process.start()
            done.close()

    def ready(self) -> list[T]:
        return self._records()

    def rest(self) -> list[T]:
        if self._process is None and self._file is None:
            return list(self._fn(*self._args))
        return self._finish(kill=False)

    def finished(self) -> bool:
        """Whether no more items are coming: the child wrote its last one or died (or there is no
        child: `rest()` makes them all)."""
        return self._done is None or self._done.poll()

    def cut(self) -> list[T]:
        """Stop the child now and take the whole items it made so far (none without a child)."""
        return self._finish(kill=True)

    def _finish(self, kill: bool) -> list[T]:
        if not kill and self._done is not None:
            # Until the child has written everything (or died), not until it has exited.
            wait([self._done])
        _end(self._process, kill)
        self._process = None
        try:
            return self._records()
        finally:
            self._stop(kill=False)

    def _records(self) -> list[T]:
        """The whole records after the last one taken (an error record raises)."""
        out: list[T] = []
        if self._file is None:
            return out
        for kind, value in self._file.new():
            if kind == "error":
                self._stop(kill=True)
                raise value
            if kind == "item":
                out.append(value)
        return out

    def _stop(self, kill: bool) -> None:
        _end(self._process, kill)
        self._process = None
        if self._done is not None:
            self._done.close()
            self._done = None
        if self._file is not None:
            self._file.close()
            self._file = None

    def close(self) -> None:
        """Stop the child if it still runs, and drop what it made."""
        self._stop(kill=True)

    def __enter__(self) -> Streamed[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class Records:
    """Values appended to a temporary file by one process and read by others that share it (made
    before they fork): each reader reads the whole records after the last one it read, and never
    one that is still being written."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = tempfile.TemporaryFile()
        self._pos = 0  # this process's own: a forked reader starts from where its parent was

    def append(self, value: Any) -> None:
        assert self._file is not None
        record = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        # Readers take only whole records: a length whose bytes are not all written yet waits.
        data = memoryview(len(record).to_bytes(_LENGTH, "little") + record)
        while data:
            data = data[os.write(self._file.fileno(), data):]

    def new(self) -> list[Any]:
        """The whole records after the last one this process read."""
        out: list[Any] = []
        if self._file is None:
            return out
        fd = self._file.fileno()
        end = os.fstat(fd).st_size
        while self._pos + _LENGTH <= end:
            size = int.from_bytes(os.pread(fd, _LENGTH, self._pos), "little")
            if self._pos + _LENGTH + size > end:
                break  # still being written (or cut off, if the writer died)
            out.append(pickle.loads(os.pread(fd, size, self._pos + _LENGTH)))
            self._pos += _LENGTH + size
        return out

    def fileno(self) -> int:
        assert self._file is not None
        return self._file.fileno()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


_LENGTH = 8  # bytes of a record's length prefix


def _stream_child(out: Records, fn: Callable[..., Iterable[Any]], args: tuple[Any, ...],
                  done: Connection | None = None) -> None:
    def put(kind: str, value: Any) -> None:
        out.append((kind, value))

    try:
        for item in fn(*args):
            put("item", item)
        put("end", None)
    except BaseException as exc:  # raised again in the parent, as a serial run would
        try:
            put("error", exc)
        except Exception as again:
            put("error", RuntimeError(f"{exc!r} (in a forked worker; {again})"))
    finally:
        if done is not None:
            done.close()  # everything is written: the parent need not wait for this process to exit
