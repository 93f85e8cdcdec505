"""The render stage's one input: `RenderContext`, made once per build by `make_context`.

Render is pure: the model and this context in, the text of every file out. Everything render
needs that is not a paper's own field is here, made once for the build, so no function of render
works out the papers by id, the tag slugs or a setting again, nor keeps any of it between builds:
a new library makes a new context, and nothing of the last one is left anywhere.

What the context holds is given to it or made from what is: the references stage's result
(`render.references.FormattedReferences`: each paper's CSL item and formatted references) and
the static assets' text (read by the read stage, `build.read_assets`); render reads no file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..errors import ConfigError
from ..model import Digest, Library, Paper
from . import escape
from .chips import chip_links, tag_line
from .links import ANY_PAPER_MD, digest_md, url_from
from .pagination import page_size
from .tagnames import all_tag_slugs

if TYPE_CHECKING:
    from .references import FormattedReferences

DEFAULT_FEED_ENTRIES = 50

# The static files render puts into the docs folder: their path there -> their name under
# generator/render/static/ (build.read_assets reads them).
ASSETS = {
    "assets/readinglist.css": "readinglist.css",
    "assets/javascripts/readinglist-search.js": "readinglist-search.js",
    "assets/javascripts/readinglist.js": "readinglist.js",
}


@dataclass(frozen=True)
class Settings:
    """What render reads of mkdocs.yml, read and checked once."""

    site_name: str
    site_description: str
    site_url: str
    seeds_folder: str  # the seeds folder's name, which the empty list's home page names
    page_size: int  # papers per listing page (`extra.readinglist.page_size`)
    feed_entries: int  # papers per Atom feed (`extra.readinglist.feed_entries`)
    edit_url: str  # `extra.readinglist.edit_url` when an http(s) address, else ""
    repo_url: str
    edit_uri: str
    docs_folder: str  # the build folder's name (MkDocs' edit_uri is relative to it)
    use_directory_urls: bool
    # What a curator of a big list may switch off (docs/user-guide/publishing.md, "A big list"):
    tag_feeds: bool = True  # an Atom feed per tag (`extra.readinglist.tag_feeds`)
    tag_downloads: bool = True  # a BibTeX file per tag (`extra.readinglist.tag_downloads`)


def _switch(config: Config, key: str) -> bool:
    value = config.extra.get(key, True)
    if not isinstance(value, bool):
        raise ConfigError(f"mkdocs.yml: extra.readinglist.{key}: expected true or false, got {value!r}")
    return value


def settings(config: Config) -> Settings:
    """The settings render reads, from `config` (a bad page_size is a ConfigError here)."""
    edit_url = config.extra.get("edit_url")
    feeds = config.extra.get("feed_entries", DEFAULT_FEED_ENTRIES)
    return Settings(
        site_name=config.site_name, site_description=config.site_description, site_url=config.site_url,
        seeds_folder=config.seeds_dir.name, page_size=page_size(config),
        feed_entries=feeds if isinstance(feeds, int) and not isinstance(feeds, bool) and feeds > 0
        else DEFAULT_FEED_ENTRIES,
        edit_url=edit_url if isinstance(edit_url, str) and edit_url.startswith(("http://", "https://")) else "",
        repo_url=config.repo_url, edit_uri=config.edit_uri, docs_folder=config.build_dir.name,
        use_directory_urls=config.use_directory_urls,
        tag_feeds=_switch(config, "tag_feeds"), tag_downloads=_switch(config, "tag_downloads"))


@dataclass(frozen=True)
class RenderContext:
    """One build's input to render (see the module docstring). Made by `make_context` only."""

    library: Library
    settings: Settings
    papers_by_id: Mapping[str, Paper]
    tag_slugs: Mapping[str, str]  # every tag's page name (render/tagnames.py, all_tag_slugs)
    digests_by_path: Mapping[str, Digest]
    csl_items: Mapping[str, dict[str, Any]]  # each paper's CSL item by id (the references stage's)
    references: FormattedReferences  # the formatted references, `.of(paper)` (render/references.py)
    assets: Mapping[str, str]  # the static assets' text by their path in the docs folder

    @cached_property
    def paper_records(self) -> list[dict[str, Any]]:
        """Each paper's record of `papers.json` (render/exports.py), in the library's order: made
        once, when first read, and read by papers.json and by the search index's records alike. The
        watcher's fast note rebuild, which writes neither, makes them only when the old records
        file cannot be updated line by line (`search_records.updated_records_file`)."""
        from .exports import paper_records

        return paper_records(self.library)

    # What every paper page draws alike (all of them sit at papers/<slug>/index.md, so links from
    # them are the same): made once a build, not once per paper and tag (40,000 of them).
    @cached_property
    def paper_chips(self) -> dict[str, str]:
        """Each tag's chip on a paper page, by tag name (render/chips.py)."""
        return chip_links(ANY_PAPER_MD, self.tag_slugs)

    @cached_property
    def tag_lines(self) -> dict[str, str]:
        """Each tag's line of a paper page's front matter (`  - "name"`), by tag name."""
        return {t: tag_line(t) for t in self.tag_slugs}

    @cached_property
    def digest_links(self) -> dict[str, str]:
        """Each digest's link on a paper page's Sources list (its escaped title), by its path."""
        return {path: f'<a href="{url_from(ANY_PAPER_MD, digest_md(d))}">{escape.text(d.title)}</a>'
                for path, d in self.digests_by_path.items()}


def make_context(library: Library, config: Config, refs: FormattedReferences,
                 assets: Mapping[str, str]) -> RenderContext:
    """The context of one build of `library` (`refs`: the references stage's result for it):
    made once, before render, and never changed."""
    return RenderContext(
        library=library, settings=settings(config), papers_by_id=library.by_id(),
        tag_slugs=all_tag_slugs(library), digests_by_path={d.path: d for d in library.digests},
        csl_items=refs.items, references=refs, assets=dict(assets))

