"""The search records after a note edit: the watcher's fast path makes again only the records of
the papers the note shows on (render/search_records.py `updated_records_file`), and the file is
byte for byte the one a full build writes for the same inputs."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from generator.build import build, read_library
from generator.config import load_config
from generator.errors import Problems
from generator.render.search_records import RECORDS, records_file, search_records, updated_records_file
from generator.sources.pages import read_pages
from generator.watch import Watcher, affected_papers
from tests.conftest import copy_project, render_context

CASPER = "content/notes/casper2025defending.md"
CASPER_PAGE = "papers/defending-against-unforeseen-failure-modes-with-latent/"
NOTE = "---\nstatus: {status}\nrating: {rating}\nadded: 2025-08-09\n---\n{body}\n"


def full_records(root: Path) -> str:
    config = load_config(root / "mkdocs.yml")
    library = read_library(config)
    return records_file(search_records(render_context(library, config), read_pages(config.pages_dir, root, Problems())))


def save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.swp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def test_a_fast_note_rebuild_writes_the_records_a_full_build_writes(tmp_path: Path) -> None:
    copy_project(tmp_path)
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=io.StringIO())
    watcher.start()
    try:
        # An edited note (new status, rating and words), then a new note on a paper that had none;
        # neither changes a signal of the interest model (a change would re-learn every paper's
        # interest: a full rebuild): rated 5, then read and rated 4, is for the paper all along.
        save(tmp_path / CASPER, NOTE.format(status="read", rating=4, body="Latent **adversarial** words."))
        assert watcher.wait_for(1, 30) and watcher.outcomes[-1].fast, watcher.outcomes
        assert RECORDS in watcher.outcomes[-1].written
        on_disk = (tmp_path / "build" / RECORDS).read_text(encoding="utf-8")
        assert on_disk == full_records(tmp_path)
        records = [json.loads(line) for line in on_disk.splitlines()]
        assert next(r for r in records if r["url"] == CASPER_PAGE)["filters"]["reading"] == ["read"]
        assert [r["content"] for r in records if r["url"] == CASPER_PAGE + "#my-notes"] == [
            "Latent adversarial words."]  # the words the page shows, not the Markdown

        config = load_config(tmp_path / "mkdocs.yml")
        other = next(p for p in read_library(config).papers if p.page != CASPER_PAGE
                     and not (config.notes_dir / f"{p.key}.md").exists())
        save(config.notes_dir / f"{other.key}.md", NOTE.format(status="to-read", rating=3, body="A new note."))
        assert watcher.wait_for(2, 30) and watcher.outcomes[-1].fast, watcher.outcomes
        on_disk = (tmp_path / "build" / RECORDS).read_text(encoding="utf-8")
        assert on_disk == full_records(tmp_path)
        assert {"url": f"{other.page}#my-notes", "content": "A new note."}.items() <= next(
            r for r in map(json.loads, on_disk.splitlines()) if r["url"] == f"{other.page}#my-notes").items()
    finally:
        watcher.stop()
    # A full build of the edited project finds every file as it would write it.
    result = build(config, write=True)
    assert result.stats is not None and result.stats.written == []
    assert (tmp_path / "build" / RECORDS).read_text(encoding="utf-8") == on_disk


def test_records_of_papers_whose_note_did_not_change_are_kept_and_a_foreign_file_is_made_whole(
        tmp_path: Path) -> None:
    copy_project(tmp_path)
    config = load_config(tmp_path / "mkdocs.yml")
    before = read_library(config)
    pages = read_pages(config.pages_dir, tmp_path, Problems())
    old = records_file(search_records(render_context(before, config), pages))
    # Still for the paper (rated 5 before): no paper's interest changes, only this note's records.
    (tmp_path / CASPER).write_text(NOTE.format(status="reading", rating=4, body="Changed."), encoding="utf-8")
    after = read_library(config)
    assert after.notes is not None and before.notes is not None
    changed = affected_papers(before.notes, after.notes)
    assert CASPER_PAGE in {p.page for p in after.papers if p.id in changed}
    ctx = render_context(after, config)
    whole = records_file(search_records(ctx, pages))
    assert updated_records_file(old, ctx, pages, changed) == whole

    # Only the changed papers' lines are made again: a kept line is taken as it is.
    lines = old.splitlines(keepends=True)
    index = next(i for i, p in enumerate(after.papers) if p.id not in changed)
    marked = lines[index].replace('"content": "', '"content": "KEPT ', 1)
    assert marked != lines[index]
    updated = updated_records_file("".join([*lines[:index], marked, *lines[index + 1:]]), ctx, pages, changed)
    assert updated.splitlines(keepends=True)[index] == marked

    # A file that is not this list's (another order of papers, an empty one) is made whole.
    shuffled = "".join(lines[1:2] + lines[:1] + lines[2:])
    assert updated_records_file(shuffled, ctx, pages, changed) == whole
    assert updated_records_file("", ctx, pages, changed) == whole
