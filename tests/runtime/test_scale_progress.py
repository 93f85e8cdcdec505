"""Progress lines on a terminal only."""

from __future__ import annotations

import io

import pytest

from generator.runtime import progress
from tests.conftest import Tty


def test_progress_draws_and_erases_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    out = Tty()
    bar = progress.Progress("reading digests", 3, stream=out, show=True)
    bar.update(3)
    assert out.getvalue() == "\r\x1b[Kreadinglist: reading digests 3/3"
    bar.close()
    assert out.getvalue().endswith("\r\x1b[K")


def test_progress_is_silent_in_ci_when_piped_or_when_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("READINGLIST_PROGRESS", raising=False)
    assert progress.enabled(Tty()) is True
    assert progress.enabled(io.StringIO()) is False
    monkeypatch.setenv("CI", "true")
    assert progress.enabled(Tty()) is False
    monkeypatch.delenv("CI")
    monkeypatch.setenv("READINGLIST_PROGRESS", "off")
    assert progress.enabled(Tty()) is False
    out = io.StringIO()
    bar = progress.Progress("x", 2, stream=out)
    bar.update(2)
    bar.close()
    assert out.getvalue() == ""


def test_track_yields_everything() -> None:
    assert list(progress.track([1, 2, 3], "counting")) == [1, 2, 3]

