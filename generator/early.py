"""BibTeX entries and abstracts written ahead, by a low-priority child, while related papers are found.

Before rendering, the build's two processes (this one and a forked helper) find tags and related
papers, but not always both at full speed: a core is idle for a second or so. Every paper's
BibTeX entry and the HTML of its abstract (a fifth of rendering its page) depend only on fields
that are final once the citation keys are given. So as soon as they are, a child at the lowest
priority (`nice` 19, it runs only on a core nobody else wants) makes them for all papers. When
rendering starts, they are taken if the child has finished (else it is stopped and nothing is
lost: the workers make them as before), each only for a paper whose fields are still the same
(a note may retitle a paper after enrichment), and remembered where the workers forked next
find them (`bibtex.remember`, `render.paper.remember_abstract`).
"""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing.connection import Connection
from typing import Any

from .enrich import bibtex
from .forked import worth_forking
from .model import Paper
from .render.paper import abstract_html, remember_abstract

MINIMUM = 2000  # papers; below that rendering is serial and short


class EarlyEntries:
    def __init__(self) -> None:
        self._process: Any = None
        self._receive: Connection | None = None
        self._papers: list[Paper] = []

    def start(self, papers: list[Paper]) -> None:
        """Write the entries of `papers` in a child (again, if called twice: the last call counts)."""
        self.stop()
        if not worth_forking(len(papers), MINIMUM):
            return
        self._papers = papers
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_child, args=(send, papers), daemon=True)
        self._process.start()
        send.close()

    def take(self, papers: list[Paper]) -> int:
        """Remember the child's entries and abstracts for those of `papers` whose fields are unchanged,
        if it has finished; returns how many entries. The child is gone afterwards either way."""
        taken = 0
        try:
            if self._receive is not None and self._receive.poll(0):
                made: list[tuple[str, str]] = self._receive.recv()
                # The child answers in the order of the papers it was given; only its texts come
                # back (the fields they were made from are compared here).
                early = {p.id: (p, entry, html) for p, (entry, html) in zip(self._papers, made, strict=True)}
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
        except (EOFError, OSError, ValueError):
            taken = 0  # the child died (or answered for other papers): the workers make them
        finally:
            self.stop()
        return taken

    def stop(self) -> None:
        self._papers = []
        if self._receive is not None:
            self._receive.close()
            self._receive = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._process = None


def _child(send: Connection, papers: list[Paper]) -> None:
    try:
        os.nice(19)
    except OSError:
        pass
    try:
        send.send([(bibtex.block(p), abstract_html(p.abstract)) for p in papers])
    except Exception:  # anything at all: the parent then does without
        pass
    finally:
        send.close()
