"""Enrich the read records: merge duplicates, give ids, keys and slugs, tags and related papers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..config import Config
from ..errors import Problems
from ..model import Digest, Library, Paper
from ..sources.common import RawDigest
from .merge import merge
from .registry import Registry
from .related import Settings, with_related
from .text import slugify
from .topics import TagChanges, Taxonomy, load_taxonomy, tag_papers


def enrich(raws: list[RawDigest], registry: Registry, problems: Problems,
           pins: dict[str, str] | None = None, *, config: Config | None = None,
           taxonomy: Taxonomy | None = None, tag_changes: TagChanges | None = None) -> Library:
    """`tag_changes` maps a paper id to (tags to add, tags to remove), from its note."""
    papers, alias = merge(raws)
    assigned = registry.assign(papers, pins or {}, problems)
    papers = [replace(p, key=assigned[p.id][0], slug=assigned[p.id][1]) for p in papers]
    if taxonomy is None:
        taxonomy = load_taxonomy(config.topics_path, problems, _shown(config)) if config else Taxonomy()
    papers = tag_papers(papers, taxonomy, tag_changes)
    settings = Settings(config.related_count, config.related_min_score) if config else Settings()
    papers = with_related(papers, settings)
    digests = _digests(raws, alias)
    topics = tuple((t.name, t.description) for t in taxonomy.topics)
    return Library(papers=papers, digests=digests, topics=topics)


def _shown(config: Config) -> str:
    try:
        return config.topics_path.relative_to(config.root).as_posix()
    except ValueError:
        return str(config.topics_path)


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
