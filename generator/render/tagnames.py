"""Tag names and where their pages are: each tag's slug, its page's path, the papers bearing it.

Asked by the tag pages (render/tags.py), the chips on every paper page (render/chips.py), the
reference files (render/citefiles.py), the feeds, the map and the search index of the curator's
words (render/search_records.py): a module of its own, which imports no page, so none of them has to import
the tag pages for it.
"""

from __future__ import annotations

from collections import defaultdict

from ..enrich.text import slugify
from ..model import Library, Paper


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


def all_tag_slugs(library: Library) -> dict[str, str]:
    """`tag_slugs` of every tag in the library: the pages `tags.render_tag_pages` writes."""
    return tag_slugs(list({t for p in library.papers for t in p.tags}))


def tag_md(slug: str) -> str:
    return f"tags/{slug}/index.md"


def papers_by_tag(library: Library) -> dict[str, list[Paper]]:
    groups: dict[str, list[Paper]] = defaultdict(list)
    for paper in library.papers:
        for tag in paper.tags:
            groups[tag].append(paper)
    return groups
