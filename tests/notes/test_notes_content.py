"""Nothing under content/ is ever written, renamed or deleted by build, watch or serve."""

from __future__ import annotations

import hashlib
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

from generator.build import build
from generator.config import load_config
from generator.watch import Watcher
from tests.conftest import copy_project
from tests.servers import fetch, free_port
from tests.waiting import wait_until

EXTRA_DIGEST = """Daily TMLR digest for Aug 09, 2025
TMLR
Accepted papers
===============
Title: A Paper Added While Serving
Authors: Ada Example
Abstract: Added to check that a new digest reaches the served site.
URL: https://openreview.net/forum?id=AddedWhileServing
---
"""


def hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}






def test_build_watch_and_serve_leave_content_byte_identical(tmp_path: Path) -> None:
    copy_project(tmp_path)
    cfg = tmp_path / "mkdocs.yml"
    (tmp_path / "overrides").mkdir(exist_ok=True)
    notes = tmp_path / "content" / "notes"
    (notes / "orphan-note.md").write_text("---\nstatus: read\n---\nNo such paper.\n")
    (notes / "liu2025compressed.md").write_bytes(b"---\r\nrating: 11\r\nstatus: [x\r\n---\r\nCRLF body\r\n")
    (notes / "cui2025physicsaware.md").write_bytes(b"\xef\xbb\xbf---\nstatus: reading\n---\n[[nowhere]]\n")
    before = hashes(tmp_path / "content")

    result = build(load_config(cfg))
    assert len(result.library.notes.orphans) == 1 if result.library.notes else False
    assert hashes(tmp_path / "content") == before

    watcher = Watcher(cfg, debounce=0.05, out=io.StringIO())
    watcher.start()
    try:
        (tmp_path / "seeds" / "002_extra.txt").write_text(EXTRA_DIGEST)
        assert watcher.wait_for(1, 30)
        assert (tmp_path / "build/papers/a-paper-added-while-serving/index.md").exists()
        (tmp_path / "seeds" / "002_extra.txt").unlink()
        assert watcher.wait_for(2, 30)
    finally:
        watcher.stop()
    assert hashes(tmp_path / "content") == before

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "-f", str(cfg), "serve", "--port", str(port)],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}/"
        wait_until(lambda: fetch(base) is not None, 120, "readinglist serve did not come up")
        (tmp_path / "seeds" / "002_extra.txt").write_text(EXTRA_DIGEST)
        page = base + "papers/a-paper-added-while-serving/"
        wait_until(lambda: b"A Paper Added While Serving" in (fetch(page) or b""), 120,
                   f"{page} never showed the paper")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert hashes(tmp_path / "content") == before
