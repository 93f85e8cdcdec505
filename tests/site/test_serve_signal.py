"""Under `readinglist serve`, MkDocs rebuilds when the watcher says it wrote pages, and only with
those pages (site/serve_signal.py), instead of polling the build folder; `mkdocs serve` run by hand,
or with READINGLIST_SERVE_SIGNAL=off, still watches the build folder.

The end-to-end tests run the real `readinglist serve` with a MkDocs hook (build_observer.py) that
writes down, after each build, the pages MkDocs was given and rendered."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest
from mkdocs.structure.files import File, Files

from generator.site import serve_rebuilds, serve_signal
from tests.conftest import copy_project
from tests.servers import fetch, free_port
from tests.waiting import wait_until

OBSERVER = Path(__file__).with_name("build_observer.py")
NOTE = "content/notes/casper2025defending.md"
PAGE = "papers/defending-against-unforeseen-failure-modes-with-latent/index.md"


def test_the_watchers_lines_are_read_once_after_a_finished_build(tmp_path: Path) -> None:
    path = serve_signal.start(tmp_path)
    assert path is not None and path.read_text(encoding="utf-8") == ""
    state: dict[str, Any] = {}
    assert serve_signal.written_since(state) is None  # MkDocs watches the docs folder itself
    state["signal"] = str(path)
    serve_signal.rebuilt(path, [])  # nothing written: nothing to tell
    assert path.read_text(encoding="utf-8") == ""
    serve_signal.rebuilt(path, ["papers/b/index.md", "index.md"])
    serve_signal.rebuilt(path, ["papers/c/index.md"])
    with path.open("a", encoding="utf-8") as fh:
        fh.write('["papers/d/in')  # a line still being appended
    assert serve_signal.written_since(state) == {"papers/b/index.md", "index.md", "papers/c/index.md"}
    # The build failed (no `done`): the next build reads the same lines, and the finished one.
    with path.open("a", encoding="utf-8") as fh:
        fh.write('dex.md"]\n')
    assert serve_signal.written_since(state) == {"papers/b/index.md", "index.md", "papers/c/index.md",
                                                 "papers/d/index.md"}
    serve_signal.done(state)
    assert serve_signal.written_since(state) == set()
    serve_signal.rebuilt(path, ["papers/e/index.md"])
    assert serve_signal.written_since(state) == {"papers/e/index.md"}


def test_a_new_serve_empties_the_file_and_the_switch_turns_it_off(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = serve_signal.signal_file(tmp_path)
    path.parent.mkdir()
    path.write_text('["index.md"]\n', encoding="utf-8")
    assert serve_signal.start(tmp_path) == path and path.read_text(encoding="utf-8") == ""
    monkeypatch.setenv(serve_signal.SWITCH, "off")
    assert serve_signal.start(tmp_path) is None


def test_prune_keeps_the_written_papers_and_those_a_written_page_links_to(tmp_path: Path) -> None:
    docs, site = tmp_path / "docs", tmp_path / "site"
    sources = {"index.md": "# Home\n\n[B](papers/b/index.md)\n", "tags/x.md": "[C](../papers/c/index.md)\n"}
    sources |= {f"papers/{slug}/index.md": f"<p>{slug}</p>\n" for slug in "abcde"}
    for rel, text in sources.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")

    def files() -> Files:
        return Files([File(rel, str(docs), str(site), use_directory_urls=True) for rel in sorted(sources)])

    state: dict[str, Any] = {"serving": True, "dirty": True}
    assert serve_rebuilds.prune(files(), state) == []  # the first build lists every page
    state["built"] = True
    # No page is newer than a built file (nothing is built here): all would be "modified" by their
    # times, so what is kept is the watcher's word: the written paper, and those the home page links to.
    kept = files()
    removed = serve_rebuilds.prune(kept, state, {"index.md", "papers/a/index.md", "search-records.json"})
    assert sorted(removed) == ["papers/c/index.md", "papers/d/index.md", "papers/e/index.md"]
    assert sorted(f.src_uri for f in kept.documentation_pages()) == [
        "index.md", "papers/a/index.md", "papers/b/index.md", "tags/x.md"]


def _builds(records: Path) -> list[dict[str, list[str]]]:
    if not records.is_file():
        return []
    return [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]


def _log(fh: IO[Any]) -> str:
    fh.flush()
    fh.seek(0)
    return str(fh.read())


def _serve(tmp_path: Path, **env: str) -> tuple[Path, subprocess.Popen[bytes], Path, IO[Any], str]:
    """`readinglist serve` on a copy of the seeds' project with the observer hook: (the project,
    the process, its builds' log, its output, its address), once MkDocs' first build is served."""
    root = tmp_path / "list"
    root.mkdir()
    copy_project(root)
    (root / "overrides").mkdir(exist_ok=True)
    mkdocs_yml = root / "mkdocs.yml"
    mkdocs_yml.write_text(mkdocs_yml.read_text(encoding="utf-8") + f"\nhooks:\n  - {OBSERVER}\n", encoding="utf-8")
    records = tmp_path / "builds.jsonl"
    port = free_port()
    log = (tmp_path / "serve.log").open("a+")
    command = [sys.executable, "-m", "generator.cli", "-f", str(mkdocs_yml), "serve", "--port", str(port)]
    proc = subprocess.Popen(command, cwd=root, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env=dict(os.environ, BUILD_OBSERVER_LOG=str(records), READINGLIST_PROGRESS="off", **env))
    root_url = f"http://127.0.0.1:{port}/"
    wait_until(lambda: proc.poll() is not None or (_builds(records) and "Serving on" in _log(log)), 120,
               lambda: _log(log))
    assert proc.poll() is None, _log(log)
    return root, proc, records, log, root_url


def _stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


@pytest.mark.slow
def test_readinglist_serve_rebuilds_on_the_watchers_word_with_its_pages(tmp_path: Path) -> None:
    root, proc, records, log, url = _serve(tmp_path)
    try:
        assert "Watching paths for changes: 'mkdocs.yml', '.readinglist-cache/serve-rebuilt.jsonl'" in _log(log)
        first = _builds(records)
        assert len(first) == 1 and PAGE in first[0]["pages"]
        papers = sorted(p for p in first[0]["pages"] if p.startswith("papers/") and p != PAGE)
        # A page written behind the watcher's back: MkDocs no longer polls the build folder, so it
        # starts no build, and the next build (the note's) leaves it out, as the watcher did not write it.
        untouched = root / "build" / papers[0]
        untouched.write_text(untouched.read_text(encoding="utf-8") + "\n<p>Not the watcher's.</p>\n",
                             encoding="utf-8")
        note = root / NOTE
        note.write_text(note.read_text(encoding="utf-8") + "\nSeen by MkDocs through the watcher.\n", encoding="utf-8")
        page_url = url + PAGE.removesuffix("index.md")
        wait_until(lambda: b"Seen by MkDocs through the watcher." in (fetch(page_url) or b""), 60, lambda: _log(log))
        builds = _builds(records)
        assert len(builds) == 2, builds
        # The watcher wrote the paper's page (and the search records) and no other page: the one
        # paper page of the build, and the one page rendered.
        assert builds[1]["rendered"] == [PAGE]
        assert [p for p in builds[1]["pages"] if p.startswith("papers/")] == [PAGE]
        assert b"Not the watcher" not in (fetch(url + papers[0].removesuffix("index.md")) or b"")
    finally:
        _stop(proc)


@pytest.mark.slow
def test_with_the_switch_off_mkdocs_polls_the_build_folder(tmp_path: Path) -> None:
    root, proc, _, log, url = _serve(tmp_path, READINGLIST_SERVE_SIGNAL="off")
    try:
        assert "Watching paths for changes: 'build', 'mkdocs.yml'" in _log(log)
        assert not serve_signal.signal_file(root).exists()
        note = root / NOTE
        note.write_text(note.read_text(encoding="utf-8") + "\nSeen by MkDocs polling.\n", encoding="utf-8")
        page_url = url + PAGE.removesuffix("index.md")
        wait_until(lambda: b"Seen by MkDocs polling." in (fetch(page_url) or b""), 60, lambda: _log(log))
    finally:
        _stop(proc)
