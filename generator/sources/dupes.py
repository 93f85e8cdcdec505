"""The same paper twice in one digest (a paste repeated, a mail forwarded into itself).

Both records are reported with their lines and one paper is kept: the richer
record, or the first one when they are equally complete.
"""

from __future__ import annotations

from ..errors import Problems
from ..model import Paper
from .ids import normalise_title
from .records import RawDigest


def _richness(p: Paper) -> tuple[int, int, int, int, int]:
    return (int(bool(p.url)), int(bool(p.authors)), int(p.authors_complete), int(not p.title_missing),
            len(p.abstract))


def _same_paper_keys(p: Paper) -> list[tuple[str, str]]:
    keys = [("id", p.id)]
    # Two records with different forum ids are two papers, even with the same title.
    norm = normalise_title(p.title)
    if norm and not p.title_missing and not p.openreview_id:
        keys.append(("title", norm))
    return keys


_WHY = {"openreview": "same OpenReview id", "arxiv": "same arXiv id", "title": "same title",
        "untitled": "no title and the same abstract"}


def drop_duplicates(raw: RawDigest, problems: Problems) -> None:
    """Keep one paper per repeated record of `raw`, warning at the later record's line."""
    kept: list[Paper] = []
    seen: dict[tuple[str, str], int] = {}
    for paper in raw.papers:
        if paper.replacement:  # a new version of a paper: merged with it later (enrich/merge.py)
            kept.append(paper)
            continue
        keys = _same_paper_keys(paper)
        hit = next(((k, seen[k]) for k in keys if k in seen), None)
        if hit is None:
            for k in keys:
                seen[k] = len(kept)
            kept.append(paper)
            continue
        (kind, value), index = hit
        first = kept[index]
        why = _WHY.get(value.split(":", 1)[0] if kind == "id" else kind, "same id")
        winner = paper if _richness(paper) > _richness(first) else first
        problems.warn(raw.path, paper.origin.line,
                      f"the same paper as the record at line {first.origin.line} ({why}); keeping the "
                      f"record at line {winner.origin.line}")
        kept[index] = winner
        for k in keys:
            seen.setdefault(k, index)
    raw.papers = kept
