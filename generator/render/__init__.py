"""Render: pure functions from the enriched model to the text of every file of the docs folder.

Each entry point takes the build's one `RenderContext` (render/context.py), made by
`make_context` before render: the library, the papers by id, the tag slugs, the digests by path,
the CSL items, the formatted references, the settings and the static assets' text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..enrich import bibtex
from ..model import Paper
from ..runtime.progress import track
from . import citesearch
from .citefiles import reference_files
from .context import RenderContext
from .exports import papers_json
from .feeds import render_feeds
from .foryou import FOR_YOU_MD, render_for_you
from .graph import Neighbour
from .indexes import has_downloads, render_all_pages, render_digest_index, render_digest_pages, render_home
from .links import paper_md
from .map import MAP_MD, render_map
from .notes import mentions_section, note_section
from .paper import Section, render_paper
from .related import neighbours, related_section
from .rows import entries
from .status import render_status_pages
from .tags import render_tag_bibs, render_tag_pages


def render_site(ctx: RenderContext) -> dict[str, str]:
    """Every generated file of the docs folder, keyed by its path inside it."""
    files: dict[str, str] = {}
    # Each paper as its related papers' pages show it: made once, not on each of those pages.
    near = neighbours(ctx.library.papers)
    for paper in track(ctx.library.papers, "rendering papers"):
        files.update(render_paper_files(paper, ctx, near))
    files.update(render_listings(ctx))
    files.update(ctx.assets)
    return files


def render_listings(ctx: RenderContext) -> dict[str, str]:
    """The pages and files that list papers: home, digests, All papers, status and tag pages,
    the map, papers.json, the .bib, CSL-JSON and RIS files and the Atom feeds."""
    library, by_id, size = ctx.library, ctx.papers_by_id, ctx.settings.page_size
    rows = entries(library.papers)  # each paper's row, made once for every listing that shows it
    listings: dict[str, str] = {}
    listings["index.md"] = render_home(ctx)
    listings["digests/index.md"] = render_digest_index(library)
    listings["papers.json"] = papers_json(ctx.paper_records)
    listings[MAP_MD] = render_map(library)
    listings[FOR_YOU_MD] = render_for_you(library)
    listings.update(render_all_pages(library, rows, size))
    listings.update(render_status_pages(library, by_id))
    listings.update(render_tag_pages(library, ctx.tag_slugs, rows, feeds=ctx.settings.tag_feeds,
                                     bibs=ctx.settings.tag_downloads))
    left_out = {c.path: c.left_out for c in library.keep_counts}
    for digest in library.digests:
        listings.update(render_digest_pages(digest, rows, size, left_out.get(digest.path, 0)))
    listings["references.bib"] = bibtex.bibliography(library.papers)
    if ctx.settings.tag_downloads:
        listings.update(render_tag_bibs(library, ctx.tag_slugs))
    for digest in filter(has_downloads, library.digests):
        bib = bibtex.bibliography([by_id[i] for i in digest.paper_ids if i in by_id])
        listings[f"digests/{digest.slug}.bib"] = bib
    listings.update(reference_files(library, ctx.csl_items))
    listings.update(render_feeds(ctx))
    return listings


def render_paper_files(paper: Paper, ctx: RenderContext, near: Mapping[str, Neighbour]) -> dict[str, str]:
    """The page of one paper (its BibTeX downloads from the page itself: static/readinglist.js).
    `near`: the papers as neighbours by id (`related.neighbours`), at least those related to
    `paper` (`shown_neighbours`); render_site makes them once for all the pages."""
    # Sections contributed by later stages go into these tuples, one function each. They are
    # called in page order with the page's heading ids, so ids stay unique as `toc` makes them.
    after_abstract: tuple[Section, ...] = (lambda ids: note_section(paper, ctx, ids),)
    after_bibtex: tuple[Section, ...] = (lambda ids: citesearch.cite_line(paper),
                                         lambda ids: related_section(paper, near, ids),
                                         lambda ids: mentions_section(paper, ctx.library, ctx.papers_by_id, ids))
    return {paper_md(paper): render_paper(paper, ctx, bibtex.entry_text(paper), after_abstract, after_bibtex)}


def render_note_pages(ctx: RenderContext, paper_ids: set[str]) -> dict[str, str]:
    """Only what a change of notes alone can alter: those papers' pages, status pages, home.
    The watcher uses it when no note's overrides changed (see generator/watch.py), with a
    context of the library with the new notes."""
    files = {"index.md": render_home(ctx), **render_status_pages(ctx.library, ctx.papers_by_id)}
    papers = [paper for paper in ctx.library.papers if paper.id in paper_ids]
    near = shown_neighbours(papers, ctx.papers_by_id)
    for paper in papers:
        files.update(render_paper_files(paper, ctx, near))
    return files


def shown_neighbours(papers: Iterable[Paper], by_id: Mapping[str, Paper]) -> dict[str, Neighbour]:
    """The neighbours (`related.neighbours`) the pages of `papers` show, their related papers
    only: for a few pages, not the whole library's (0.07-0.25 s at 10,000 papers)."""
    return neighbours(by_id[r.id] for paper in papers for r in paper.related if r.id in by_id)
