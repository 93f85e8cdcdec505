"""`readinglist serve` end to end: edit a note and the open Chromium tab reloads with it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import copy_project, require_tool

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.browser
def test_the_open_tab_shows_a_note_edit(tmp_path: Path) -> None:
    chromium = require_tool("chromium")
    from playwright.sync_api import sync_playwright

    copy_project(tmp_path)
    cfg = tmp_path / "mkdocs.yml"
    (tmp_path / "overrides").mkdir(exist_ok=True)
    note = tmp_path / "content/notes/casper2025defending.md"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "-f", str(cfg), "serve", "--port", str(port)],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page()
            url = f"http://127.0.0.1:{port}/papers/defending-against-unforeseen-failure-modes-with-latent/"
            deadline = time.monotonic() + 120
            while True:
                try:
                    page.goto(url, wait_until="load", timeout=10_000)
                    break
                except Exception:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise
                    time.sleep(0.5)
            assert page.locator(".rl-status--to-read").inner_text() == "To read"
            time.sleep(1)  # the live-reload long poll is open once the page has run its scripts
            tmp = note.with_name(".casper.tmp")
            tmp.write_text("---\nstatus: read\nrating: 2\n---\nSeen in the **browser**.\n", encoding="utf-8")
            os.replace(tmp, note)
            page.wait_for_function("document.body && document.body.innerText.includes('Seen in the browser')",
                                   timeout=60_000, polling=50)
            assert page.locator(".rl-note-body strong").inner_text() == "browser"
            assert page.locator(".rl-status--read").inner_text() == "Read"
            assert page.locator(".rl-rating").inner_text() == "★★☆☆☆ 2/5"
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
