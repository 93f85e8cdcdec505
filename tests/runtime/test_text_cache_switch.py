"""READINGLIST_TEXT_CACHE switches every memoized pure text function (runtime/switches.memoized)
on and off together, when the modules are imported: what the `no-text-cache` variant of the
benchmark measures (benchmark.md). Each import is a fresh process, as a build with the switch is."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# The public memoized functions (render/html._base_id and render/graph._texts are the other two).
MEMOIZED = [
    "generator.render.escape:text", "generator.render.math:to_mathml", "generator.notes.markdown:wikilinks",
    "generator.enrich.display:title_text", "generator.enrich.display:math_text",
    "generator.enrich.bibtex:bib_name", "generator.enrich.bibtex.title:escape_text",
    "generator.enrich.bibtex.title:needs_protection", "generator.render.csl:csl_name",
    "generator.sources.tex:tex_to_text",
]
PROBE = """
import importlib, json, sys
out = {}
for spec in sys.argv[1:]:
    module, name = spec.split(":")
    fn = getattr(importlib.import_module(module), name)
    out[spec] = [hasattr(fn, "cache_info"), fn.__name__]
print(json.dumps(out))
"""


def _memoized(value: str | None) -> dict[str, list[object]]:
    env = {k: v for k, v in os.environ.items() if k != "READINGLIST_TEXT_CACHE"}
    if value is not None:
        env["READINGLIST_TEXT_CACHE"] = value
    proc = subprocess.run([sys.executable, "-c", PROBE, *MEMOIZED], env=env, capture_output=True, text=True,
                          check=True)
    return dict(json.loads(proc.stdout))


@pytest.mark.parametrize("value", [None, "on"])
def test_the_text_functions_are_memoized_by_default(value: str | None) -> None:
    got = _memoized(value)
    assert {spec: cached for spec, (cached, _) in got.items()} == dict.fromkeys(MEMOIZED, True)


@pytest.mark.parametrize("value", ["off", "0", "No"])
def test_off_leaves_every_one_the_plain_function(value: str) -> None:
    got = _memoized(value)
    assert {spec: cached for spec, (cached, _) in got.items()} == dict.fromkeys(MEMOIZED, False)
    assert [name for _, name in got.values()] == [spec.split(":")[1] for spec in MEMOIZED]
