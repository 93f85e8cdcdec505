"""The topic tags of every seed paper, against a golden file (tests/golden/seed-topics.json).

A change in the taxonomy or the matcher that changes a seed paper's topics fails here; read the
diff, judge each change, and regenerate with `make golden` (READINGLIST_UPDATE_GOLDEN=1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from generator.build import BuildResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "seed-topics.json"
UPDATE = os.environ.get("READINGLIST_UPDATE_GOLDEN") == "1"


def test_seed_topic_tags_match_the_golden_file(seed_build: BuildResult) -> None:
    topics = {name for name, _ in seed_build.library.topics}
    got = {p.key: [t for t in p.tags if t in topics]
           for p in sorted(seed_build.library.papers, key=lambda p: p.key)}
    if UPDATE:
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(want) == 41  # every seed paper, each under its citation key
    assert got == want
