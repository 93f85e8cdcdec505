"""Parallel work gives the serial result: the same items in the same order, the same build folder."""

from __future__ import annotations

import filecmp
import os
from pathlib import Path

import pytest

from generator.build import build
from generator.config import load_config
from generator.runtime import parallel
from tests.conftest import copy_project


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_build_on_three_processes_writes_the_files_of_a_serial_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    trees = {}
    for jobs in ("1", "3"):
        monkeypatch.setenv("READINGLIST_JOBS", jobs)
        monkeypatch.setenv("READINGLIST_CACHE", "off")
        (tmp_path / jobs).mkdir()
        config = load_config(copy_project(tmp_path / jobs))
        result = build(config)
        assert not result.problems.errors
        trees[jobs] = _tree(config.build_dir)
    assert list(trees["3"]) == list(trees["1"])
    assert trees["3"] == trees["1"]
    assert b"@article{maron2025oneshot," in trees["3"]["references.bib"]
    assert not filecmp.dircmp(tmp_path / "1" / "build", tmp_path / "3" / "build").diff_files


def test_map_in_order_keeps_the_order_of_many_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    seen_in = os.getpid()
    items = list(range(5000))
    offset = {"value": 7}  # a closure's state reaches the workers as it was when they forked

    def fn(x: int) -> tuple[int, bool]:
        return x * x + offset["value"], os.getpid() != seen_in

    got = parallel.map_in_order(fn, items, jobs=2)
    assert [value for value, _ in got] == [x * x + 7 for x in items]
    assert all(in_worker for _, in_worker in got)  # really on the workers, not here
    assert parallel.map_in_order(fn, items, jobs=1) == [(x * x + 7, False) for x in items]


def test_jobs_come_from_the_environment_or_the_list_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_JOBS", raising=False)
    assert parallel.jobs_for(41) == 1
    assert parallel.jobs_for(parallel.PARALLEL_MIN) == max(1, min(os.cpu_count() or 1, 4))
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    assert parallel.jobs_for(41) == 2
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    assert parallel.jobs_for(100_000) == 1


def test_an_error_in_a_worker_reaches_the_caller() -> None:
    def fn(x: int) -> int:
        if x == 4321:
            raise ValueError("bad item 4321")
        return x

    with pytest.raises(ValueError, match="bad item 4321"):
        parallel.map_in_order(fn, list(range(5000)), jobs=2)
