"""BibTeX entries and abstracts written ahead, by a low-priority child, while related papers are found.

Before rendering, the build's two processes (this one and a forked helper) find tags and related
papers, but not always both at full speed: a core is idle now and then. Every paper's BibTeX
entry and the HTML of its abstract (a fifth of rendering its page) depend only on fields that
are final once the citation keys are given. So as soon as they are, a child at the lowest
priority (`nice` 19: it runs only on a core nobody else wants) makes them for all papers, a
chunk at a time, into a temporary file. When rendering starts the child is stopped and every
whole chunk it wrote is taken (the workers make the rest, as they would anyway), each item only
for a paper whose fields are still the same (a note may retitle a paper after enrichment), and
remembered where the workers forked next find it (`bibtex.remember`,
`render.paper.remember_abstract`). Nothing waits for the child: on a busy machine it may have
made nothing, which costs nothing but its own time.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
from typing import IO, Any

from .forked import worth_forking
from .model import Paper

# (pybtex and the renderers are imported where they are used: a build makes an EarlyEntries
# before it reads, and imports them while it reads, generator/build.py.)

MINIMUM = 2000  # papers; below that rendering is serial and short
CHUNK = 500     # papers per record of the file: what a stopped child loses at most
_LENGTH = 8     # bytes of a record's length prefix


class EarlyEntries:
    def __init__(self) -> None:
        self._process: Any = None
        self._file: IO[bytes] | None = None
        self._papers: list[Paper] = []

    def start(self, papers: list[Paper]) -> None:
        """Make the entries of `papers` in a child (again, if called twice: the last call counts)."""
        self.stop()
        if not worth_forking(len(papers), MINIMUM):
            return
        self._papers = papers
        self._file = tempfile.TemporaryFile()
        context = multiprocessing.get_context("fork")
        self._process = context.Process(target=_child, args=(self._file, papers), daemon=True)
        self._process.start()

    def take(self, papers: list[Paper]) -> int:
        """Stop the child and remember what it made for those of `papers` whose fields are
        unchanged; returns how many entries."""
        from .enrich import bibtex
        from .render.paper import remember_abstract

        made = self._collect()
        early = {p.id: (p, entry, html) for p, (entry, html) in zip(self._papers, made, strict=False)}
        self.stop()
        taken = 0
        for paper in papers:
            known = early.get(paper.id)
            if known is None:
                continue
            then, entry, html = known
            if bibtex.entry_fields(then) == bibtex.entry_fields(paper):
                bibtex.remember(paper, entry)
                taken += 1
            if then.abstract == paper.abstract:
                remember_abstract(paper, html)
        return taken

    def _collect(self) -> list[tuple[str, str]]:
        """The (entry, abstract HTML) of the child's whole records, in the order of its papers."""
        handle = self._file
        self._stop_child()
        made: list[tuple[str, str]] = []
        if handle is None:
            return made
        try:
            handle.seek(0)
            data = handle.read()
        except OSError:
            return made
        pos = 0
        while pos + _LENGTH <= len(data):
            size = int.from_bytes(data[pos:pos + _LENGTH], "little")
            if pos + _LENGTH + size > len(data):
                break  # the record the child was writing when it was stopped
            made.extend(pickle.loads(data[pos + _LENGTH:pos + _LENGTH + size]))
            pos += _LENGTH + size
        return made

    def _stop_child(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._process = None

    def stop(self) -> None:
        self._stop_child()
        self._papers = []
        if self._file is not None:
            self._file.close()
            self._file = None


def _child(out: IO[bytes], papers: list[Paper]) -> None:
    from .enrich import bibtex
    from .render.paper import abstract_html

    try:
        os.nice(19)
    except OSError:
        pass
    try:
        for start in range(0, len(papers), CHUNK):
            record = pickle.dumps([(bibtex.block(p), abstract_html(p.abstract)) for p in papers[start:start + CHUNK]],
                                  protocol=pickle.HIGHEST_PROTOCOL)
            out.write(len(record).to_bytes(_LENGTH, "little") + record)
            out.flush()
    except Exception:  # anything at all: the parent takes the records written so far
        pass
