"""Render: pure functions from the enriched model to the files of the docs folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ..config import Config
from ..enrich import bibtex
from ..model import Digest, Library, Paper
from ..prewrite import Prewrite, TreeFiles
from ..write import Content, Pieces
from . import citesearch
from .exports import papers_json_pieces
from .indexes import render_all_pages, render_digest_index, render_digest_pages, render_home
from .links import paper_md
from .map import MAP_MD, render_map
from .notes import mentions_section, note_section
from .pagination import page_size
from .paper import Section, render_paper
from .parallel import merged, render_papers
from .related import related_section
from .status import render_status_pages
from .tags import all_tag_slugs, render_tag_bibs, render_tag_pages

ASSETS = {
    "assets/readinglist.css": "readinglist.css",
    "assets/javascripts/readinglist-search.js": "search-worker.js",
    "assets/javascripts/readinglist.js": "readinglist.js",
}


def render_site(library: Library, config: Config, prewrite: Prewrite | None = None,
                idle: Callable[[], None] | None = None) -> dict[str, str] | TreeFiles:
    """Every generated file, keyed by its path inside the build folder. With `prewrite`, paper
    pages rendered by worker processes are also written by them (prewrite.Prewrite), and only
    their names come back (TreeFiles). `idle`: see render_papers."""
    by_id = library.by_id()
    slugs = all_tag_slugs(library)
    size = page_size(config)

    def without_bibtex() -> Iterator[Mapping[str, Content]]:
        # Made while worker processes render the paper pages (render/parallel.py), a few files at
        # a time: each group is written before the next is made, so the worker never holds the
        # 60 MB of all of them (new memory costs kernel time here: README, Performance).
        yield {"index.md": render_home(library, config), "digests/index.md": render_digest_index(library)}
        yield {"papers.json": Pieces(lambda: papers_json_pieces(library))}
        yield {MAP_MD: render_map(library)}
        yield render_all_pages(library, size)
        yield render_status_pages(library)
        yield render_tag_pages(library)
        for digest in library.digests:
            yield render_digest_pages(digest, library, by_id, size)

    def bib_groups() -> Iterator[Mapping[str, Content]]:
        yield {"references.bib": bibtex.bibliography(library.papers)}
        yield render_tag_bibs(library)
        yield {f"digests/{digest.slug}.bib": bibtex.bibliography([by_id[i] for i in digest.paper_ids if i in by_id])
               for digest in library.digests}

    def listings() -> Iterator[Mapping[str, Content]]:
        yield from without_bibtex()
        yield from bib_groups()

    # The .bib files reuse each paper's BibTeX entry: when every entry was made ahead
    # (generator/early.py) they are made (and written) with the listings, while the paper pages
    # are rendered; else as soon as the rest of the entries are made (render/parallel.py).
    early = all(bibtex.known(p) for p in library.papers)
    digests = {d.path: d for d in library.digests}
    pages, other = render_papers(library, lambda paper: render_paper_files(paper, library, config, by_id, slugs,
                                                                           digests),
                                 meanwhile=listings if early else without_bibtex, prewrite=prewrite, idle=idle,
                                 with_entries=None if early else lambda: merged(bib_groups()))
    bibs = {rel: other.pop(rel) for rel in [r for r in other if r.endswith(".bib")]}
    other.update((rel, text) for rel, text in bibs.items() if not rel.startswith("digests/"))
    files: dict[str, str] | TreeFiles
    if isinstance(pages, TreeFiles):
        pages.update(other)  # the pages stay on disk; the rest joins them
        files = pages
    else:
        files = other
        files.update(pages)
    files.update((rel, text) for rel, text in bibs.items() if rel.startswith("digests/"))
    files.update(_static_assets())
    return files


def render_paper_files(paper: Paper, library: Library, config: Config,
                       by_id: dict[str, Paper] | None = None, slugs: dict[str, str] | None = None,
                       digests: dict[str, Digest] | None = None) -> dict[str, str]:
    """The page of one paper (its BibTeX downloads from the page itself: static/readinglist.js)."""
    entry = bibtex.entry_text(paper)
    by_id = library.by_id() if by_id is None else by_id
    # Sections contributed by later stages go into these tuples, one function each. They are
    # called in page order with the page's heading ids, so ids stay unique as `toc` makes them.
    after_abstract: tuple[Section, ...] = (lambda ids: note_section(paper, library, config, ids),)
    after_bibtex: tuple[Section, ...] = (lambda ids: citesearch.cite_line(paper),
                                         lambda ids: related_section(paper, library, by_id, ids),
                                         lambda ids: mentions_section(paper, library, ids))
    slugs = all_tag_slugs(library) if slugs is None else slugs
    return {paper_md(paper): render_paper(paper, library, entry, after_abstract, after_bibtex, slugs, digests)}


def render_note_pages(library: Library, config: Config, paper_ids: set[str]) -> dict[str, str]:
    """Only what a change of notes alone can alter: those papers' pages, status pages, home.
    The watcher uses it when no note's overrides changed (see generator/watch.py)."""
    files = {"index.md": render_home(library, config), **render_status_pages(library)}
    by_id, slugs = library.by_id(), all_tag_slugs(library)
    digests = {d.path: d for d in library.digests}
    for paper in library.papers:
        if paper.id in paper_ids:
            files.update(render_paper_files(paper, library, config, by_id, slugs, digests))
    return files


def _static_assets() -> dict[str, str]:
    from importlib import resources

    out = {}
    for target, name in ASSETS.items():
        out[target] = resources.files("generator.render").joinpath("static", name).read_text("utf-8")
    return out
