"""The benchmark's verdicts (benchmarks/report.py) compare like with like: a build with the caches
kept against the other revision's build with its caches kept, in the same round."""

from __future__ import annotations

from typing import Any

from benchmarks import report


def _run(variant: str, rnd: int, whole: float, whole_warm: float | None) -> dict[str, Any]:
    return {"workload": "seeded", "n": 10_000, "variant": variant, "round": rnd, "whole": whole,
            "whole_warm": whole_warm, "site_bytes": None, "download_bytes": None}


def test_caches_kept_is_divided_by_the_other_revisions_caches_kept_build() -> None:
    # The seeded rounds of issue 34's fourth benchmark (whole build cold, and with caches kept).
    runs = [_run("stock", 1, 33.8, None), _run("base", 1, 81.9, 29.07), _run("base@7a723a7", 1, 81.6, 29.66),
            _run("stock", 2, 34.0, None), _run("base", 2, 83.2, 29.77), _run("base@7a723a7", 2, 82.4, 28.91),
            _run("stock", 3, 34.5, None), _run("base", 3, 85.2, 30.51), _run("base@7a723a7", 3, 81.4, 29.37)]
    lines = report.verdicts(report.summarise(runs, "base"), "base", runs)
    assert "seeded at 10,000: whole build, cold, 1.01 x base@7a723a7 (target <= 1.25: met)" in lines
    # 29.77 / 28.91 = 1.03 is the median of the rounds' 0.98, 1.03 and 1.04 (not 0.36: the cold build).
    assert "seeded at 10,000: whole build, caches kept, 1.03 x base@7a723a7 (target <= 1.25: met)" in lines
