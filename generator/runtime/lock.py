"""One build at a time per list: `readinglist build`, `serve`'s rebuilds and `mkdocs build` take the
same lock, so a second build waits for the first instead of writing the same build folder at once
(two builds together had one die on the other's temporary file, and could leave a mixed folder).

The lock is the operating system's (`fcntl.flock` on `.readinglist-cache/build.lock` beside
mkdocs.yml: git-ignored, never in content/ or the site), so a build killed at any moment leaves no
stale lock behind. The file holds the pid of the build that has it, only to say whom a waiting
build waits for. Within one process the lock is re-entrant (the MkDocs plugin holds it from
`on_pre_build` to `on_post_build`, and the generator's build inside takes it again).
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .memo import CACHE_DIR

LOCK = "build.lock"


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class ListLock:
    """The build lock of the list whose mkdocs.yml is in `root` (one object per list and process)."""

    def __init__(self, root: Path) -> None:
        self.path = root / CACHE_DIR / LOCK
        self._thread = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def acquire(self, say: Callable[[str], None] = _stderr) -> None:
        self._thread.acquire()
        self._depth += 1
        if self._depth > 1:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            return  # no lock can be made (a read-only or full disk): the build says what fails
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            say(f"readinglist: another build of this list is running{holder}; waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        self._fd = fd
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except OSError:
            pass  # (only the message of a build that waits needs it)

    def release(self) -> None:
        if self._depth == 0:
            return
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing releases the lock
        self._thread.release()

    @contextmanager
    def held(self, say: Callable[[str], None] = _stderr) -> Iterator[None]:
        self.acquire(say)
        try:
            yield
        finally:
            self.release()


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (process {pid})" if pid.isdigit() else ""


_locks: dict[Path, ListLock] = {}
_guard = threading.Lock()


def for_list(root: Path) -> ListLock:
    """The one ListLock of this process for the list in `root`."""
    root = root.resolve()
    with _guard:
        lock = _locks.get(root)
        if lock is None:
            lock = _locks[root] = ListLock(root)
        return lock
