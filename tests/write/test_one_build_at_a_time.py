"""One build at a time per list: a second `readinglist build` (or `mkdocs build`, or `serve`'s
rebuild) waits for the first and says so in one line; never a traceback, never a mixed build folder.
The lock is the operating system's, on .readinglist-cache/build.lock (never in content/ or the site)."""

from __future__ import annotations

import fcntl
import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from generator.watch import Watcher
from tests.conftest import copy_project
from tests.waiting import wait_until

LOCK = ".readinglist-cache/build.lock"
WAITING = "another build of this list is running (process {}); waiting for it to finish"


def contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def start(root: Path, *command: str) -> subprocess.Popen[str]:
    env = dict(os.environ, CI="", NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off")
    return subprocess.Popen(list(command), cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


READINGLIST = (sys.executable, "-m", "generator", "build")


class Holder:
    """This test process holding the list's lock, as a build in another terminal would."""

    def __init__(self, root: Path) -> None:
        path = root / LOCK
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        os.close(self.fd)


def test_two_builds_started_together_give_the_site_of_one(tmp_path: Path) -> None:
    alone = tmp_path / "alone"
    alone.mkdir()
    copy_project(alone)
    assert subprocess.run(READINGLIST, cwd=alone, capture_output=True, timeout=300).returncode == 0
    root = tmp_path / "together"
    root.mkdir()
    copy_project(root)
    first, second = start(root, *READINGLIST), start(root, *READINGLIST)
    outs = [p.communicate(timeout=300) for p in (first, second)]
    for proc, (out, err) in zip((first, second), outs, strict=True):
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        # The one that waited says so in one line; each ends with its summary.
        # (Without the pid when it looked before the other had written it: the lock comes first.)
        other = first.pid if proc is second else second.pid
        assert err in ("", f"readinglist: {WAITING.format(other)}\n",
                       "readinglist: another build of this list is running; waiting for it to finish\n"), err
        assert out.startswith("readinglist: 41 papers from 2 digests, ")
    assert contents(root / "build") == contents(alone / "build")
    assert [p for p in (root / "build").rglob("*") if p.name.endswith(".tmp") or p.name == "build.lock"] == []


def test_a_build_waits_for_the_build_that_holds_the_list_and_says_so(tmp_path: Path) -> None:
    root = copy_project(tmp_path).parent
    holder = Holder(root)
    try:
        proc = start(root, *READINGLIST)
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line == f"readinglist: {WAITING.format(os.getpid())}\n"
        time.sleep(0.5)
        assert proc.poll() is None and not (root / "build" / "index.md").exists()  # it waits
    finally:
        holder.release()
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert err == "" and re.match(r"readinglist: 41 papers from 2 digests, \d+ files written, 0 unchanged", out)
    assert not (root / "build" / "build.lock").exists() and not (root / "content" / "build.lock").exists()


def test_mkdocs_build_waits_too_and_publishes_no_lock(tmp_path: Path) -> None:
    root = copy_project(tmp_path).parent
    holder = Holder(root)
    try:
        proc = start(root, sys.executable, "-m", "mkdocs", "build")
        assert proc.stderr is not None
        wait_until(lambda: WAITING.format(os.getpid()) in proc.stderr.readline(), 60, "mkdocs build did not wait")
        assert proc.poll() is None
    finally:
        holder.release()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert [p for p in (root / "site").rglob("*") if "lock" in p.name] == []


def test_serve_rebuilds_wait_for_a_build_in_another_terminal(tmp_path: Path) -> None:
    root = copy_project(tmp_path).parent
    out = io.StringIO()
    watcher = Watcher(root / "mkdocs.yml", debounce=0.05, out=out)
    watcher.start()
    try:
        holder = Holder(root)
        try:
            note = root / "content/notes/casper2025defending.md"
            note.write_text(note.read_text(encoding="utf-8") + "\nAn edit while another build runs.\n",
                            encoding="utf-8")
            wait_until(lambda: WAITING.format(os.getpid()) in out.getvalue(), 30, out.getvalue)
            assert not watcher.outcomes
        finally:
            holder.release()
        assert watcher.wait_for(1, 60), out.getvalue()
        assert watcher.outcomes[0].error is None
    finally:
        watcher.stop()
