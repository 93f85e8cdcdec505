"""Waiting in tests: for a condition, with a deadline, never for a fixed time.

A test that sleeps a fixed time is either slow (the time is generous) or flaky (it is not, on a
busy machine). `wait_until` checks the condition again and again and returns as soon as it holds;
the deadline only bounds how long a broken build may keep the test waiting. A test that must show
that something does *not* happen (a second rebuild, a rebuild loop) waits for a later event that
proves it instead: an edit made afterwards whose rebuild holds only that edit, or a build that
wrote nothing (after which nothing is left to rebuild).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# How often the condition is checked: often enough that a test waits a few milliseconds longer
# than needed, seldom enough that the checks cost nothing next to what the test waits for.
INTERVAL = 0.02


def wait_until(predicate: Callable[[], T], timeout: float, message: str | Callable[[], str] = "") -> T:
    """The first true value of `predicate()`, checked until `timeout` seconds have passed; past
    the deadline an AssertionError with `message` (a callable is called then, e.g. to show a log)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {timeout:g} s: {message() if callable(message) else message}")
        time.sleep(INTERVAL)
