"""`readinglist serve` end to end: edit a note and the open Chromium tab reloads with it, and search
finds the note's new words a moment later (the index is made again once the edits pause)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_project
from tests.servers import fetch, free_port
from tests.waiting import wait_until

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]






CASPER = "Defending Against Unforeseen Failure Modes with Latent Adversarial Training"


def search_until_found(page: Any, query: str, title: str, deadline: float) -> str:
    """The first result's title for `query`, searching again on a fresh load of the page until
    `title` is among the results (the index is published a few seconds after the page reloads)."""
    sys.path.insert(0, str(Path(__file__).parent / "site" / "browser"))
    from browser_ui import search

    while True:
        try:
            titles = search(page, query, expect=title)
            return titles[0]
        except Exception:
            if time.monotonic() > deadline:
                raise
            page.reload(wait_until="load")


@pytest.mark.browser
def test_the_open_tab_shows_a_note_edit(tmp_path: Path, chromium_browser: Any) -> None:
    copy_project(tmp_path)
    cfg = tmp_path / "mkdocs.yml"
    (tmp_path / "overrides").mkdir(exist_ok=True)
    note = tmp_path / "content/notes/casper2025defending.md"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "-f", str(cfg), "serve", "--port", str(port)],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        context = chromium_browser.new_context()
        try:
            page = context.new_page()
            url = f"http://127.0.0.1:{port}/papers/defending-against-unforeseen-failure-modes-with-latent/"
            wait_until(lambda: proc.poll() is not None or fetch(url) is not None, 120,
                       "readinglist serve did not come up")
            assert proc.poll() is None, "readinglist serve stopped"
            # The edit below is seen once MkDocs' live-reload script polls the server (it does so
            # on the page's load event): the request is waited for, not a second.
            with page.expect_request(lambda r: "/livereload/" in r.url, timeout=30_000):
                page.goto(url, wait_until="load", timeout=30_000)
            assert page.locator(".rl-status--to-read").inner_text() == "To read"
            tmp = note.with_name(".casper.tmp")
            tmp.write_text("---\nstatus: read\nrating: 2\n---\nSeen in the **browser** with a quokka.\n",
                           encoding="utf-8")
            os.replace(tmp, note)
            page.wait_for_function("document.body && document.body.innerText.includes('Seen in the browser')",
                                   timeout=60_000, polling=50)
            assert page.locator(".rl-note-body strong").inner_text() == "browser"
            assert page.locator(".rl-status--read").inner_text() == "Read"
            assert page.locator(".rl-rating").inner_text() == "★★☆☆☆ 2/5"
            # "quokka" is in no seed and no other note: only the new index finds it.
            assert search_until_found(page, "quokka", CASPER, deadline=time.monotonic() + 90) == CASPER
        finally:
            context.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
