"""Enrich the read records: merge duplicates, give ids, keys and slugs, tags and related papers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ..config import Config
from ..errors import Problems
from ..forked import Beside, worth_forking
from ..model import Digest, Library, Paper, evolve
from ..sources.common import RawDigest
from .bibtex.names import apply_name_overrides
from .keys import apply_year_overrides
from .merge import merge
from .registry import Pin, Registry
from .related import PARALLEL_MIN, Settings, TagModel, tag_model, text_model, with_related
from .tagging import TagsBeside
from .text import slugify
from .topics import TagChanges, Taxonomy, load_taxonomy, paper_tag_lists, resolve_note_tags


def enrich(raws: list[RawDigest], registry: Registry, problems: Problems,
           pins: Mapping[str, str | Pin] | None = None,
           year_overrides: Mapping[str, int] | None = None,
           names: Mapping[str, str] | None = None,
           tag_changes: TagChanges | None = None, *, config: Config | None = None,
           taxonomy: Taxonomy | None = None,
           tag_sources: Mapping[str, tuple[str, int, int]] | None = None,
           keyed: Callable[[list[Paper]], None] | None = None) -> Library:
    """Notes feed `pins`, `year_overrides` and `tag_changes` (paper id -> (tags to add, to remove)).
    `keyed` is shown the papers as soon as they have their citation keys (generator/early.py)."""
    papers, alias = merge(raws)
    # Tags come from titles, abstracts and subjects alone: with many papers a forked child tags
    # them while this process gives keys and counts the words for related papers, the child
    # having numbered the words of most of their texts first (enrich/tagging.py). Messages keep
    # the order of a serial run (the taxonomy's after the keys').
    later = Problems()
    if taxonomy is None:
        taxonomy = load_taxonomy(config.topics_path, later, _shown(config)) if config else Taxonomy()
    if tag_changes and tag_sources:
        tag_changes = _resolve_note_tags(tag_changes, tag_sources, taxonomy, later)
    fork = worth_forking(len(papers), PARALLEL_MIN)
    settings = Settings(config.related_count, config.related_min_score) if config else Settings()
    tagging: Beside[Tagged] | TagsBeside
    tagging = TagsBeside(papers, taxonomy, tag_changes, settings) if fork else Beside(
        False, _tags, papers, taxonomy, tag_changes, None)
    with tagging:
        # Before keys: a note's `year:` is the year the citation key is made from.
        papers = apply_year_overrides(papers, year_overrides or {}, problems)
        papers = apply_name_overrides(papers, names or {})
        assigned = registry.assign(papers, pins or {}, problems)
        problems.extend(later)
        papers = [evolve(p, key=assigned[p.id][0], slug=assigned[p.id][1]) for p in papers]
        if keyed is not None:
            keyed(papers)
        text = (text_model(papers, settings, tagging.block, tagging.size) if isinstance(tagging, TagsBeside)
                else None)
        tag_lists, tags_model = tagging.result()
    papers = with_related(papers, settings, text, tags_model, tag_lists)
    digests = _digests(raws, alias)
    topics = tuple((t.name, t.description) for t in taxonomy.topics)
    return Library(papers=papers, digests=digests, topics=topics)


Tagged = tuple[list[tuple[str, ...]], TagModel | None]


def _tags(papers: list[Paper], taxonomy: Taxonomy, tag_changes: TagChanges | None,
          settings: Settings | None) -> Tagged:
    """The papers' tags and, with `settings`, the tag side of their related-paper scores: the
    forked child makes both, while this process gives keys and makes the text side."""
    tag_lists = paper_tag_lists(papers, taxonomy, tag_changes)
    return tag_lists, tag_model(tag_lists, settings) if settings is not None else None


def _resolve_note_tags(changes: TagChanges, sources: Mapping[str, tuple[str, int, int]],
                       taxonomy: Taxonomy, problems: Problems) -> TagChanges:
    """Note tag names spelled as the taxonomy spells them; unknown ones warn with the note's path:line."""
    out: TagChanges = {}
    for pid, (add, remove) in changes.items():
        if pid not in sources:
            out[pid] = (add, remove)
            continue
        path, add_line, remove_line = sources[pid]
        out[pid] = (resolve_note_tags(add, taxonomy, path, add_line, problems),
                    resolve_note_tags(remove, taxonomy, path, remove_line, problems))
    return out


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


__all__ = ["Paper", "Pin", "Registry", "enrich"]
