"""Enrich the read records: merge duplicates, give ids, keys and slugs, tags and related papers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ..config import Config
from ..errors import Problems
from ..keep import WHERE, apply_rules, unknown_topics
from ..model import Digest, DigestCount, Library, Paper
from ..runtime.progress import track
from ..sources.records import RawDigest
from .bibtex import block
from .bibtex.names import apply_name_overrides
from .interest import interest_scores
from .keys import apply_year_overrides
from .merge import merge
from .registry import Pin, Registry
from .related import Settings, related_papers, tag_model, text_model
from .text import slugify
from .topics import TagChanges, Taxonomy, paper_tag_lists, resolve_note_tags


def enrich(raws: list[RawDigest], registry: Registry, problems: Problems,
           pins: Mapping[str, str | Pin] | None = None,
           year_overrides: Mapping[str, int] | None = None,
           names: Mapping[str, str] | None = None,
           tag_changes: TagChanges | None = None, *, taxonomy: Taxonomy, taxonomy_problems: Problems,
           config: Config | None = None,
           tag_sources: Mapping[str, tuple[str, int, int]] | None = None,
           noted: frozenset[str] = frozenset(), signals: Mapping[str, int] | None = None) -> Library:
    """The read digests as one library: duplicates merged, every paper with its citation key and
    page slug, topic tags and related papers. Notes feed `pins`, `year_overrides` and
    `tag_changes` (paper id -> (tags to add, to remove)); `names` is content/names.yml and
    `taxonomy` topics.yml, as the read stage read them (`taxonomy_problems`: its messages about
    topics.yml, which go into `problems` after the keys' and before the notes' tags'); `noted`: the
    ids of the papers with a note, which the keep rules (`config.keep`) always keep; `signals`: the
    notes' signals for the interest model (paper id -> 1 or -1, interest.py)."""
    merged = merge(raws, keep_replacements=bool(config.extra.get("keep_replacements")) if config else False)
    # A paper that gained an identifier from a new source keeps the key and page it was given.
    papers, alias = registry.known_ids(merged.papers, merged.alias)
    # The notes' tags' messages come after the keys' and the taxonomy's (the order the curator
    # has always seen).
    later = Problems()
    own: dict[str, str] = {}  # the curator's own tags (not topics), lower case -> spelling
    if tag_changes and tag_sources:
        tag_changes = _resolve_note_tags(tag_changes, tag_sources, taxonomy, later, own)
    settings = Settings(config.related_count, config.related_min_score) if config else Settings()
    # Before keys: a note's `year:` is the year the citation key is made from.
    papers = apply_year_overrides(papers, year_overrides or {}, problems)
    papers = apply_name_overrides(papers, names or {})
    # Tags and related papers are found from titles, abstracts and subjects (not keys or slugs):
    # each paper is made once with all four, not copied once for the keys and once more.
    tag_lists = paper_tag_lists(papers, taxonomy, tag_changes)
    model = text_model(papers, settings)
    # Interest is learned over every paper read, so that a keep rule may ask for it.
    own_sets = {tag: {pid for pid, (add, _) in (tag_changes or {}).items() if tag in add} for tag in own.values()}
    scores, learned = interest_scores(papers, tag_lists, model.text, model.terms, signals or {}, own_sets,
                                      [t.name for t in taxonomy.topics])
    counts: list[DigestCount] = []
    if config is not None and config.keep:
        # Before the keys: a paper left out gets none, and one that had a key keeps it (keep.py).
        verdict = apply_rules(config.keep, papers, tag_lists, _digest_papers(raws, alias), set(noted),
                              {p.id: s.score for p, s in zip(papers, scores, strict=True)} if learned else None)
        counts = verdict.counts
        for rule, name in unknown_topics(config.keep, tag_lists, [t.name for t in taxonomy.topics]):
            problems.warn("mkdocs.yml", rule.topics_line, f"{WHERE}[{rule.number}].topics: {name!r} is no topic "
                          "of content/topics.yml and no paper's tag; it keeps no paper")
        if not all(verdict.kept):
            papers = [p for p, k in zip(papers, verdict.kept, strict=True) if k]
            tag_lists = [t for t, k in zip(tag_lists, verdict.kept, strict=True) if k]
            scores = [s for s, k in zip(scores, verdict.kept, strict=True) if k]
            # The kept papers' own TF-IDF: papers left out weigh nothing in the related papers.
            model = text_model(papers, settings)
    # A .bib entry's key is pinned as a note's citekey is; a note's own citekey wins over it.
    pins = {**imported_pins(papers, registry, problems), **(pins or {})}
    assigned = registry.assign(papers, pins, problems)
    problems.extend(taxonomy_problems)
    problems.extend(later)
    links = related_papers(papers, settings, model, tag_model(tag_lists, settings), tag_lists)
    # The BibTeX entry too (the BibTeX stage's, `bibtex.with_entries`): it needs only the key.
    papers = [replace(p, key=(key := assigned[p.id][0]), slug=assigned[p.id][1], tags=tags, related=links[p.id],
                      bibtex=block(p, key), interest=score.score, why=score.why)
              for p, tags, score in zip(track(papers, "writing BibTeX"), tag_lists, scores, strict=True)]
    digests = _digests(raws, alias, {p.id for p in papers} if counts else None)
    topics = tuple((t.name, t.description) for t in taxonomy.topics)
    return Library(papers=papers, digests=digests, topics=topics, own_tags=tuple(own.values()),
                   skipped_replacements=merged.skipped_replacements, keep_counts=tuple(counts),
                   interest_learned=learned)


def imported_pins(papers: list[Paper], registry: Registry, problems: Problems) -> dict[str, Pin]:
    """The keys of entries read from .bib files, as pins. A paper that already has another key
    (citekeys.yml) keeps it: published keys never change; the message names both."""
    out: dict[str, Pin] = {}
    for paper in papers:
        if not paper.bib_key:
            continue
        src = next((s for s in paper.sources if s.path.lower().endswith(".bib")), paper.origin)
        given = registry.entries.get(paper.id, {}).get("key")
        if given and given != paper.bib_key:
            problems.warn(src.path, src.line, f"the imported key {paper.bib_key!r} is not used: this paper has had "
                          f"the key {given!r} since an earlier build ({registry.path}), and a published key never "
                          f"changes; keeping {given!r}")
            continue
        out[paper.id] = Pin(paper.bib_key, src.path, src.line, "imported key")
    return out


def _resolve_note_tags(changes: TagChanges, sources: Mapping[str, tuple[str, int, int]],
                       taxonomy: Taxonomy, problems: Problems, own: dict[str, str]) -> TagChanges:
    """Note tag names spelled as the taxonomy spells them; other names a note adds become the
    curator's own tags (collected in `own`); messages carry the note's path:line."""
    out: TagChanges = {}
    for pid, (add, remove) in changes.items():
        if pid not in sources:
            out[pid] = (add, remove)
            continue
        path, add_line, remove_line = sources[pid]
        out[pid] = (resolve_note_tags(add, taxonomy, path, add_line, problems, own=own),
                    resolve_note_tags(remove, taxonomy, path, remove_line, problems))
    return out


def _digest_papers(raws: list[RawDigest], alias: dict[str, str]) -> dict[str, list[str]]:
    """Each digest's path -> the ids of its papers (as merged)."""
    return {raw.path: [alias[p.id] for p in raw.papers if p.id in alias] for raw in raws}


def _digests(raws: list[RawDigest], alias: dict[str, str], kept: set[str] | None = None) -> list[Digest]:
    out: list[Digest] = []
    used: set[str] = set()
    for raw in raws:
        slug = slugify(Path(raw.path).stem, 80)
        while slug in used:
            slug += "-x"
        used.add(slug)
        # A replacement of a paper the list does not have was not kept: it has no alias.
        ids = tuple(dict.fromkeys(alias[p.id] for p in raw.papers
                                  if p.id in alias and (kept is None or alias[p.id] in kept)))
        out.append(Digest(raw.path, raw.format, raw.title, raw.date, raw.date_source, ids, slug))
    return out


__all__ = ["Paper", "Pin", "Registry", "enrich"]
