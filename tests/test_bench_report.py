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


def test_next_day_deploy_is_divided_by_stock_on_the_same_papers_and_parts_are_per_paper() -> None:
    def run(variant: str, rnd: int, whole: float, next_whole: float) -> dict[str, Any]:
        parts = {} if variant == "stock" else {"paper pages": 140_000_000 + rnd, "papers.json": 17_000_000}
        return {**_run(variant, rnd, whole, None), "next_whole": next_whole, "parts": parts,
                "site_bytes": 100_000_000 if variant == "stock" else 157_000_000}

    # Each round's next-day deploy over that round's stock build of the same papers (N + the new ones).
    runs = [run("stock", 1, 24.0, 25.0), run("base", 1, 90.0, 30.0),
            run("stock", 2, 26.0, 20.0), run("base", 2, 91.0, 30.0),
            run("stock", 3, 25.0, 30.0), run("base", 3, 92.0, 30.0)]
    rows = report.summarise(runs, "base")
    lines = report.verdicts(rows, "base", runs)
    # 30/25, 30/20, 30/30: the median 1.20 (not 30 / the median stock 25.0).
    assert ("seeded at 10,000: next day's deploy (30.0 s: a digest of new papers, fresh build/ and site/, "
            ".readinglist-cache/ restored) 1.20 x stock MkDocs on the same papers (target <= 1.0: NOT met)") in lines
    assert "seeded at 10,000: cold first build 3.68 x stock MkDocs (target <= 2.5: NOT met)" in lines
    table = report.parts_table(rows, "base").splitlines()
    assert table[0] == "| part | seeded 10,000 KB/paper |"
    assert table[2] == "| paper pages | 13.67 |" and table[3] == "| papers.json | 1.66 |"
    assert table[4] == "| **all** | 15.33 |" and table[5] == "| stock MkDocs site, all | 9.77 |"
