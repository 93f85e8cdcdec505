"""Paper pages rendered on every core.

Rendering ten thousand paper pages (BibTeX through pybtex, the neighbourhood picture, the
HTML) is most of the generator's time, and each page depends only on the finished model. On a
machine with several cores the pages are split into short contiguous runs that this process and
forked workers (one per other core) take in turn (`RunClaims`), one worker first making the
pages that need no BibTeX (`meanwhile`), and the results are put together in paper order, so the
output is the same text as a serial run (tested). The
BibTeX entries the tag, digest and reference files reuse are all in this process before the
workers finish (made ahead, generator/early.py, or made here meanwhile). Small lists (under
`PARALLEL_MIN` papers) and machines without `fork` render serially; `READINGLIST_JOBS=1` forces
that.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import struct
from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack
from typing import Any

from ..enrich import bibtex
from ..forked import Beside, Records
from ..model import Library, Paper
from ..prewrite import Prewrite, TreeFiles, Wrote
from ..runtime.progress import track
from ..write import Content, Pieces

PARALLEL_MIN = 2000
# What the workers render: set just before the fork, so they inherit it instead of unpickling it.
_JOB: dict[str, Any] = {}

RenderOne = Callable[[Paper], dict[str, str]]
# Files made in groups (the listings): each group is written before the next one is made.
Groups = Callable[[], Iterable[Mapping[str, Content]]]


def jobs_for(count: int) -> int:
    """Processes to use for `count` papers: `READINGLIST_JOBS`, else the cores for large lists."""
    value = os.environ.get("READINGLIST_JOBS", "")
    if value.isdigit() and int(value) >= 1:
        return int(value)
    if count < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(os.cpu_count() or 1, 4))


def render_papers(library: Library, render_one: RenderOne, jobs: int | None = None,
                  meanwhile: Groups | None = None,
                  prewrite: Prewrite | None = None,
                  idle: Callable[[], None] | None = None,
                  with_entries: Callable[[], dict[str, str]] | None = None,
                  ) -> tuple[dict[str, str] | TreeFiles, dict[str, str]]:
    """`render_one(paper)` for every paper, merged in paper order, and what `meanwhile()` and
    `with_entries()` made. `with_entries` needs every paper's BibTeX entry (the .bib files): run
    once they are all written. With `prewrite`, each process writes the pages it renders
    (prewrite.Prewrite) and the workers send back only their names: the pages come as a
    TreeFiles. `idle` is run by this process while the workers render, before it takes runs
    itself (not at all when rendering is serial)."""
    papers = library.papers
    jobs = jobs_for(len(papers)) if jobs is None else jobs
    if jobs < 2 or len(papers) < 2:
        serial: dict[str, str] = {}
        for paper in track(papers, "rendering papers"):
            serial.update(render_one(paper))
        made = merged(meanwhile()) if meanwhile else {}
        return serial, {**made, **with_entries()} if with_entries else made
    # Short runs, taken in turn by whichever process is free: this one, once its own part is
    # done, and `jobs - 1` forked workers, the first of which makes the `meanwhile` files first.
    # (Not a pool of `jobs` workers while this process waits: each worker's reading of the
    # library copies the memory pages it touches (reference counts), and new memory costs
    # kernel time on these machines: README, Performance.)
    runs = _runs(len(papers), jobs)
    # The entries not made ahead (generator/early.py) are made by this process while the workers
    # render, into a file they share: the papers without one come last, as the early child makes
    # them in order, and when a worker reaches them it finds them there (or makes them itself).
    # This process then has them all for `with_entries`, which no longer waits for the pages.
    missing = [i for i, paper in enumerate(papers) if not bibtex.known(paper)]
    shared = Records() if missing else None
    _JOB.update(papers=papers, render_one=render_one, meanwhile=meanwhile, prewrite=prewrite, shared=shared,
                runs=runs, claims=RunClaims(len(runs)))
    other: dict[str, str] = {}
    other_wrote: Wrote | None = None
    try:
        with ExitStack() as stack:
            workers = [stack.enter_context(Beside(True, _worker, i == 0 and meanwhile is not None))
                       for i in range(jobs - 1)]
            ours, our_wrote = _own_part(papers, missing, shared, with_entries, prewrite)
            if idle is not None:
                idle()
            done = _claimed()
            for worker in workers:
                listings, theirs = worker.result()
                done += theirs
                if listings is not None:
                    other, other_wrote = listings
            # A worker that died took its claimed runs with it (a worker whose result never came
            # had its part made here, by `Beside`): they are rendered here.
            taken = {index for index, _, _ in done}
            done += [(i, *_render_run(*runs[i])) for i in range(len(runs)) if i not in taken]
    finally:
        _JOB.clear()
        if shared is not None:
            shared.close()
    parts = [(files, wrote) for _, files, wrote in sorted(done, key=lambda item: item[0])]
    other.update(ours)
    files: dict[str, str] | TreeFiles = {}
    if prewrite is not None:
        prewrite.finish()  # every worker is done: what they wrote goes into place
        files = TreeFiles(prewrite.root)
        for wrote in [other_wrote, our_wrote, *(run_wrote for _, run_wrote in parts)]:
            if wrote is None:
                continue  # no `meanwhile` task, or nothing of this process's own
            names, written, unchanged, stats = wrote
            files.add_written(names)
            prewrite.record(names, written, unchanged, stats)
    for run_files, _ in parts:
        files.update(run_files)
    return files, other


def _own_part(papers: list[Paper], missing: list[int], shared: Records | None,
              with_entries: Callable[[], dict[str, str]] | None,
              prewrite: Prewrite | None) -> tuple[dict[str, str], Wrote | None]:
    """In this process while the workers render: the missing entries, for the workers, in chunks
    from the first; then what `with_entries` makes, written with `prewrite` (the rest returned)."""
    for first in range(0, len(missing), _ENTRIES_CHUNK):
        chunk = missing[first:first + _ENTRIES_CHUNK]
        made = [(i, bibtex.block(papers[i])) for i in chunk]
        if shared is not None:
            shared.append(made)
    if with_entries is None:
        return {}, None
    made_files = with_entries()
    if prewrite is None:
        return made_files, None
    wrote = prewrite.write_others(made_files)
    return _unwritten(made_files, wrote), wrote


_ENTRIES_CHUNK = 100  # entries per record of the shared file


def _runs(count: int, jobs: int) -> list[tuple[int, int]]:
    """Contiguous (start, end) runs, shorter towards the end ("guided"): the last ones to finish
    are short, so no worker waits long for another at the end; the first are long, so there
    are few tasks to hand out."""
    runs: list[tuple[int, int]] = []
    start = 0
    while start < count:
        size = max(50, min(count // (jobs * 8) + 1, (count - start) // (jobs * 3) + 1))
        runs.append((start, min(start + size, count)))
        start += size
    return runs


def merged(groups: Iterable[Mapping[str, Content]]) -> dict[str, str]:
    """The files of all groups in one mapping, in the order they were made (texts made in
    pieces joined)."""
    out: dict[str, str] = {}
    for group in groups:
        out.update(_texts(group))
    return out


def _texts(files: Mapping[str, Content]) -> dict[str, str]:
    """The files with texts made in pieces joined (str and bytes stay as they are)."""
    return {rel: str(text) if isinstance(text, Pieces) else text  # type: ignore[misc]
            for rel, text in files.items()}


def _meanwhile() -> tuple[dict[str, str], Wrote | None]:
    """What `meanwhile` made, minus what this worker wrote itself (with Prewrite, a group at a
    time, so each group's text can go before the next is made), and the figures."""
    groups: Iterable[Mapping[str, Content]] = _JOB["meanwhile"]()
    prewrite: Prewrite | None = _JOB["prewrite"]
    if prewrite is None:
        return merged(groups), None
    kept: dict[str, str] = {}
    names: list[str] = []
    written: list[str] = []
    unchanged = 0
    stats: dict[str, tuple[int, int]] = {}
    for group in groups:
        wrote = prewrite.write_others(group)
        kept.update(_unwritten(group, wrote))
        names += wrote[0]
        written += wrote[1]
        unchanged += wrote[2]
        stats.update(wrote[3])
        # Else this group's text would stay alive while the generator makes the next one.
        del group, wrote
    return kept, (names, written, unchanged, stats)


class RunClaims:
    """Which runs are taken: one counter in memory shared across a fork, under a lock (as
    sources.Claims). Each process takes the next run when it is free."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._shared = mmap.mmap(-1, 8)
        self._lock = multiprocessing.get_context("fork").Lock()

    def take(self) -> int | None:
        with self._lock:
            (taken,) = struct.unpack_from("q", self._shared)
            if taken >= self.count:
                return None
            struct.pack_into("q", self._shared, 0, taken + 1)
            return int(taken)


Done = list[tuple[int, dict[str, str], Wrote | None]]


def _worker(with_meanwhile: bool) -> tuple[tuple[dict[str, str], Wrote | None] | None, Done]:
    """In a forked worker: the `meanwhile` files first, if asked for, then runs until none is left."""
    made = _meanwhile() if with_meanwhile else None
    return made, _claimed()


def _claimed() -> Done:
    """(run index, files not written, what Prewrite wrote) of each run this process takes."""
    claims: RunClaims = _JOB["claims"]
    runs: list[tuple[int, int]] = _JOB["runs"]
    done: Done = []
    while (index := claims.take()) is not None:
        done.append((index, *_render_run(*runs[index])))
    return done


def _render_run(start: int, end: int) -> tuple[dict[str, str], Wrote | None]:
    """(the files not written here, what Prewrite wrote)."""
    papers, render_one, prewrite = _JOB["papers"], _JOB["render_one"], _JOB["prewrite"]
    shared: Records | None = _JOB["shared"]
    run = papers[start:end]
    if shared is not None and not all(map(bibtex.known, run)):
        for chunk in shared.new():
            for i, text in chunk:
                bibtex.remember(papers[i], text)
    files: dict[str, str] = {}
    for paper in run:
        files.update(render_one(paper))
    if prewrite is None:
        return files, None
    wrote = prewrite.write(files)
    return _unwritten(files, wrote), wrote


def _unwritten(files: Mapping[str, Content], wrote: Wrote) -> dict[str, str]:
    """Those of `files` that Prewrite did not write (their names are the first part of `wrote`)."""
    done = set(wrote[0])
    return _texts({rel: text for rel, text in files.items() if rel not in done})
