"""Paper pages rendered on every core.

Rendering ten thousand paper pages (BibTeX through pybtex, the neighbourhood picture, the
HTML) is most of the generator's time, and each page depends only on the finished model. On a
machine with several cores the pages are split into short contiguous runs that forked worker
processes take in turn, along with the pages that need no BibTeX (`meanwhile`), and the results
are put together in paper order, so the output is the same text as a serial run (tested). The
BibTeX entries the tag, digest and reference files reuse are all in this process before the
workers finish (made ahead, generator/early.py, or made here meanwhile). Small lists (under
`PARALLEL_MIN` papers) and machines without `fork` render serially; `READINGLIST_JOBS=1` forces
that.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..enrich import bibtex
from ..forked import Records, end_later
from ..model import Library, Paper
from ..prewrite import Prewrite, TreeFiles, Wrote
from ..progress import track

PARALLEL_MIN = 2000
# What the workers render: set just before the fork, so they inherit it instead of unpickling it.
_JOB: dict[str, Any] = {}

RenderOne = Callable[[Paper], dict[str, str]]
# Files made in groups (the listings): each group is written before the next one is made.
Groups = Callable[[], Iterable[Mapping[str, str]]]


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
    once they are all written. With `prewrite`, the workers also write the pages they render
    (prewrite.Prewrite) and send back only their names: the pages come as a TreeFiles. `idle` is
    run by this process while the workers render (not at all when rendering is serial)."""
    papers = library.papers
    jobs = jobs_for(len(papers)) if jobs is None else jobs
    if jobs < 2 or len(papers) < 2:
        serial: dict[str, str] = {}
        for paper in track(papers, "rendering papers"):
            serial.update(render_one(paper))
        made = merged(meanwhile()) if meanwhile else {}
        return serial, {**made, **with_entries()} if with_entries else made
    # Short runs, taken by whichever worker is free: `meanwhile` is one more task, so every
    # worker stays busy to the end however long that task takes.
    runs = _runs(len(papers), jobs)
    # The entries not made ahead (generator/early.py) are made by this process while the workers
    # render, into a file they share: the papers without one come last, as the early child makes
    # them in order, and when a worker reaches them it finds them there (or makes them itself).
    # This process then has them all for `with_entries`, which no longer waits for the pages.
    missing = [i for i, paper in enumerate(papers) if not bibtex.known(paper)]
    shared = Records() if missing else None
    _JOB.update(papers=papers, render_one=render_one, meanwhile=meanwhile, prewrite=prewrite, shared=shared)
    pool = multiprocessing.get_context("fork").Pool(jobs)
    try:
        other_task = pool.apply_async(_meanwhile) if meanwhile else None
        pending = [pool.apply_async(_render_run, run) for run in runs]
        ours, our_wrote = _own_part(papers, missing, shared, with_entries, prewrite)
        if idle is not None:
            idle()
        parts = [p.get() for p in pending]
        other, other_wrote = other_task.get() if other_task else ({}, None)
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()  # the workers end on their own; they are joined as the build ends
        end_later(pool)
    finally:
        _JOB.clear()
        if shared is not None:
            shared.close()
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


def merged(groups: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """The files of all groups in one mapping, in the order they were made."""
    out: dict[str, str] = {}
    for group in groups:
        out.update(group)
    return out


def _meanwhile() -> tuple[dict[str, str], Wrote | None]:
    """What `meanwhile` made, minus what this worker wrote itself (with Prewrite, a group at a
    time, so each group's text can go before the next is made), and the figures."""
    groups: Iterable[Mapping[str, str]] = _JOB["meanwhile"]()
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


def _unwritten(files: Mapping[str, str], wrote: Wrote) -> dict[str, str]:
    """Those of `files` that Prewrite did not write (their names are the first part of `wrote`)."""
    done = set(wrote[0])
    return {rel: text for rel, text in files.items() if rel not in done}
