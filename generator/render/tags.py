"""Tag pages: one page per tag (`tags/<slug>.md`) listing its papers, plus its `.bib`.

Each tag page holds a Material tags listing scoped to its own tag, so the tags plugin knows the
page features that tag; `canonical_tag_links` (called from the MkDocs hook) then makes the tag
chips on paper pages point to that page rather than to the index of all tags.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ..enrich import bibtex
from ..enrich.text import plain_title, slugify
from ..model import Library, Paper
from . import escape
from .links import paper_md, rel

# The listing layout in overrides/fragments/tags/readinglist/: a heading only, no page list
# (the table under it lists the papers with first author and year).
LISTING_LAYOUT = "readinglist"
INDEX_MD = "tags.md"


def tag_slugs(names: list[str]) -> dict[str, str]:
    """A stable, unique file name per tag (sorted first, so order of discovery does not matter)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(set(names), key=lambda n: (n.lower(), n)):
        base = slugify(name, 60)
        slug, n = base, 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        out[name] = slug
    return out


def tag_md(slug: str) -> str:
    return f"tags/{slug}.md"


def papers_by_tag(library: Library) -> dict[str, list[Paper]]:
    groups: dict[str, list[Paper]] = defaultdict(list)
    for paper in library.papers:
        for tag in paper.tags:
            groups[tag].append(paper)
    return groups


def _first_author(paper: Paper) -> str:
    name = escape.text(paper.first_author)
    return name + (" et al." if len(paper.authors) > 1 or not paper.authors_complete else "")


def render_tag_page(name: str, slug: str, papers: list[Paper], description: str = "") -> str:
    me = tag_md(slug)
    ordered = sorted(papers, key=lambda p: (-(p.year or 0), plain_title(p.title).lower(), p.id))
    count = f"{len(ordered)} paper" + ("" if len(ordered) == 1 else "s")
    # The tag as Material knows it: front matter holds HTML text (escape.yaml_string), so a name
    # with `&` or `'` would otherwise match no page and the listing would come out empty.
    known = json.loads(escape.yaml_string(name))
    directive = json.dumps({"include": [known], "layout": LISTING_LAYOUT, "toc": False}, ensure_ascii=False)
    lines = [
        "---", f"title: {escape.yaml_string(name)}", "---", "",
        f"# {escape.text(name)}", "",
    ]
    if description:
        lines += [escape.text(description), ""]
    lines += [
        f"{count} · [BibTeX of all {len(ordered)}]({slug}.bib) · [All tags]({rel(me, INDEX_MD)})", "",
        f"<!-- material/tags {directive} -->", "",
        "| Title | First author | Year |", "| --- | --- | --- |",
    ]
    for p in ordered:
        title = escape.text(plain_title(p.title))
        lines.append(f"| [{title}]({rel(me, paper_md(p))}) | {_first_author(p)} | {p.year or ''} |")
    lines.append("")
    return "\n".join(lines)


def render_tags_index(library: Library, slugs: dict[str, str]) -> str:
    groups = papers_by_tag(library)
    described = dict(library.topics)
    lines = [
        "---", "title: Tags", "---", "", "# Tags", "",
        "Topic tags come from the taxonomy in `content/topics.yml` (matched in titles and "
        "abstracts); subject tags from the arXiv classes. Each tag has a page with its papers "
        "and a BibTeX file of them.", "",
        "| Tag | Papers | About |", "| --- | --- | --- |",
    ]
    for name in sorted(groups, key=lambda n: (-len(groups[n]), n.lower())):
        link = f"[{escape.text(name)}]({rel(INDEX_MD, tag_md(slugs[name]))})"
        lines.append(f"| {link} | {len(groups[name])} | {escape.text(described.get(name, ''))} |")
    lines += ["", "## Papers by tag", "", "<!-- material/tags -->", ""]
    return "\n".join(lines)


def render_tag_files(library: Library) -> dict[str, str]:
    """`tags.md`, and `tags/<slug>.md` + `tags/<slug>.bib` for every tag some paper carries."""
    groups = papers_by_tag(library)
    slugs = tag_slugs(list(groups))
    described = dict(library.topics)
    files = {INDEX_MD: render_tags_index(library, slugs)}
    for name, papers in groups.items():
        slug = slugs[name]
        files[tag_md(slug)] = render_tag_page(name, slug, papers, described.get(name, ""))
        files[f"tags/{slug}.bib"] = bibtex.bibliography(papers)
    return files


def canonical_tag_links(tags: list[Any], index_url: str = "tags/") -> None:
    """Put each tag's own page first among the listings a tag chip can link to.

    Material's tags plugin links a chip to the "closest" listing featuring the tag; for a paper
    page the index and the tag's page are equally close, so its pick would depend on set order.
    The links are `Link(title, url)` with url like `tags/federated-learning/#tag:...`.
    """
    for ref in tags:
        links = getattr(ref, "links", None)
        if not links:
            continue

        def rank(link: Any) -> tuple[int, str]:
            path = str(getattr(link, "url", "")).split("#", 1)[0]
            own = path.startswith(index_url) and path.rstrip("/") != index_url.rstrip("/")
            return (0 if own else 1, path)

        links.sort(key=rank)
