"""One paper seen in several digests becomes one record listing every source."""

from __future__ import annotations

from dataclasses import replace

from ..model import Paper
from ..sources.common import RawDigest, normalise_title

_STATUS_RANK = {"preprint": 0, "under review": 1, "accepted": 2}


def _richness(p: Paper) -> tuple[int, int, int, int, int]:
    return (_STATUS_RANK.get(p.status, 0), int(bool(p.authors)), int(p.authors_complete),
            int(not p.title_missing), len(p.abstract))


def _combine(old: Paper, new: Paper) -> Paper:
    """The richer record wins; on a tie the later one (newer digest) does."""
    new_is_later = old.date is None or new.date is None or new.date >= old.date
    better = new if (_richness(new), new_is_later) >= (_richness(old), True) else old
    other = old if better is new else new
    return replace(
        better,
        # The first-seen id stays: the page URL and citation key hang on it.
        id=old.id,
        origin=old.origin,
        authors=better.authors or other.authors,
        authors_complete=better.authors_complete if better.authors else other.authors_complete,
        url=better.url or other.url,
        openreview_id=better.openreview_id or other.openreview_id,
        abstract=better.abstract or other.abstract,
        labels=tuple(dict.fromkeys(better.labels + other.labels)),
        categories=tuple(dict.fromkeys(better.categories + other.categories)),
        sources=tuple(dict.fromkeys(old.sources + new.sources)),
    )


def merge(digests: list[RawDigest]) -> tuple[list[Paper], dict[str, str]]:
    """Papers in first-seen order, duplicates folded by id or normalised title.

    Also returns alias -> kept id for every folded record, so digest pages can
    list a paper under each digest that carried it.
    """
    by_id: dict[str, Paper] = {}
    alias: dict[str, str] = {}
    title_to_id: dict[str, str] = {}
    for digest in digests:
        for paper in digest.papers:
            norm = normalise_title(paper.title)
            pid = alias.get(paper.id) or (paper.id if paper.id in by_id else None)
            # An all-symbol title normalises to "": it says nothing about which paper this is.
            if pid is None and norm and not paper.title_missing:
                pid = title_to_id.get(norm)
            if pid is not None:
                by_id[pid] = _combine(by_id[pid], paper)
            else:
                pid = paper.id
                by_id[pid] = paper
            alias[paper.id] = pid
            if norm and not paper.title_missing:
                title_to_id.setdefault(norm, pid)
    return list(by_id.values()), alias
