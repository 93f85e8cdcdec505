"""Tag pages: one page per tag (`tags/<slug>/index.md`) listing its papers, plus its `.bib`.

The pages are HTML (render/html.py) and list their papers themselves. They carry no Material
tags listing: at ten thousand papers the tags plugin spent some twenty seconds matching every
page against every listing, and its index of all tags grew to 7 MB. Paper pages draw their tag
chips themselves (render/chips.py), linking to these pages; the tags' slugs and page paths are
render/tagnames.py's.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..enrich import bibtex
from ..model import Library
from . import escape
from .html import FLAG, Ids, heading
from .links import rel, tag_feed, url_from
from .rows import Entry, all_order, paper_rows_table, sort_key
from .tagnames import papers_by_tag, tag_md

INDEX_MD = "tags.md"


def whole_list_formats(me: str) -> str:
    """The line of a tag's or a digest's page (at `me`) that says where its papers are in the other
    formats: each download appears once in full (issue 46), so a tag's and a digest's own is BibTeX
    only, and CSL-JSON and RIS are the whole list's (render/citefiles.py)."""
    return (f'<p class="rl-formats">CSL-JSON and RIS of every paper: <a href="{url_from(me, "references.json")}">'
            f'references.json</a>, <a href="{url_from(me, "references.ris")}">references.ris</a></p>')


def render_tag_page(name: str, slug: str, rows: list[Entry], description: str = "", *,
                    ordered: bool = False, feed: bool = True, bib: bool = True) -> str:
    """The page of tag `name`, listing its papers' `rows` (`rows.Entry`). `ordered`: they are in
    `rows.all_order` already; `feed`, `bib`: the tag has its Atom feed, its .bib file (a big
    list's curator may switch either off: Settings.tag_feeds, tag_downloads)."""
    me = tag_md(slug)
    ordered_rows = rows if ordered else sorted(rows, key=lambda e: sort_key(e.paper))
    count = f"{len(ordered_rows)} paper" + ("" if len(ordered_rows) == 1 else "s")
    # rl_feed: the tag's Atom feed, announced in the page head (generator/theme/main.html).
    announce = [f"rl_feed: {tag_feed(slug)}", f"rl_feed_title: {escape.yaml_string(name)}"] if feed else []
    lines = ["---", f"title: {escape.yaml_title(name)}", f"{FLAG}: true", *announce, "---", "",
             heading(1, escape.text(name), Ids())]
    if description:
        lines.append(f"<p>{escape.text(description)}</p>")
    links = [count]
    if bib:
        links.append(f'<a href="{url_from(me, f"tags/{slug}.bib")}">BibTeX of all {len(ordered_rows)}</a>')
    if feed:
        links.append(f'<a href="{url_from(me, tag_feed(slug))}">Atom feed</a>')
    links.append(f'<a href="{url_from(me, INDEX_MD)}">All tags</a>')
    lines.append(f"<p>{' · '.join(links)}</p>")
    lines.append(whole_list_formats(me))
    lines.append(paper_rows_table(["Title", "First author", "Year"], ordered_rows, me, venue=False))
    return "\n".join(lines) + "\n"


def render_tags_index(library: Library, slugs: Mapping[str, str], bibs: bool = True) -> str:
    groups = papers_by_tag(library)
    described = dict(library.topics)
    lines = [
        "---", "title: Tags", "---", "", "# Tags", "",
        "Topic tags come from the taxonomy in `content/topics.yml` (matched in titles and "
        "abstracts); subject tags from the arXiv classes. Each tag has a page with its papers"
        + (" and a BibTeX file of them." if bibs else "."), "",
        "| Tag | Papers | About |", "| --- | --- | --- |",
    ]
    own = set(library.own_tags)
    ranked = sorted(groups, key=lambda n: (-len(groups[n]), n.lower()))
    for name in (n for n in ranked if n not in own):
        link = f"[{escape.text(name)}]({rel(INDEX_MD, tag_md(slugs[name]))})"
        lines.append(f"| {link} | {len(groups[name])} | {escape.text(described.get(name, ''))} |")
    mine = [n for n in ranked if n in own]
    if mine:
        lines += ["", "## Your tags", "", OWN_TAG, "", "| Tag | Papers |", "| --- | --- |"]
        lines += [f"| [{escape.text(n)}]({rel(INDEX_MD, tag_md(slugs[n]))}) | {len(groups[n])} |" for n in mine]
    lines.append("")
    return "\n".join(lines)


OWN_TAG = "Tags given in your notes (`tags:`) that are not topics of `content/topics.yml`."
OWN_TAG_PAGE = "A tag of your own: given in notes, not a topic of content/topics.yml."


def render_tag_pages(library: Library, slugs: Mapping[str, str], entries: Mapping[str, Entry], *,
                     feeds: bool = True, bibs: bool = True) -> dict[str, str]:
    """`tags.md` and the tag pages (`slugs`: `tagnames.all_tag_slugs(library)`; `entries`: every
    paper's row, `rows.entries`; `feeds`, `bibs`: each tag has its feed, its .bib)."""
    described = dict(library.topics)
    own = set(library.own_tags)
    files = {INDEX_MD: render_tags_index(library, slugs, bibs)}
    # Grouped from the papers in page order, so no tag's list needs sorting; the pages still come
    # in the order the tags are first met in the library.
    ordered: dict[str, list[Entry]] = {name: [] for p in library.papers for name in p.tags}
    for paper in all_order(library.papers):
        for tag in paper.tags:
            ordered[tag].append(entries[paper.id])
    for name, rows in ordered.items():
        about = described.get(name) or (OWN_TAG_PAGE if name in own else "")
        files[tag_md(slugs[name])] = render_tag_page(name, slugs[name], rows, about, ordered=True,
                                                      feed=feeds, bib=bibs)
    return files


def render_tag_bibs(library: Library, slugs: Mapping[str, str]) -> dict[str, str]:
    """`tags/<slug>.bib` for every tag: the entries the BibTeX stage wrote, put together."""
    return {f"tags/{slugs[name]}.bib": bibtex.bibliography(papers) for name, papers in papers_by_tag(library).items()}


