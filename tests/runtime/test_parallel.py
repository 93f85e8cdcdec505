"""runtime/parallel.py: the serial result, in order, whether or not worker processes do the work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.runtime import parallel
from tests.conftest import as_terminal

ROOT = Path(__file__).resolve().parents[2]


def _pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def test_workers_give_the_serial_result_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    items = list(range(40))
    monkeypatch.setenv(parallel.ENV, "1")
    serial = parallel.map_ordered(_pid_and_square, items, min_per_worker=5)
    assert {pid for pid, _ in serial} == {os.getpid()}
    monkeypatch.setenv(parallel.ENV, "2")
    spread = parallel.map_ordered(_pid_and_square, items, min_per_worker=5)
    assert [sq for _, sq in spread] == [sq for _, sq in serial] == [x * x for x in items]
    pids = {pid for pid, _ in spread}
    assert pids and os.getpid() not in pids  # how the chunks fall between the two is up to the pool


def test_too_little_work_stays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parallel.ENV, "4")
    out = parallel.map_ordered(_pid_and_square, [1, 2, 3], min_per_worker=2)  # one worker's worth
    assert out == [(os.getpid(), 1), (os.getpid(), 4), (os.getpid(), 9)]
    assert parallel.map_ordered(_pid_and_square, [], min_per_worker=1) == []


def test_the_variable_caps_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parallel.ENV, "3")
    assert parallel.workers() == 3
    monkeypatch.setenv(parallel.ENV, "zero")
    assert parallel.workers() == len(os.sched_getaffinity(0))


def test_a_script_without_a_main_guard_still_gets_the_result(tmp_path: Path) -> None:
    """A spawned worker imports the starting script again; one that calls the build at import
    (no `if __name__ == "__main__":`) breaks the workers, and the work is done serially instead."""
    script = tmp_path / "unguarded.py"
    script.write_text("from generator.runtime import parallel\n"
                      "print(parallel.map_ordered(abs, list(range(-30, 0)), min_per_worker=5))\n", encoding="utf-8")
    env = dict(os.environ, READINGLIST_WORKERS="2", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == str(list(range(30, 0, -1)))


@pytest.mark.parametrize("count", ["1", "2"])
def test_labelled_work_is_counted_on_a_terminal(count: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process or in workers, a labelled map draws `readinglist: <label> n/total` up to
    the total and erases the line at the end; an unlabelled one draws nothing."""
    monkeypatch.setenv(parallel.ENV, count)
    terminal = as_terminal(monkeypatch)
    items = list(range(40))
    result = parallel.map_ordered(_pid_and_square, items, min_per_worker=5, label="squaring")
    assert [sq for _, sq in result] == [x * x for x in items]
    assert (os.getpid() in {pid for pid, _ in result}) is (count == "1")
    drawn = terminal.getvalue()
    assert "\r\x1b[Kreadinglist: squaring 40/40" in drawn
    assert drawn.endswith("\r\x1b[K")
    terminal.seek(0)
    terminal.truncate()
    unlabelled = parallel.map_ordered(_pid_and_square, items, min_per_worker=5)
    assert [sq for _, sq in unlabelled] == [x * x for x in items]
    assert terminal.getvalue() == ""
