"""Watch mode: edits show up, bursts give one rebuild, a broken note never stops the watcher."""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from watchdog.events import FileSystemEvent

from generator.build import build
from generator.config import load_config
from generator.watch import Watcher, ignored_name
from tests.conftest import copy_project, page_h1, without_citeproc
from tests.waiting import wait_until

CASPER = "content/notes/casper2025defending.md"
OTHER = "content/notes/maron2025oneshot.md"
PAGE = "build/papers/defending-against-unforeseen-failure-modes-with-latent/index.md"
NOTE = """---
status: to-read
rating: {rating}
added: 2025-08-09
---
{body}
"""


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Watcher, Path, io.StringIO]]:
    copy_project(tmp_path)
    out = io.StringIO()
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=out)
    watcher.start()
    try:
        yield watcher, tmp_path, out
    finally:
        watcher.stop()


def save(path: Path, text: str) -> None:
    """Save the way many editors do: write a temporary file, then rename it over the note."""
    tmp = path.with_name(f".{path.name}.swp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def test_edit_break_and_fix_a_note(watched: tuple[Watcher, Path, io.StringIO]) -> None:
    watcher, root, out = watched
    page, note = root / PAGE, root / CASPER
    assert "★★★★★ 5/5" in page.read_text()
    all_mtime = (root / "build/all.md").stat().st_mtime_ns

    # Rated 4 of 5, the paper still counts for the interest model (rating 3 would not: a change of
    # signal re-learns every paper's interest, a full rebuild), so this is the fast path.
    save(note, NOTE.format(rating=4, body="A first **edit**."))
    wait_until(lambda: "<p>A first <strong>edit</strong>.</p>" in page.read_text(), 15, "the edit is not on the page")
    assert "★★★★☆ 4/5" in page.read_text()
    assert watcher.wait_for(1, 10) and watcher.outcomes[-1].fast
    # Only what the note shows on was rewritten: the search index's records, its page, the queue
    # (the rating shows there) and the page the old body linked to (its "Mentioned in" lost the link).
    assert sorted(watcher.outcomes[-1].written) == [
        ".search-records.json", PAGE.removeprefix("build/"),
        "papers/one-shot-federated-distillation-using-monoclass-teachers-a/index.md", "status/queue.md"]
    records = [json.loads(line) for line in (root / "build/.search-records.json").read_text().splitlines()]
    page_url = PAGE.removeprefix("build/").removesuffix("index.md")
    assert [r["content"] for r in records if r["url"] == page_url + "#my-notes"] == ["A first edit."]
    assert next(r for r in records if r["url"] == page_url)["sort"]["rating"] == "4"
    assert (root / "build/all.md").stat().st_mtime_ns == all_mtime

    count = len(watcher.outcomes)
    note.write_text("---\nstatus: to-read\nrating: [3\n---\nHalf typed.\n", encoding="utf-8")
    assert watcher.wait_for(count + 1, 15)
    wait_until(lambda: f"{CASPER}:4: warning: front matter is not valid YAML" in out.getvalue(), 15, out.getvalue)
    # Read as build and check read it: the fields ignored, the text shown.
    wait_until(lambda: "<p>Half typed.</p>" in page.read_text(), 15, "the text typed is not on the page")
    assert "3/5" not in page.read_text() and "<strong>edit</strong>" not in page.read_text()
    [warning] = [line for line in out.getvalue().splitlines() if "not valid YAML" in line]
    assert warning == (f"{CASPER}:4: warning: front matter is not valid YAML (did not find expected ',' or ']' while "
                       "parsing a flow sequence started on line 3); its fields are ignored")
    checked = build(load_config(root / "mkdocs.yml"), write=False)
    assert warning in [str(p) for p in checked.problems]
    assert "<p>Half typed.</p>" in checked.files[PAGE.removeprefix("build/")]
    assert "3/5" not in checked.files[PAGE.removeprefix("build/")]

    # The watcher lives on: the next save is rebuilt.
    save(note, NOTE.format(rating=4, body="Fixed."))
    wait_until(lambda: "<p>Fixed.</p>" in page.read_text(), 15, "the fixed note is not on the page")
    assert "★★★★☆ 4/5" in page.read_text()


def test_a_burst_of_saves_gives_one_rebuild(tmp_path: Path) -> None:
    copy_project(tmp_path)
    # A second: on these shared machines the observer thread can stall for half of one between
    # two events of the same burst (a fresh-clone CI run saw a second rebuild with 0.4 s).
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=1.0, out=io.StringIO())
    watcher.start()
    try:
        note = tmp_path / CASPER
        for n in range(5):
            save(note, NOTE.format(rating=5, body=f"Save number {n}."))
        assert watcher.wait_for(1, 15)
        assert "<p>Save number 4.</p>" in (tmp_path / PAGE).read_text()
        # No second rebuild for the burst: a later save of another note is rebuilt alone (the
        # burst's events all came before it, so a rebuild of theirs would come first or share it).
        save(tmp_path / OTHER, NOTE.format(rating=1, body="After the burst."))
        assert watcher.wait_for(2, 15)
        assert [o.changed for o in watcher.outcomes] == [(CASPER,), (OTHER,)]
    finally:
        watcher.stop()


def test_an_override_takes_the_full_path_and_the_build_folder_is_ignored(
        watched: tuple[Watcher, Path, io.StringIO]) -> None:
    watcher, root, _ = watched
    (root / "build" / "stray.md").write_text("not ours to react to\n")
    (root / "site").mkdir(exist_ok=True)
    (root / "site" / "index.html").write_text("<html></html>\n")
    save(root / CASPER, "---\ntitle: Latent Adversarial Training\n---\n")
    assert watcher.wait_for(1, 30)
    # The files written before the note gave no rebuild of their own, nor a share of its rebuild.
    assert [o.changed for o in watcher.outcomes] == [(CASPER,)]
    assert not watcher.outcomes[-1].fast
    assert page_h1((root / PAGE).read_text()) == "Latent Adversarial Training"
    assert ("| [Latent Adversarial Training](papers/defending-against-unforeseen-failure-modes-with-latent/index.md)"
            in (root / "build/all.md").read_text())


def test_a_broken_digest_keeps_the_last_good_output(watched: tuple[Watcher, Path, io.StringIO]) -> None:
    watcher, root, out = watched
    digest = root / "seeds" / "000_1b8355006bbdabc6.txt"
    good = digest.read_bytes()
    before = (root / PAGE).read_bytes()
    digest.write_text("this is not a digest any more\n", encoding="utf-8")
    assert watcher.wait_for(1, 30)
    wait_until(lambda: "seeds/000_1b8355006bbdabc6.txt:1: error: not a digest format I know" in out.getvalue(),
               15, out.getvalue)
    assert ("readinglist: error: the rebuild has new errors (above); nothing written\n"
            "readinglist: still serving the last good build; fix it and save again") in out.getvalue()
    assert (root / PAGE).read_bytes() == before  # its papers did not vanish from the site

    # The watcher lives on: the fixed digest and a note saved after it are rebuilt.
    digest.write_bytes(good)
    save(root / CASPER, NOTE.format(rating=1, body="After the fix."))
    wait_until(lambda: "<p>After the fix.</p>" in (root / PAGE).read_text(), 30, "the note is not on the page")
    assert "★☆☆☆☆ 1/5" in (root / PAGE).read_text()


def test_a_fast_note_rebuild_shows_the_build_s_references_and_formats_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A note changes no reference: the fast path shows the references the build's references
    stage made. Without a references cache to fall back on and with citeproc-py gone after the
    first build, a note edit still rewrites its page, the Cite tabs as they were."""
    copy_project(tmp_path)
    monkeypatch.setenv("READINGLIST_REFERENCE_CACHE", "off")
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=io.StringIO())
    watcher.start()
    try:
        cite = re.compile(r'<div class="tabbed-set.*?</div></div></div>', re.S)
        before = cite.findall((tmp_path / PAGE).read_text(encoding="utf-8"))
        assert len(before) == 1 and "Casper, S." in before[0]
        without_citeproc(monkeypatch, tmp_path)
        save(tmp_path / CASPER, NOTE.format(rating=4, body="Read without citeproc."))
        assert watcher.wait_for(1, 15)
        assert watcher.outcomes[-1].fast and watcher.outcomes[-1].error is None
        page = (tmp_path / PAGE).read_text(encoding="utf-8")
        assert "<p>Read without citeproc.</p>" in page and cite.findall(page) == before
    finally:
        watcher.stop()


def test_editor_temporary_names_are_ignored() -> None:
    assert all(ignored_name(n) for n in (".note.md.swp", "note.md~", "#note.md#", "4913", ".#note.md"))
    assert not ignored_name("casper2025defending.md")


def _after_a_plain_build(root: Path) -> None:
    """`readinglist build` first: its memo does not store the library."""
    from generator.build import build
    from generator.config import load_config

    copy_project(root)
    assert build(load_config(root / "mkdocs.yml")).stats is not None


def test_a_watcher_started_on_a_plain_build_reads_its_library_and_rebuilds_notes_fast(tmp_path: Path) -> None:
    from generator.build import StoredResult

    _after_a_plain_build(tmp_path)
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=io.StringIO())
    first = watcher.start()
    try:
        assert isinstance(first, StoredResult)  # nothing was rebuilt
        # read again, in the watching thread
        wait_until(lambda: watcher.library is not None, 15, "the library was not read")
        assert watcher.library is not None
        assert [p.key for p in watcher.library.papers][:2] == ["maron2025oneshot", "casper2025defending"]
        save(tmp_path / CASPER, NOTE.format(rating=4, body="Read it again."))
        assert watcher.wait_for(1, 15) and watcher.outcomes[-1].fast
        assert "<p>Read it again.</p>" in (tmp_path / PAGE).read_text(encoding="utf-8")
    finally:
        watcher.stop()


def test_a_change_while_the_library_is_read_makes_the_next_rebuild_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import generator.build as gb

    _after_a_plain_build(tmp_path)
    seen = threading.Event()
    real = gb.make_library

    def slow_collect(*args: object, **kwargs: object) -> object:
        seen.wait(15)  # the note below is saved, and the watcher told of it, while the library is read
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(gb, "make_library", slow_collect)
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=io.StringIO())
    told = watcher.notify

    def notify(event: FileSystemEvent) -> None:  # the watcher's own handling, then the test hears of it
        told(event)
        if Path(str(getattr(event, "dest_path", "") or event.src_path)).resolve() == (tmp_path / CASPER).resolve():
            seen.set()

    monkeypatch.setattr(watcher, "notify", notify)
    watcher.start()
    try:
        save(tmp_path / CASPER, NOTE.format(rating=2, body="Saved while reading."))
        # The library read now has the new note, which the page on disk does not show: a fast
        # rebuild would find nothing to rewrite, so the library is dropped and the rebuild is full.
        assert watcher.wait_for(1, 30) and not watcher.outcomes[-1].fast
        assert "<p>Saved while reading.</p>" in (tmp_path / PAGE).read_text(encoding="utf-8")
    finally:
        seen.set()
        watcher.stop()


def test_a_note_that_accepts_a_warning_takes_it_back_at_once(tmp_path: Path) -> None:
    """`accept_warnings` changes the build's messages, so it is no fast note edit: the rebuild
    after it reports the untitled record's warning, or not."""
    copy_project(tmp_path)
    note = tmp_path / "content" / "notes" / "grunefeld2026untitled.md"
    accepted = note.read_text(encoding="utf-8")
    note.unlink()
    out = io.StringIO()
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=out)
    first = watcher.start()
    try:
        untitled = ("seeds/001_68714a788c6fb328.txt:204: warning: record has no title line (the line after "
                    "the subject is the author list); using a placeholder title")
        assert first is not None and [str(p) for p in first.problems] == [untitled]
        count = len(watcher.outcomes)
        save(note, accepted)
        assert watcher.wait_for(count + 1, 15)
        assert [str(p) for p in watcher.outcomes[-1].problems] == []
        assert not watcher.outcomes[-1].fast
        wait_until(lambda: "content/notes/grunefeld2026untitled.md in" in out.getvalue()
                   and out.getvalue().rstrip().endswith(", 0 warnings"), 15, out.getvalue)
        count = len(watcher.outcomes)
        save(note, "---\naccept_warnings: false\n---\n")
        assert watcher.wait_for(count + 1, 15)
        assert [str(p) for p in watcher.outcomes[-1].problems] == [untitled]
        wait_until(lambda: out.getvalue().rstrip().endswith(", 1 warning"), 15, out.getvalue)
    finally:
        watcher.stop()
