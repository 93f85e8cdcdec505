"""BibTeX entries written ahead by a low-priority child (generator/early.py): taken only when the
child has finished and only for papers whose entry fields did not change; what is taken is the
entry the paper's page would have written itself."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import time
from collections.abc import Callable

import pytest

from generator.build import BuildResult, build
from generator.config import Config
from generator.early import EarlyEntries
from generator.enrich import bibtex
from generator.model import Library, Paper, Related, SourceRef
from generator.render import exports, graph, paper


def _wait(early: EarlyEntries) -> None:
    deadline = time.monotonic() + 60
    while early._child is not None and early._child._process is not None and early._child._process.is_alive():
        assert time.monotonic() < deadline, "the child never finished"
        time.sleep(0.05)


def test_finished_entries_are_taken_for_unchanged_papers_only(seed_build: BuildResult,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    papers = seed_build.library.papers
    expected = {p.id: bibtex.block(p) for p in papers}
    early = EarlyEntries()
    early.start(papers)
    _wait(early)
    bibtex._BLOCKS.clear()
    paper._ABSTRACTS.clear()
    graph._TEXTS.clear()
    paper._OWN.clear()
    exports._OWN_RECORDS.clear()
    # As after enrichment: related papers added (not an entry field), one paper retitled by a note.
    final = [dataclasses.replace(p, related=(Related("x", 0.5, "why"),)) for p in papers]
    final[0] = dataclasses.replace(final[0], title="Retitled by a note")
    final[1] = dataclasses.replace(final[1], abstract="A different abstract with $x^2$.")
    assert early.take(final) == len(papers) - 1
    # The pictures' texts of every title but the changed one came along, as the page makes them.
    assert set(graph._TEXTS) == {p.title for p in final[1:]}
    assert all(graph._TEXTS[p.title] == graph.title_texts(p.title) for p in final[1:])
    assert [paper._abstract(p) for p in final] == [paper.abstract_html(p.abstract) for p in final]
    assert set(paper._ABSTRACTS) >= {p.id for p in final[2:]} and final[1].id not in paper._ABSTRACTS
    assert "<math" in paper._abstract(final[1])
    # The parts of each page that depend on its own fields, but for the two papers changed since.
    assert set(paper._OWN) == {p.id for p in final[2:]}
    assert [paper._own(p) for p in final] == [paper.own_parts(p) for p in final]
    assert "Retitled by a note" in paper._own(final[0])[0]
    # Their papers.json records but for tags, related papers and page, likewise.
    assert set(exports._OWN_RECORDS) == {p.id for p in final[2:]}
    assert all(exports._OWN_RECORDS[p.id][1] == exports.own_record(p) for p in final[2:])
    assert exports.papers_json(Library(papers=final)) == _without_made_records(final)
    written: list[str] = []
    write = bibtex._write_named
    monkeypatch.setattr(bibtex, "_write_named", lambda key, *parts: written.append(key) or write(key, *parts))
    assert [bibtex.block(p) for p in final[1:]] == [expected[p.id] for p in papers[1:]]
    assert written == []
    assert "Retitled by a note" in bibtex.block(final[0]) and written == [final[0].key]


def test_a_stopped_child_gives_its_whole_chunks(seed_build: BuildResult, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import early as early_module

    monkeypatch.setenv("READINGLIST_JOBS", "2")
    monkeypatch.setattr(early_module, "CHUNK", 10)
    papers = seed_build.library.papers
    block = bibtex.block
    # The child stalls after its second chunk, as a child the machine gives no time would.
    monkeypatch.setattr(bibtex, "block", lambda p: time.sleep(60) if p is papers[20] else block(p))
    early = EarlyEntries()
    early.start(papers)
    deadline = time.monotonic() + 60
    while len(_records(early)) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    bibtex._BLOCKS.clear()
    assert early.take(papers) == 20
    assert early._child is None
    assert [bibtex.known(p) for p in papers] == [True] * 20 + [False] * (len(papers) - 20)
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    early.start([_paper()])
    assert early._child is None  # one process: no child at all


def _records(early: EarlyEntries) -> list[int]:
    """Sizes of the whole records the child has written so far."""
    assert early._child is not None and early._child._file is not None
    data = os.pread(early._child._file.fileno(), 1 << 24, 0)
    sizes, pos = [], 0
    while pos + 8 <= len(data):
        size = int.from_bytes(data[pos:pos + 8], "little")
        if pos + 8 + size > len(data):
            break
        sizes.append(size)
        pos += 8 + size
    return sizes


def _paper(**changes: object) -> Paper:
    base = Paper(id="p", title="A Title", authors=("Ann Lee",), abstract="Text.", origin=SourceRef("seeds/a.txt", 3),
                 venue="TMLR", status="accepted", date=dt.date(2025, 8, 1), key="lee2025title", slug="a-title")
    return dataclasses.replace(base, **changes)


def test_no_paper_field_outside_entry_fields_changes_the_entry() -> None:
    base = _paper()
    listed = {"key", "title", "title_missing", "venue", "status", "year_override", "date", "url", "arxiv_id",
              "categories", "doi", "labels", "authors", "bib_names", "authors_complete"}
    other_values: dict[str, object] = {
        "id": "q", "abstract": "Other.", "origin": SourceRef("seeds/b.txt", 9), "cross_listed_from": "cs.CL",
        "openreview_id": "Zz99", "sources": (SourceRef("seeds/b.txt", 9),), "slug": "other", "tags": ("Graphs",),
        "related": (Related("x", 0.3, "why"),)}
    fields = {f.name for f in dataclasses.fields(Paper)}
    assert fields - listed == set(other_values)
    entry = bibtex.entry_parts(base)
    for name, value in other_values.items():
        assert bibtex.entry_parts(dataclasses.replace(base, **{name: value}))[:2] == entry[:2], name
    # And each listed field is in the tuple that decides whether an early entry still holds.
    assert len(bibtex.entry_fields(base)) == len(listed)


def test_a_build_with_early_entries_writes_the_serial_files(project: Callable[..., Config],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    config = project()
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = dict(build(config, write=False).files)
    bibtex._BLOCKS.clear()
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    assert dict(build(config, write=False).files) == serial


def test_with_every_entry_made_ahead_the_bib_files_come_with_the_listings(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.render import render_site

    config = project()
    library = build(config, write=False).library
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    bibtex._BLOCKS.clear()
    plain = render_site(library, config)
    assert all(bibtex.known(p) for p in library.papers)  # the render wrote them all
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    calls: list[str] = []
    bibliography = bibtex.bibliography
    monkeypatch.setattr(bibtex, "bibliography", lambda papers: calls.append(str(os.getpid())) or bibliography(papers))
    ahead = render_site(library, config)
    assert list(ahead) == list(plain) and ahead == plain
    assert calls == []  # every .bib file was made in the worker that made the listings


def test_no_paper_field_outside_own_fields_changes_the_parts_made_ahead() -> None:
    base = _paper(url="https://openreview.net/forum?id=Ab12", labels=("Featured Certification",))
    listed = {"title", "abstract", "venue", "status", "date", "labels", "categories", "cross_listed_from", "url",
              "authors", "authors_complete"}
    other_values: dict[str, object] = {
        "id": "q", "origin": SourceRef("seeds/b.txt", 9), "title_missing": True, "openreview_id": "Zz99",
        "arxiv_id": "2501.00001", "doi": "10.1/x", "sources": (SourceRef("seeds/b.txt", 9),), "key": "other2025",
        "slug": "other", "tags": ("Graphs",), "related": (Related("x", 0.3, "why"),), "year_override": 2020,
        "bib_names": ("Lee, Ann",)}
    fields = {f.name for f in dataclasses.fields(Paper)}
    assert fields - listed == set(other_values)
    parts = paper.own_parts(base)
    for name, value in other_values.items():
        assert paper.own_parts(dataclasses.replace(base, **{name: value})) == parts, name
    changed = {"title": "Other", "abstract": "Other. Text.", "venue": "arXiv", "status": "under review",
               "date": dt.date(2024, 1, 2), "labels": (), "categories": ("cs.LG",), "cross_listed_from": "cs.CL",
               "url": None, "authors": ("Bo Li",), "authors_complete": False}
    assert set(changed) == listed
    for name, value in changed.items():
        other = dataclasses.replace(base, **{name: value})
        assert paper.own_fields(other) != paper.own_fields(base), name
    assert len(paper.own_fields(base)) == len(listed)


def _without_made_records(papers: list[Paper]) -> str:
    made = dict(exports._OWN_RECORDS)
    exports._OWN_RECORDS.clear()
    try:
        return exports.papers_json(Library(papers=papers))
    finally:
        exports._OWN_RECORDS.update(made)


def test_no_paper_field_outside_record_fields_changes_the_record_made_ahead() -> None:
    base = _paper(url="https://openreview.net/forum?id=Ab12", labels=("Featured Certification",),
                  sources=(SourceRef("seeds/a.txt", 3),))
    listed = {"id", "key", "title", "authors", "authors_complete", "abstract", "url", "venue", "status", "labels",
              "date", "year_override", "categories", "cross_listed_from", "sources"}
    other_values: dict[str, object] = {
        "origin": SourceRef("seeds/b.txt", 9), "title_missing": True, "openreview_id": "Zz99",
        "arxiv_id": "2501.00001", "doi": "10.1/x", "slug": "other", "tags": ("Graphs",),
        "related": (Related("x", 0.3, "why"),), "bib_names": ("Lee, Ann",)}
    fields = {f.name for f in dataclasses.fields(Paper)}
    assert fields - listed == set(other_values)
    record = exports.own_record(base)
    for name, value in other_values.items():
        assert exports.own_record(dataclasses.replace(base, **{name: value})) == record, name
    assert len(exports.record_fields(base)) == len(listed)
    # Each listed field is one the record shows (or, for a note's year, derives from).
    changed = {"id": "q", "key": "k2020", "title": "Other", "authors": ("Bo Li",), "authors_complete": False,
               "abstract": "Other.", "url": None, "venue": "arXiv", "status": "under review", "labels": (),
               "date": dt.date(2024, 1, 2), "year_override": 2020, "categories": ("cs.LG",),
               "cross_listed_from": "cs.CL", "sources": (SourceRef("seeds/c.txt", 1),)}
    assert set(changed) == listed
    for name, value in changed.items():
        assert exports.record_fields(dataclasses.replace(base, **{name: value})) != exports.record_fields(base), name
