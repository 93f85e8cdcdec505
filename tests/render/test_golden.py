"""Golden Markdown for a few papers and pages. Regenerate after an intended change: `make golden`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.build import BuildResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "markdown"
UPDATE = os.environ.get("READINGLIST_UPDATE_GOLDEN") == "1"
# One of each kind: TMLR accepted, TMLR under review, cross-listed with math, missing title, LaTeX title.
KEYS = ["maron2025oneshot", "anonymous2025deepseekr1", "modoranu2026matryoshkalora",
        "grunefeld2026untitled", "nodehi2026vista"]
PAGES = ["digests/000-1b8355006bbdabc6/index.md"]


def _generated(seed_build: BuildResult) -> dict[str, str]:
    by_key = {p.key: p for p in seed_build.library.papers}
    out = {f"{key}.md": seed_build.files[f"papers/{by_key[key].slug}/index.md"] for key in KEYS}
    out.update({_golden_name(page): seed_build.files[page] for page in PAGES})
    return out


def _golden_name(page: str) -> str:
    return page.removesuffix("/index.md").replace("/", "__") + ".md"


@pytest.mark.parametrize("name", [f"{k}.md" for k in KEYS] + [_golden_name(p) for p in PAGES])
def test_golden_markdown(seed_build: BuildResult, name: str) -> None:
    text = _generated(seed_build)[name]
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run `make golden`"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file; `make golden` " \
        "regenerates it after an intended change"
