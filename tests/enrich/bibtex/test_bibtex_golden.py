"""Golden BibTeX files for the seeds: any change to an entry shows up as a reviewable diff.

Regenerate after an intended change with `make golden` (env READINGLIST_UPDATE_GOLDEN=1).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.build import BuildResult

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
UPDATE = os.environ.get("READINGLIST_UPDATE_GOLDEN", "") not in {"", "0"}
FILES = {
    "references.bib": "references.bib",
    "digests/000-1b8355006bbdabc6.bib": "digest-000-1b8355006bbdabc6.bib",
    "digests/001-68714a788c6fb328.bib": "digest-001-68714a788c6fb328.bib",
}


@pytest.mark.parametrize(("built", "golden"), sorted(FILES.items()))
def test_seed_bibtex_matches_golden(seed_build: BuildResult, built: str, golden: str) -> None:
    text = seed_build.files[built]
    path = GOLDEN / golden
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} missing: run `make golden`"
    assert text == path.read_text(encoding="utf-8")
