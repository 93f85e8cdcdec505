"""Render: pure functions from the enriched model to the files of the docs folder."""

from __future__ import annotations

from ..config import Config
from ..enrich import bibtex
from ..model import Library
from ..progress import track
from .exports import papers_json
from .indexes import render_all_pages, render_digest_index, render_digest_pages, render_home
from .links import paper_md
from .pagination import page_size
from .paper import render_paper

ASSETS = {
    "assets/readinglist.css": "readinglist.css",
    "assets/javascripts/readinglist-search.js": "search-worker.js",
}


def render_site(library: Library, config: Config) -> dict[str, str]:
    """Every generated file, keyed by its path inside the build folder."""
    files: dict[str, str] = {
        "index.md": render_home(library, config),
        "digests/index.md": render_digest_index(library),
        "papers.json": papers_json(library),
        "references.bib": bibtex.bibliography(library.papers),
    }
    files.update(render_all_pages(library, page_size(config)))
    if "tags.md" not in files:
        files["tags.md"] = "---\ntitle: Tags\n---\n\n# Tags\n\n<!-- material/tags -->\n"
    for paper in track(library.papers, "rendering papers"):
        entry = bibtex.entry_text(paper)
        # Sections contributed by later stages go into these tuples, one call each.
        after_abstract: tuple[str, ...] = ()
        after_bibtex: tuple[str, ...] = ()
        files[paper_md(paper)] = render_paper(paper, library, entry, after_abstract, after_bibtex)
        files[f"papers/{paper.slug}.bib"] = entry + "\n"
    by_id = library.by_id()
    for digest in library.digests:
        files.update(render_digest_pages(digest, library, by_id, page_size(config)))
        files[f"digests/{digest.slug}.bib"] = bibtex.bibliography(
            [by_id[i] for i in digest.paper_ids if i in by_id])
    files.update(_static_assets())
    return files


def _static_assets() -> dict[str, str]:
    from importlib import resources

    out = {}
    for target, name in ASSETS.items():
        out[target] = resources.files("generator.render").joinpath("static", name).read_text("utf-8")
    return out
