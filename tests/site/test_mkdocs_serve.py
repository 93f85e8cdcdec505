"""Plain `mkdocs serve` regenerates on a seed edit, once, without a rebuild loop."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.config import Config
from tests.servers import fetch, free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.slow






def settled(log: str, start: int) -> bool:
    """True once a build after `start` (an offset in the log) has finished in which the generator
    wrote no file: `mkdocs serve` watches the docs folder, so the files a build writes start the
    next build, and a build that writes nothing leaves it no change to see. A loop never gets here."""
    builds = log[start:].split("Building documentation")[1:]
    return any(" 0 files written, " in b and "Documentation built in" in b for b in builds)


def test_seed_edit_rebuilds_once_and_shows_the_change(project: Callable[..., Config], tmp_path: Path) -> None:
    config = project()
    port = free_port()
    # Appending (O_APPEND, shared with the server): reading the log from its start, as log_text
    # does, moves no write of the server's back over what it wrote before.
    log = (tmp_path / "serve.log").open("a+")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("READINGLIST_HOOK", None)
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--livereload", "-a", f"127.0.0.1:{port}"],
                            cwd=config.root, env=env, stdout=log, stderr=subprocess.STDOUT)
    page = f"http://127.0.0.1:{port}/papers/generative-feature-training-of-thin-2-layer-networks/"
    try:
        wait_until(lambda: b"Generative Feature Training of Thin" in (fetch(page) or b""), 60, lambda: log_text(log))
        start = len(log_text(log))
        # An OpenReview paper keeps its id (and so its URL) when its title is corrected.
        seed = config.seeds_dir / "000_1b8355006bbdabc6.txt"
        seed.write_text(seed.read_text(encoding="utf-8").replace(
            "Generative Feature Training of Thin", "Generative Feature Training of Very Thin"), encoding="utf-8")
        wait_until(lambda: b"Generative Feature Training of Very Thin" in (fetch(page) or b""), 60,
                   lambda: log_text(log))
        # No rebuild loop: the rebuilds come to a build that wrote nothing (see `settled`), and
        # there are two of them, one for the edit and one when its regenerated pages are seen.
        wait_until(lambda: settled(log_text(log), start), 60, lambda: log_text(log))
        assert log_text(log)[start:].count("Building documentation") == 2, log_text(log)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def log_text(log: object) -> str:
    fh = log  # a text file opened a+
    fh.flush()  # type: ignore[attr-defined]
    fh.seek(0)  # type: ignore[attr-defined]
    return str(fh.read())  # type: ignore[attr-defined]
