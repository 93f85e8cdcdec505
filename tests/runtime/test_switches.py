"""Every environment switch reads the same way (generator/runtime/switches.py)."""

from __future__ import annotations

import pytest

from generator.runtime import progress, switches
from tests.conftest import Tty


@pytest.mark.parametrize("value", ["off", "OFF", "0", "no", "false", " off "])
def test_a_switch_turned_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("READINGLIST_X", value)
    assert switches.on("READINGLIST_X") is False


@pytest.mark.parametrize("value", ["", "on", "1", "yes", "anything"])
def test_a_switch_left_on(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("READINGLIST_X", value)
    assert switches.on("READINGLIST_X") is True


def test_an_unset_switch_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_X", raising=False)
    assert switches.on("READINGLIST_X") is True


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("1", True), ("YES", True), ("", False),
                                                   ("false", False), ("0", False)])
def test_ci_reads_the_other_way_round(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    monkeypatch.setenv("CI", value)
    assert switches.ci() is expected


@pytest.mark.parametrize("value", ["off", "false", "0"])
def test_the_progress_line_takes_the_same_words(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("READINGLIST_PROGRESS", value)
    assert progress.enabled(Tty()) is False
    monkeypatch.setenv("READINGLIST_PROGRESS", "on")
    assert progress.enabled(Tty()) is True


@pytest.mark.parametrize(("value", "expected"), [("3", 3), (" 2 ", 2), ("1", 1), ("0", None), ("zero", None),
                                                   ("", None), ("-1", None), ("2.5", None)])
def test_a_number_is_a_whole_number_from_one_up(monkeypatch: pytest.MonkeyPatch, value: str,
                                                 expected: int | None) -> None:
    """`READINGLIST_WORKERS`: a count, or its default (None) for anything else."""
    monkeypatch.setenv("READINGLIST_X", value)
    assert switches.count("READINGLIST_X") == expected
