"""Enrich the read records: merge duplicates, give ids, keys and slugs, tags and related papers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ..errors import Problems
from ..model import Digest, Library, Paper
from ..sources.common import RawDigest
from .bibnames import apply_name_overrides
from .keys import apply_year_overrides
from .merge import merge
from .registry import Pin, Registry
from .text import slugify


def enrich(raws: list[RawDigest], registry: Registry, problems: Problems,
           pins: Mapping[str, str | Pin] | None = None,
           year_overrides: Mapping[str, int] | None = None,
           names: Mapping[str, str] | None = None,
           tag_changes: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] | None = None) -> Library:
    papers, alias = merge(raws)
    # Before keys: a note's `year:` is the year the citation key is made from.
    papers = apply_year_overrides(papers, year_overrides or {}, problems)
    papers = apply_name_overrides(papers, names or {})
    assigned = registry.assign(papers, pins or {}, problems)
    papers = [replace(p, key=assigned[p.id][0], slug=assigned[p.id][1]) for p in papers]
    if tag_changes:
        papers = [_change_tags(p, *tag_changes[p.id]) if p.id in tag_changes else p for p in papers]
    digests = _digests(raws, alias)
    return Library(papers=papers, digests=digests)


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


__all__ = ["Paper", "Pin", "Registry", "enrich"]
