"""Readers, one per input format, chosen by looking at the content rather than the file name."""

from __future__ import annotations

import mmap
import multiprocessing
import re
import struct
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..errors import Problems
from ..forked import Streamed, worth_forking
from ..model import evolve
from ..runtime.progress import Progress
from . import listing, tmlr
from .common import RawDigest
from .dates import resolve_date
from .decode import read_text
from .dupes import drop_duplicates


@dataclass(frozen=True)
class Reader:
    format: str
    detect: Callable[[str], bool]
    read: Callable[[str, str, Problems], RawDigest]


READERS: tuple[Reader, ...] = (
    Reader(tmlr.FORMAT, tmlr.detect, tmlr.read),
    Reader(listing.FORMAT, listing.detect, listing.read),
)

# Files in the seeds folder that are not digests.
_NOT_DIGESTS = {".yml", ".yaml", ".md", ".json"}


def digest_files(seeds_dir: Path) -> list[Path]:
    if not seeds_dir.is_dir():
        return []
    return sorted(
        p for p in seeds_dir.rglob("*")
        if p.is_file() and not p.name.startswith(".") and p.suffix.lower() not in _NOT_DIGESTS
    )


def read_digest(path: Path, display: str, problems: Problems) -> RawDigest | None:
    text = read_text(path, display, problems)
    if text is None:
        return None
    reader = next((r for r in READERS if r.detect(text)), None)
    if reader is None:
        problems.error(display, 1, "not a digest format I know (expected a TMLR digest e-mail "
                       "or text copied from a paper-listing page); skipped")
        return None
    raw = reader.read(display, text, problems)
    drop_duplicates(raw, problems)
    if not raw.papers:
        problems.error(display, 1, f"read as a {reader.format} digest but found no papers")
        return raw
    if raw.date is None:
        date, source = resolve_date(path, display, problems)
        raw.date, raw.date_source = date, source
    raw.papers = [p if p.date else evolve(p, date=raw.date) for p in raw.papers]
    return raw


# Digests under this many bytes in all are read in one process (a fork costs more than it saves).
PARALLEL_MIN_BYTES = 2_000_000

Read = tuple[int, "RawDigest | None", Problems]  # a digest's place in file order, what it held, its messages


def read_all(seeds_dir: Path, root: Path, problems: Problems,
             meanwhile: Callable[[], None] | None = None) -> list[RawDigest]:
    """Every digest in `seeds_dir`, in file order, and their messages in that order. With many,
    a forked child reads them from the last one back while this process reads from the first,
    until they meet (forked.py), so both finish together however fast each one goes; what the
    child read comes over as it goes, and this process takes it in between its own files.
    `meanwhile` is run by this process first, while the child is already reading."""
    paths = digest_files(seeds_dir)
    fork = len(paths) > 1 and worth_forking(sum(_size(p) for p in paths), PARALLEL_MIN_BYTES)
    claims = Claims(len(paths), shared=fork)
    root = root.resolve()  # once, not once per file
    done: dict[int, Read] = {}
    bar = Progress("reading digests", len(paths))
    try:
        with Streamed(fork, _read_claimed, paths, root, claims, True) as theirs:
            if meanwhile is not None:
                meanwhile()
            for read in _read_claimed(paths, root, claims, False):
                done[read[0]] = read
                done.update((r[0], r) for r in theirs.ready())
                bar.update(claims.taken())
            done.update((r[0], r) for r in theirs.rest())
    finally:
        bar.close()
    out = []
    for index in range(len(paths)):
        # (A file the child took but never sent, had it died, is read here.)
        _, raw, found = done[index] if index in done else _read_one(paths, root, index)
        problems.extend(found)
        if raw is not None:
            out.append(raw)
    return out


class Claims:
    """Which digests are taken: one process takes them from the first on, the other from the
    last back, until they meet. Two counters, `shared`: in memory shared across a fork, under a
    lock (not made otherwise: a system without POSIX semaphores reads in one process still)."""

    def __init__(self, count: int, shared: bool = True) -> None:
        self.count = count
        self._shared = mmap.mmap(-1, 16) if shared else bytearray(16)
        struct.pack_into("qq", self._shared, 0, 0, count)
        self._lock = multiprocessing.get_context("fork").Lock() if shared else nullcontext()

    def take(self, from_back: bool) -> int | None:
        """The index of the next digest from the front (or the back), None when all are taken."""
        with self._lock:
            front, back = struct.unpack_from("qq", self._shared)
            if front >= back:
                return None
            if from_back:
                struct.pack_into("q", self._shared, 8, back - 1)
                return back - 1
            struct.pack_into("q", self._shared, 0, front + 1)
            return front

    def taken(self) -> int:
        front, back = struct.unpack_from("qq", self._shared)
        return front + self.count - back


def _read_claimed(paths: list[Path], root: Path, claims: Claims, from_back: bool) -> Iterator[Read]:
    """(index, digest, messages) of every digest this process claims, as it reads them."""
    while (index := claims.take(from_back)) is not None:
        yield _read_one(paths, root, index)


def _read_one(paths: list[Path], root: Path, index: int) -> Read:
    problems = Problems()
    return index, read_digest(paths[index], _display(paths[index], root), problems), problems


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _display(path: Path, root: Path) -> str:
    """`path` relative to `root` (resolved already), safe to print."""
    try:
        text = path.resolve().relative_to(root).as_posix()
    except ValueError:
        text = path.as_posix()
    # A file name is input too: bytes that are not UTF-8 (surrogates here) could not be written to
    # a page, and control characters would reach the terminal in messages.
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return re.sub(r"[\x00-\x1f\x7f-\x9f]", "?", text)
