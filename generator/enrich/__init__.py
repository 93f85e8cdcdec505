"""Enrich the read records: merge duplicates, give ids, keys and slugs, tags and related papers."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

from ..errors import Problems
from ..model import Digest, Library, Paper
from ..sources.common import RawDigest
from .merge import merge
from .registry import Registry
from .text import slugify


def enrich(raws: list[RawDigest], registry: Registry, problems: Problems,
           pins: dict[str, str] | None = None,
           year_overrides: dict[str, int] | None = None,
           tag_changes: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] | None = None) -> Library:
    papers, alias = merge(raws)
    if year_overrides:
        # Before keys: a note's `year:` is the year the citation key is made from.
        papers = [replace(p, date=_with_year(p.date, year_overrides[p.id])) if p.id in year_overrides else p
                  for p in papers]
    assigned = registry.assign(papers, pins or {}, problems)
    papers = [replace(p, key=assigned[p.id][0], slug=assigned[p.id][1]) for p in papers]
    if tag_changes:
        papers = [_change_tags(p, *tag_changes[p.id]) if p.id in tag_changes else p for p in papers]
    digests = _digests(raws, alias)
    return Library(papers=papers, digests=digests)


def _with_year(date: dt.date | None, year: int) -> dt.date:
    if date is None:
        return dt.date(year, 1, 1)
    return date.replace(year=year, day=min(date.day, 28) if date.month == 2 else date.day)


def _change_tags(paper: Paper, add: tuple[str, ...], remove: tuple[str, ...]) -> Paper:
    """A note's `tags` / `remove_tags` on top of the paper's tags (topics assigns those)."""
    tags = tuple(t for t in dict.fromkeys(paper.tags + add) if t not in set(remove))
    return replace(paper, tags=tags)


def _digests(raws: list[RawDigest], alias: dict[str, str]) -> list[Digest]:
    out: list[Digest] = []
    used: set[str] = set()
    for raw in raws:
        slug = slugify(Path(raw.path).stem, 80)
        while slug in used:
            slug += "-x"
        used.add(slug)
        ids = tuple(dict.fromkeys(alias.get(p.id, p.id) for p in raw.papers))
        out.append(Digest(raw.path, raw.format, raw.title, raw.date, raw.date_source, ids, slug))
    return out


__all__ = ["Paper", "Registry", "enrich"]
