"""Kill `readinglist build` with SIGKILL in the middle of writing: every file of the previous
output is still whole (old or new, never half), and the next build succeeds and cleans up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config, load_config
from generator.write import MARKER
from tests.waiting import wait_until

# Runs the real CLI with one change: the N-th file of the build folder, once written to its temporary
# file, is cut to half (flushed) and not renamed into place; the process waits there for the signal
# that kills it, so the test kills it at exactly that moment.
SHIM = r"""
import os, signal, sys
real_replace = os.replace
state = {"n": 0}
stop_at = int(os.environ["STOP_AT_WRITE"])

def half_written(src, dst, **kwargs):
    if not str(src).endswith(".tmp"):  # not a file of the build folder being written
        return real_replace(src, dst, **kwargs)
    state["n"] += 1
    if state["n"] == stop_at:
        with open(src, "r+b") as fh:
            fh.truncate(os.path.getsize(src) // 2)
            os.fsync(fh.fileno())
        print("MIDWRITE", flush=True)
        while True:
            signal.pause()
    return real_replace(src, dst, **kwargs)

os.replace = half_written
from generator.cli import main
sys.exit(main(["build"]))
"""


def snapshot(build_dir: Path) -> dict[str, bytes]:
    # The generator's own no-change cache is not output: it may be old or new on its own.
    return {p.relative_to(build_dir).as_posix(): p.read_bytes()
            for p in sorted(build_dir.rglob("*"))
            if p.is_file() and not p.relative_to(build_dir).as_posix().startswith(".readinglist-cache/")}


def change_inputs(config: Config) -> None:
    """Edit the seeds so that most pages change: a new digest date and one more digest."""
    tmlr = next(config.seeds_dir.glob("000_*.txt"))
    tmlr.write_text(tmlr.read_text(encoding="utf-8").replace("Aug 08, 2025", "Sep 09, 2025"), encoding="utf-8")
    (config.seeds_dir / "002_extra.txt").write_text(
        "Daily TMLR digest for Sep 10, 2025\nAccepted papers\n===============\n"
        "Title: A Paper Added Between Builds\nAuthors: Ann Alpha\nAbstract: New.\n"
        "URL: https://openreview.net/forum?id=Added0001\n---\n", encoding="utf-8")


def run_cli(root: Path, *extra_env: tuple[str, str]) -> subprocess.CompletedProcess[str]:
    # Not strict: this test is about files, not exit codes.
    env = dict(os.environ, CI="", **dict(extra_env))
    return subprocess.run([sys.executable, "-m", "generator", "build"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def assert_whole(build_dir: Path, old: dict[str, bytes], new: dict[str, bytes]) -> dict[str, str]:
    """Every file is a complete old or new version; returns rel -> 'old'/'new'."""
    now = snapshot(build_dir)
    state = {}
    for rel, data in now.items():
        if rel.endswith(".tmp"):
            continue
        assert data in (old.get(rel), new.get(rel)), f"{rel} is neither the old nor the new version"
        state[rel] = "old" if data == old.get(rel) else "new"
    missing = [rel for rel in old if rel not in now]
    assert missing == [], f"previous output lost: {missing}"
    return state


@pytest.mark.parametrize("stop_at", [1, 6, 15])
def test_killed_mid_write_keeps_previous_output_then_rebuilds(project: Callable[..., Config], stop_at: int) -> None:
    config = project()
    assert run_cli(config.root).returncode == 0
    old = snapshot(config.build_dir)
    registry_before = config.registry_path.read_bytes()
    change_inputs(config)
    new = build(load_config(config.root / "mkdocs.yml"), write=False).files
    new = {k: v.encode("utf-8") if isinstance(v, str) else v for k, v in new.items()}
    proc = subprocess.Popen([sys.executable, "-c", SHIM], cwd=config.root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, STOP_AT_WRITE=str(stop_at)))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "MIDWRITE", proc.stderr.read() if proc.stderr else ""
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    # The write stage writes every changed file to a temporary file, then renames them into place
    # (a full disk leaves the folder as it was). Killed at a rename: the files not yet renamed are
    # temporary files (the one being renamed half-written by the shim), the files still old.
    temps = [p for p in config.build_dir.rglob("*.tmp")]
    assert temps
    state = assert_whole(config.build_dir, old, new)
    assert list(state.values()).count("new") == stop_at - 1
    assert config.registry_path.read_bytes() == registry_before
    # The next build finishes the job.
    done = run_cli(config.root)
    assert done.returncode == 0, done.stderr
    after = snapshot(config.build_dir)
    assert not any(t.exists() for t in temps)
    assert {k: v for k, v in after.items() if k not in (MARKER, ".gitignore")} == new


def written_since(build_dir: Path, before: dict[str, int]) -> int:
    """How many files of the build folder were written after `before` (rel -> mtime_ns) was taken."""
    return sum(1 for p in build_dir.rglob("*")
               if p.is_file() and before.get(p.relative_to(build_dir).as_posix()) != p.stat().st_mtime_ns)


def test_kills_of_a_big_build_while_it_writes_never_leave_a_half_file(project: Callable[..., Config]) -> None:
    """Without any shim: a large digest, the real CLI, SIGKILL once it has written its first file
    and again once it has written half of what changes (waited for, never timed)."""
    from benchmarks.big_digest import listing_copies

    config = project()
    (config.seeds_dir / "2025-09-01-big.txt").write_text(listing_copies(150_000), encoding="utf-8")
    assert run_cli(config.root).returncode == 0
    old = snapshot(config.build_dir)
    change_inputs(config)
    new = build(load_config(config.root / "mkdocs.yml"), write=False).files
    new = {k: v.encode("utf-8") if isinstance(v, str) else v for k, v in new.items()}
    changed = sum(1 for rel, data in new.items() if old.get(rel) != data)
    assert changed > 50, changed
    killed_alive = []
    for target in (1, changed // 2):
        before = {p.relative_to(config.build_dir).as_posix(): p.stat().st_mtime_ns
                  for p in config.build_dir.rglob("*") if p.is_file()}
        proc = subprocess.Popen([sys.executable, "-m", "generator", "build"], cwd=config.root,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, CI=""))
        wait_until(lambda b=before, t=target, p=proc: written_since(config.build_dir, b) >= t or p.poll() is not None,
                   240, f"the build wrote fewer than {target} files")
        # The build may outrun the poll and finish first (its files are then whole all the more);
        # the first file's kill comes long before its end, so at least one kill lands mid-build.
        killed_alive.append(proc.poll() is None)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert_whole(config.build_dir, old, new)
    assert killed_alive[0], "the build finished before it wrote its first file"
    assert run_cli(config.root).returncode == 0
    after = snapshot(config.build_dir)
    assert {k: v for k, v in after.items() if k not in (MARKER, ".gitignore")} == new
