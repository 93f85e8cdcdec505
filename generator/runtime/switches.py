"""Environment switches, parsed in one place.

Every readinglist switch reads the same way: `off`, `0`, `no` or `false` (any case) turn it off,
anything else (or nothing) leaves its default. `CI` is the one variable that is read the other way
round: `1`, `true` or `yes` mean a CI run. A variable that gives a number (`READINGLIST_WORKERS`)
is read by `count`: a whole number from 1 up, anything else (or nothing) leaves its default.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar, cast

_OFF = {"off", "0", "no", "false"}
_ON = {"on", "1", "yes", "true"}


def on(name: str) -> bool:
    """Whether the switch `name` (default on) is left on: `NAME=off` turns it off."""
    return os.environ.get(name, "").strip().lower() not in _OFF


def ci() -> bool:
    """Whether this is a CI run (`CI=true`, as GitHub Actions and most CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in _ON


def count(name: str) -> int | None:
    """The whole number (1 or more) the variable `name` gives, or None (its default) for anything else."""
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() and int(value) >= 1 else None


F = TypeVar("F", bound=Callable[..., Any])

# The one switch of the memoized text functions, the caches of pure functions that each saved a
# measured amount of a build and together pay (benchmark.md): render/escape.text,
# render/math.to_mathml, notes/markdown.wikilinks, enrich/display.title_text and math_text,
# enrich/bibtex.bib_name, enrich/bibtex/title.escape_text and needs_protection, render/csl.csl_name,
# render/html._base_id, render/graph._texts, sources/tex.tex_to_text. benchmarks/variants.py's
# `no-text-cache` variant measures them.
TEXT_CACHE = "READINGLIST_TEXT_CACHE"
# Unchanged paper pages left out of `mkdocs serve` rebuilds (site/serve_rebuilds.py); off, every
# dirty rebuild gives MkDocs all the pages, as MkDocs does by itself.
SERVE_PRUNE = "READINGLIST_SERVE_PRUNE"


def memoized(maxsize: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)` for a pure text function, or the function itself when
    READINGLIST_TEXT_CACHE is off. Read once, when the module that uses it is imported: a build
    with the switch off is a process started with it off (the benchmark's variants are)."""
    def wrap(fn: F) -> F:
        return cast(F, lru_cache(maxsize=maxsize)(fn)) if on(TEXT_CACHE) else fn
    return wrap
