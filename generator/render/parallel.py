"""Paper pages rendered on every core.

Rendering ten thousand paper pages (BibTeX through pybtex, the neighbourhood picture, the
HTML) is most of the generator's time, and each page depends only on the finished model. On a
machine with several cores the pages are split into short contiguous runs that forked worker
processes take in turn, along with the pages that need no BibTeX (`meanwhile`), and the results
are put together in paper order, so the output is the same text as a serial run (tested). Each
worker also hands back the BibTeX entries it wrote, which the tag, digest and reference files
reuse. Small lists (under `PARALLEL_MIN` papers) and machines without `fork` render serially;
`READINGLIST_JOBS=1` forces that.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from typing import Any

from ..enrich import bibtex
from ..model import Library, Paper
from ..prewrite import Prewrite, TreeFiles
from ..progress import track

PARALLEL_MIN = 2000
# What the workers render: set just before the fork, so they inherit it instead of unpickling it.
_JOB: dict[str, Any] = {}

RenderOne = Callable[[Paper], dict[str, str]]
Wrote = tuple[list[str], list[str], int]  # what a worker wrote with Prewrite: names, written, unchanged


def jobs_for(count: int) -> int:
    """Processes to use for `count` papers: `READINGLIST_JOBS`, else the cores for large lists."""
    value = os.environ.get("READINGLIST_JOBS", "")
    if value.isdigit() and int(value) >= 1:
        return int(value)
    if count < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(os.cpu_count() or 1, 4))


def render_papers(library: Library, render_one: RenderOne, jobs: int | None = None,
                  meanwhile: Callable[[], dict[str, str]] | None = None,
                  prewrite: Prewrite | None = None,
                  idle: Callable[[], None] | None = None) -> tuple[dict[str, str] | TreeFiles, dict[str, str]]:
    """`render_one(paper)` for every paper, merged in paper order, and what `meanwhile()` made.
    With `prewrite`, the workers also write the pages they render (prewrite.Prewrite) and send back
    only their names: the pages come as a TreeFiles. `idle` is run by this process while the
    workers render (not at all when rendering is serial)."""
    papers = library.papers
    jobs = jobs_for(len(papers)) if jobs is None else jobs
    if jobs < 2 or len(papers) < 2:
        serial: dict[str, str] = {}
        for paper in track(papers, "rendering papers"):
            serial.update(render_one(paper))
        return serial, meanwhile() if meanwhile else {}
    # Short runs, taken by whichever worker is free: `meanwhile` is one more task, so every
    # worker stays busy to the end however long that task takes (the build's own process waits).
    runs = _runs(len(papers), jobs)
    _JOB.update(papers=papers, render_one=render_one, meanwhile=meanwhile, prewrite=prewrite)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            other_task = pool.apply_async(_meanwhile) if meanwhile else None
            pending = [pool.apply_async(_render_run, run) for run in runs]
            if idle is not None:
                idle()
            parts = [p.get() for p in pending]
            other, other_wrote = other_task.get() if other_task else ({}, None)
    finally:
        _JOB.clear()
    files: dict[str, str] | TreeFiles = {}
    if prewrite is not None:
        prewrite.finish()  # every worker is done: what they wrote goes into place
        files = TreeFiles(prewrite.root)
        for wrote in [other_wrote, *(run_wrote for *_, run_wrote in parts)]:
            if wrote is None:
                continue  # no `meanwhile` task
            names, written, unchanged = wrote
            files.add_written(names)
            prewrite.record(names, written, unchanged)
    for run_files, entries, _ in parts:
        files.update(run_files)
        for index, text in entries.items():
            bibtex.remember(papers[index], text)
    return files, other


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


def _meanwhile() -> tuple[dict[str, str], Wrote | None]:
    """What `meanwhile` made, minus what this worker wrote itself (with Prewrite), and the figures."""
    made: dict[str, str] = _JOB["meanwhile"]()
    prewrite: Prewrite | None = _JOB["prewrite"]
    if prewrite is None:
        return made, None
    wrote = prewrite.write_others(made)
    done = set(wrote[0])
    return {rel: text for rel, text in made.items() if rel not in done}, wrote


def _render_run(start: int, end: int) -> tuple[dict[str, str], dict[int, str], Wrote | None]:
    """(the files not written here, BibTeX entries by paper index, what Prewrite wrote)."""
    papers, render_one, prewrite = _JOB["papers"], _JOB["render_one"], _JOB["prewrite"]
    files: dict[str, str] = {}
    for paper in papers[start:end]:
        files.update(render_one(paper))
    entries = {i: bibtex.block(papers[i]) for i in range(start, end)}
    if prewrite is None:
        return files, entries, None
    wrote = prewrite.write(files)
    done = set(wrote[0])
    return {rel: text for rel, text in files.items() if rel not in done}, entries, wrote
