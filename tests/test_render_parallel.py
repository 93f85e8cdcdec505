"""Paper pages rendered by several processes are the same files as a serial render."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from generator.build import build
from generator.config import Config
from generator.enrich import bibtex
from generator.render import parallel, render_site


def test_forked_render_gives_the_serial_files_in_the_same_order(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = project()
    library = build(config, write=False).library
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = render_site(library, config)
    bibtex._BLOCKS.clear()
    written: list[str] = []
    write = bibtex._write
    monkeypatch.setattr(bibtex, "_write", lambda entries: written.extend(entries) or write(entries))
    monkeypatch.setenv("READINGLIST_JOBS", "3")
    forked = render_site(library, config)
    assert list(forked) == list(serial) and forked == serial
    # The workers wrote every entry and handed them back with their pages, so references.bib and
    # the tag and digest files needed no second pybtex run in this process.
    assert written == []
    assert "@article{maron2025oneshot," in forked["references.bib"]


def test_small_lists_render_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_JOBS", raising=False)
    assert parallel.jobs_for(41) == 1
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    assert parallel.jobs_for(41) == 2
