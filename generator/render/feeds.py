"""Atom feeds: the newest papers of the list (`feed.xml`) and of each tag (`feed-<slug>.xml`).

All at the site root: Material reads every `<link rel="alternate">` of a page as another version
of the site and fetches the `sitemap.xml` beside its address, which exists at the root only (a
feed under `tags/` made every tag page log a 404).

Written with feedgen. Each entry is a paper: its title, authors, the paper page as link (absolute,
under `site_url`), its date (the digest's), its tags as categories and its abstract. A feed holds
the newest `extra.readinglist.feed_entries` papers (50 by default), newest digest first. Every
date in a feed comes from the papers, never from the clock, so the same list gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import re

from ..enrich.display import title_text
from ..model import Paper
from .context import RenderContext, Settings
from .indexes import newest
from .links import page_url, paper_md, tag_feed

FEED = "feed.xml"
# A feed needs an `updated` time; a list without one dated paper says this.
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


# What XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF): a digest may
# carry them, and lxml refuses the whole feed for one.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    return _NOT_XML.sub("", text)


def render_feeds(ctx: RenderContext) -> dict[str, str]:
    """`feed.xml` and `feed-<slug>.xml` for each tag (unless `tag_feeds` is off), each of the newest
    `feed_entries` papers (render/context.py, Settings), newest digest first (the home page's order)."""
    library, config, slugs = ctx.library, ctx.settings, ctx.tag_slugs
    size = config.feed_entries
    order = newest(library, ctx.papers_by_id, count=len(library.papers))
    per_tag: dict[str, list[Paper]] = {}
    for paper in order if config.tag_feeds else ():
        for tag in paper.tags:
            tagged = per_tag.setdefault(tag, [])
            if len(tagged) < size:
                tagged.append(paper)
    base = _base(config)
    files = {FEED: atom(order[:size], base, FEED, config.site_name, config.site_description)}
    for name, papers in per_tag.items():
        files[tag_feed(slugs[name])] = atom(papers, base, tag_feed(slugs[name]), f"{config.site_name}: {name}",
                                            f"The newest papers tagged {name}.", page=f"tags/{slugs[name]}/")
    return files


def atom(papers: list[Paper], base: str, path: str, title: str, subtitle: str = "", page: str = "") -> str:
    """One Atom feed of `papers`, published at `base + path`, about the page `base + page`."""
    from feedgen.feed import FeedGenerator

    fg = FeedGenerator()
    title, subtitle = xml_text(title), xml_text(subtitle)
    fg.id(base + page)
    fg.title(title)
    if subtitle:
        fg.subtitle(subtitle)
    fg.author({"name": title})  # Atom wants an author for entries that name none
    fg.link(href=base + path, rel="self", type="application/atom+xml")
    fg.link(href=base + page, rel="alternate", type="text/html")
    fg.language("en")
    fg.updated(max((_when(p) for p in papers), default=_EPOCH))
    # feedgen puts entries added later first: add the oldest first, so the newest leads the feed.
    for paper in reversed(papers):
        entry = fg.add_entry()
        url = base + page_url(paper_md(paper))
        entry.id(url)
        entry.title(xml_text(title_text(paper.title)) or "Untitled")
        entry.link(href=url, rel="alternate", type="text/html")
        # Authors and categories given as one list each: feedgen goes through all of an entry's
        # authors (categories) again on each call, so one call per name was quadratic.
        if paper.authors:
            entry.author([{"name": xml_text(name)} for name in paper.authors])
        entry.published(_when(paper))
        entry.updated(_when(paper))
        if paper.tags:
            entry.category([{"term": tag, "label": tag} for tag in map(xml_text, paper.tags)])
        abstract = xml_text(paper.abstract)
        if abstract.strip():
            entry.summary(abstract, type="text")
    return str(fg.atom_str(pretty=False).decode("utf-8")) + "\n"


def _base(config: Settings) -> str:
    url = config.site_url or "http://127.0.0.1:8000/"
    return url if url.endswith("/") else url + "/"


def _when(paper: Paper) -> dt.datetime:
    if paper.date is None:
        return _EPOCH
    return dt.datetime(paper.date.year, paper.date.month, paper.date.day, tzinfo=dt.UTC)
