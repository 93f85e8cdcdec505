"""A build pauses Python's cyclic garbage collector while its stages run (runtime/collector.py), and
leaves it as it found it: MkDocs runs the build inside its own process through the plugin."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.build import build
from generator.config import load_config
from generator.errors import GeneratorError
from tests.conftest import copy_project


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generations of the collector's passes while the test runs (gc.callbacks)."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def _seeds(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def test_a_build_runs_its_stages_without_collector_passes_and_turns_it_back_on(tmp_path: Path, passes: list[int],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_GC_PAUSE", raising=False)
    monkeypatch.setenv("READINGLIST_CACHE", "off")  # every stage runs
    assert gc.isenabled()
    config = load_config(_seeds(tmp_path))
    before = len(passes)
    result = build(config)
    during = passes[before:]
    assert len(result.library.papers) == 41 and result.stats is not None and result.stats.written
    # Only the collector's catch-up once the stages are done, a pass or two (the same build with
    # the collector running makes dozens: the next test).
    assert len(during) <= 3
    assert gc.isenabled()


def test_switched_off_the_collector_runs_during_the_build(tmp_path: Path, passes: list[int],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READINGLIST_GC_PAUSE", "off")
    monkeypatch.setenv("READINGLIST_CACHE", "off")
    config = load_config(_seeds(tmp_path))
    before = len(passes)
    build(config)
    assert passes[before:].count(0) >= 20  # the youngest generation, collected every few hundred new objects
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_GC_PAUSE", raising=False)
    gc.disable()
    try:
        build(load_config(_seeds(tmp_path)))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_failed_build_turns_the_collector_back_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_GC_PAUSE", raising=False)
    config = load_config(_seeds(tmp_path))
    (config.build_dir / "notes.txt").write_text("someone else's file\n")  # no marker: not a build folder
    with pytest.raises(GeneratorError, match=r"no \.readinglist-build marker"):
        build(config)
    assert gc.isenabled()
