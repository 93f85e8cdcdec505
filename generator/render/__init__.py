"""Render: pure functions from the enriched model to the text of every file of the docs folder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..enrich import bibtex
from ..model import Digest, Library, Paper
from ..runtime.progress import track
from . import citesearch
from .citefiles import reference_files
from .exports import papers_json_pieces
from .feeds import render_feeds
from .indexes import has_downloads, render_all_pages, render_digest_index, render_digest_pages, render_home
from .links import paper_md
from .map import MAP_MD, render_map
from .notes import mentions_section, note_section
from .pagination import page_size
from .paper import Section, render_paper
from .related import related_section
from .status import render_status_pages
from .tagnames import all_tag_slugs
from .tags import render_tag_bibs, render_tag_pages

if TYPE_CHECKING:
    from .references import FormattedReferences

ASSETS = {
    "assets/readinglist.css": "readinglist.css",
    "assets/javascripts/readinglist-search.js": "readinglist-search.js",
    "assets/javascripts/readinglist.js": "readinglist.js",
}


def render_site(library: Library, config: Config, refs: FormattedReferences) -> dict[str, str]:
    """Every generated file of the docs folder, keyed by its path inside it. `refs`: the references
    stage's result (render/references.py), each paper's CSL item and formatted references."""
    by_id = library.by_id()
    slugs = all_tag_slugs(library)
    size = page_size(config)
    digests = {d.path: d for d in library.digests}

    files: dict[str, str] = {}
    for paper in track(library.papers, "rendering papers"):
        files.update(render_paper_files(paper, library, config, refs, by_id, slugs, digests))
    files.update(render_listings(library, config, by_id, slugs, size, refs.items))
    files.update(_static_assets())
    return files


def render_listings(library: Library, config: Config, by_id: dict[str, Paper], slugs: dict[str, str],
                    size: int, items: Mapping[str, dict[str, Any]] | None = None) -> dict[str, str]:
    """The pages and files that list papers: home, digests, All papers, status and tag pages,
    the map, papers.json, the .bib, CSL-JSON and RIS files and the Atom feeds. `slugs`: `all_tag_slugs(library)`;
    `items`: the papers' CSL items (the references stage's `items`), when already made."""
    listings: dict[str, str] = {}
    listings["index.md"] = render_home(library, config)
    listings["digests/index.md"] = render_digest_index(library)
    listings["papers.json"] = "".join(papers_json_pieces(library))
    listings[MAP_MD] = render_map(library)
    listings.update(render_all_pages(library, size))
    listings.update(render_status_pages(library))
    listings.update(render_tag_pages(library))
    for digest in library.digests:
        listings.update(render_digest_pages(digest, library, by_id, size))
    listings["references.bib"] = bibtex.bibliography(library.papers)
    listings.update(render_tag_bibs(library))
    for digest in filter(has_downloads, library.digests):
        bib = bibtex.bibliography([by_id[i] for i in digest.paper_ids if i in by_id])
        listings[f"digests/{digest.slug}.bib"] = bib
    listings.update(reference_files(library, slugs, by_id, items))
    listings.update(render_feeds(library, config, slugs))
    return listings


def render_paper_files(paper: Paper, library: Library, config: Config, refs: FormattedReferences,
                       by_id: dict[str, Paper] | None = None, slugs: dict[str, str] | None = None,
                       digests: dict[str, Digest] | None = None) -> dict[str, str]:
    """The page of one paper (its BibTeX downloads from the page itself: static/readinglist.js).
    `refs`: the references stage's result (render/references.py)."""
    entry = bibtex.entry_text(paper)
    by_id = library.by_id() if by_id is None else by_id
    # Sections contributed by later stages go into these tuples, one function each. They are
    # called in page order with the page's heading ids, so ids stay unique as `toc` makes them.
    after_abstract: tuple[Section, ...] = (lambda ids: note_section(paper, library, config, ids, by_id),)
    after_bibtex: tuple[Section, ...] = (lambda ids: citesearch.cite_line(paper),
                                         lambda ids: related_section(paper, library, by_id, ids),
                                         lambda ids: mentions_section(paper, library, ids))
    slugs = all_tag_slugs(library) if slugs is None else slugs
    edit_url = config.extra.get("edit_url")
    edit_url = edit_url if isinstance(edit_url, str) and edit_url.startswith(("http://", "https://")) else ""
    return {paper_md(paper): render_paper(paper, library, entry, after_abstract, after_bibtex, slugs, digests,
                                          edit_url, refs.of(paper))}


def render_note_pages(library: Library, config: Config, paper_ids: set[str],
                      refs: FormattedReferences) -> dict[str, str]:
    """Only what a change of notes alone can alter: those papers' pages, status pages, home.
    The watcher uses it when no note's overrides changed (see generator/watch.py), with the
    references stage's result of the build it keeps (`refs`; a note changes no reference)."""
    files = {"index.md": render_home(library, config), **render_status_pages(library)}
    by_id, slugs = library.by_id(), all_tag_slugs(library)
    digests = {d.path: d for d in library.digests}
    for paper in library.papers:
        if paper.id in paper_ids:
            files.update(render_paper_files(paper, library, config, refs, by_id, slugs, digests))
    return files


def _static_assets() -> dict[str, str]:
    from importlib import resources

    out = {}
    for target, name in ASSETS.items():
        out[target] = resources.files("generator.render").joinpath("static", name).read_text("utf-8")
    return out
