"""BibTeX entries and abstracts written ahead, by a low-priority child, while related papers are found.

Before rendering, the build's two processes (this one and a forked helper) find tags and related
papers, but not always both at full speed: a core is idle now and then. Every paper's BibTeX
entry and the HTML of its abstract (a fifth of rendering its page) depend only on fields that
are final once the citation keys are given. So as soon as they are, a child at the lowest
priority (`nice` 19: it runs mostly on a core nobody else wants) makes them for all papers, a
chunk at a time, handing each over as it goes (`forked.Streamed`): every entry first, then the
abstracts, then (with time left) each title as the pictures of the paper's neighbours draw it,
the parts of each page that depend on the paper's own fields alone (its front matter but for
the note and tags, its link buttons, its author line: `render.paper.own_parts`), and its record
in `papers.json` but for its tags, related papers and page (`render.exports.own_record`).
With every entry made ahead, the `.bib` files are made and written while the pages are rendered,
by the worker that renders the listings (render/__init__.py). When rendering starts the child is
stopped and every whole chunk it handed over is taken (the workers make the rest, as they would
anyway), each item only for a paper whose fields are still the same (a note may retitle a paper
after enrichment), and remembered where the workers forked next find it (`bibtex.remember`,
`render.paper.remember_abstract`, `render.graph.remember_texts`, `render.paper.remember_own_parts`,
`render.exports.remember_own_record`).
Nothing waits for the child: on a busy machine it may have made nothing, which costs nothing but
its own time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .forked import Streamed, worth_forking
from .model import Paper

# (pybtex and the renderers are imported where they are used: a build makes an EarlyEntries
# before it reads, and imports them while it reads, generator/build.py.)

MINIMUM = 2000  # papers; below that rendering is serial and short
CHUNK = 500     # papers per item the child hands over: what a stopped child loses at most

# A chunk the child hands over: ("entries", "abstracts", "titles", "parts" or "records", index of
# its first paper, what it made for each paper of the chunk).
Made = tuple[str, int, list[Any]]


class EarlyEntries:
    def __init__(self) -> None:
        self._child: Streamed[Made] | None = None
        self._papers: list[Paper] = []

    def start(self, papers: list[Paper]) -> None:
        """Make the entries of `papers` in a child (again, if called twice: the last call counts)."""
        self.stop()
        if not worth_forking(len(papers), MINIMUM):
            return
        self._papers = papers
        self._child = Streamed(True, _made, papers)

    def take(self, papers: list[Paper]) -> int:
        """Stop the child and remember what it made for those of `papers` whose fields are
        unchanged; returns how many entries."""
        from .enrich import bibtex
        from .render.exports import record_fields, remember_own_record
        from .render.graph import remember_texts
        from .render.paper import own_fields, remember_abstract, remember_own_parts

        made: dict[str, list[Any]] = {"entries": [], "abstracts": [], "titles": [], "parts": [], "records": []}
        for kind, start, texts in self._child.cut() if self._child is not None else []:
            if start == len(made[kind]):  # (the chunks of each kind come in paper order)
                made[kind] += texts
        before = self._papers
        self.stop()
        at = {p.id: i for i, p in enumerate(before)}
        entries, abstracts, titles, parts = made["entries"], made["abstracts"], made["titles"], made["parts"]
        records = made["records"]
        taken = 0
        for paper in papers:
            i = at.get(paper.id)
            if i is None:
                continue
            then = before[i]
            if i < len(entries) and (then is paper or bibtex.entry_fields(then) == bibtex.entry_fields(paper)):
                bibtex.remember(paper, entries[i])
                taken += 1
            if i < len(abstracts) and then.abstract == paper.abstract:
                remember_abstract(paper, abstracts[i])
            if i < len(titles) and then.title == paper.title:
                remember_texts(paper.title, titles[i])
            if i < len(parts) and (then is paper or own_fields(then) == own_fields(paper)):
                remember_own_parts(paper, parts[i])
            if (i < len(records) and records[i] is not None
                    and (then is paper or record_fields(then) == record_fields(paper))):
                remember_own_record(paper, records[i])
        return taken

    def stop(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child = None
        self._papers = []


def _own_record(paper: Paper) -> tuple[str, ...] | None:
    from .render.exports import own_record

    try:
        return own_record(paper)
    except TypeError:  # a value only json writes: the listings make that record as json does
        return None


def _made(papers: list[Paper]) -> Iterator[Made]:
    """In the child: the chunks, one after another, at the lowest priority."""
    from .enrich import bibtex
    from .render.graph import title_texts
    from .render.paper import abstract_html, own_parts

    try:
        os.nice(19)
    except OSError:
        pass
    try:
        for start in range(0, len(papers), CHUNK):
            yield "entries", start, [bibtex.block(p) for p in papers[start:start + CHUNK]]
        for start in range(0, len(papers), CHUNK):
            yield "abstracts", start, [abstract_html(p.abstract) for p in papers[start:start + CHUNK]]
        # With time left: each paper as its neighbours draw it (every render worker draws nearly all),
        # then the parts of its page that depend on its own fields alone.
        for start in range(0, len(papers), CHUNK):
            yield "titles", start, [title_texts(p.title) for p in papers[start:start + CHUNK]]
        for start in range(0, len(papers), CHUNK):
            yield "parts", start, [own_parts(p) for p in papers[start:start + CHUNK]]
        for start in range(0, len(papers), CHUNK):
            yield "records", start, [_own_record(p) for p in papers[start:start + CHUNK]]
    except Exception:  # anything at all: the parent takes the chunks made so far
        return
