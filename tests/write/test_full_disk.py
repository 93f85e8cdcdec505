"""A full disk: `readinglist build` says so in one line naming the folder, exits 1, and leaves build/
as it was (or complete); the next build after freeing space is complete. On a small tmpfs when the
test can mount one (root, as here), else with a write that raises ENOSPC."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.config import load_config
from tests.conftest import copy_project
from tests.write.test_write_kill import change_inputs

LINE = ("readinglist: error: no space left on the device of build/: nothing written, build/ is as it was; free "
        "some space and build again\n")


def contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CI="", READINGLIST_PROGRESS="off")
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path | None]:
    """An 8 MB tmpfs (the seeds' list takes about 3.5 MB), or None where none can be mounted."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)],
                             capture_output=True).returncode == 0
    try:
        yield disk if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], check=True)


def fill(disk: Path, leave_kb: int) -> Path:
    filler = disk / "filler"
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with filler.open("wb") as fh:
        fh.write(b"\0" * max(0, free - leave_kb * 1024))
    return filler


def reference_build(tmp_path: Path) -> dict[str, bytes]:
    """The build folder the changed inputs give on a disk with room."""
    room = tmp_path / "room"
    room.mkdir()
    change_inputs(load_config(copy_project(room)))
    assert run(room, "-m", "generator", "build").returncode == 0
    return contents(room / "build")


def test_a_full_disk_leaves_the_build_as_it_was_and_says_so_in_one_line(
        small_disk: Path | None, tmp_path: Path) -> None:
    if small_disk is None:
        return _fallback(tmp_path)
    config = load_config(copy_project(small_disk))
    assert run(small_disk, "-m", "generator", "build").returncode == 0
    before = contents(config.build_dir)
    registry = config.registry_path.read_bytes()
    change_inputs(config)  # a new digest date and one more digest: most pages change
    expected = reference_build(tmp_path)
    stopped = 0
    for leave_kb in (64, 300, 800, 1500):  # 1.5 MB free: the two tracebacks
        filler = fill(small_disk, leave_kb)
        proc = run(small_disk, "-m", "generator", "build")
        assert "Traceback" not in proc.stderr
        if proc.returncode == 0:
            # It fitted: the build is complete.
            assert contents(config.build_dir) == expected, leave_kb
        else:
            assert (proc.returncode, proc.stderr, proc.stdout) == (1, LINE, ""), leave_kb
            assert contents(config.build_dir) == before, leave_kb
            assert config.registry_path.read_bytes() == registry
            stopped += 1
        filler.unlink()
        if proc.returncode == 0:
            break
    assert stopped >= 2
    # Space freed: the next build is complete.
    proc = run(small_disk, "-m", "generator", "build")
    assert proc.returncode == 0, proc.stderr
    assert contents(config.build_dir) == expected
    assert [p.name for p in config.build_dir.rglob("*.tmp")] == []


# Where no tmpfs can be mounted: the same build with the writes of the build folder raising ENOSPC
# from the 50th file on (what a full disk does to the write stage).
SHIM = r"""
import errno, os, sys
import generator.write as write
real = write._stage
count = {"n": 0}
def full(folder, name, data, mode):
    count["n"] += 1
    if count["n"] >= 50:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return real(folder, name, data, mode)
write._stage = full
from generator.cli import main
sys.exit(main(["build"]))
"""


def _fallback(tmp_path: Path) -> None:
    root = tmp_path / "list"
    root.mkdir()
    config = load_config(copy_project(root))
    assert run(root, "-m", "generator", "build").returncode == 0
    before = contents(config.build_dir)
    change_inputs(config)
    proc = run(root, "-c", SHIM)
    assert (proc.returncode, proc.stderr) == (1, LINE)
    assert contents(config.build_dir) == before
    shutil.rmtree(root / ".readinglist-cache", ignore_errors=True)
    assert run(root, "-m", "generator", "build").returncode == 0


# Where no tmpfs can be mounted: the index's stamp cannot be written for want of space.
INDEX_SHIM = r"""
import errno, os, pathlib, sys
real = pathlib.Path.write_text
def full(self, *args, **kwargs):
    if self.name == ".readinglist-records":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return real(self, *args, **kwargs)
pathlib.Path.write_text = full
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", "build"]
cli()
"""


def test_a_full_disk_under_the_search_index_fails_mkdocs_build_in_a_line(tmp_path: Path) -> None:
    """Before, the index waited two minutes for files Pagefind could not write, then warned, exit 0."""
    root = tmp_path / "list"
    root.mkdir()
    copy_project(root)
    cache = root / ".readinglist-cache"
    cache.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(cache)],
                             capture_output=True).returncode == 0
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", CI="")
    try:
        command = ["-m", "mkdocs", "build"] if mounted else ["-c", INDEX_SHIM]
        proc = subprocess.run([sys.executable, *command], cwd=root, env=env, capture_output=True, text=True,
                              timeout=100)
        assert proc.returncode == 1
        assert "Traceback" not in proc.stderr
        assert (f"ERROR   -  readinglist: search index not written: no space left on the device of {cache}/\n"
                in proc.stderr)
        assert not (cache / ".pagefind.tmp").exists()
    finally:
        if mounted:
            subprocess.run(["umount", str(cache)], check=True)
