"""Links between generated files: Markdown links (MkDocs checks and rewrites them) and the
relative URLs that pages written as HTML use directly (paper pages, see render/html.py).

A page written as HTML is always an `index.md` in its own folder (`papers/<slug>/index.md`,
served at `papers/<slug>/`). MkDocs leaves a link in raw HTML as it is: relative to the page's
URL. Zensical rewrites it as it does a Markdown link: relative to the Markdown file's folder, with
`../` in front when the file is not an `index.md` (zensical/extensions/links.py,
`_apply_directory_prefix`). For an `index.md` the file's folder is the page's URL, so both
engines resolve the same link to the same page. A page that is not an `index.md` (`all.md`,
`map.md`: the navigation and the curator's pages name them) links with Markdown links, which
both engines rewrite and check."""

from __future__ import annotations

import posixpath

from ..enrich.display import title_text
from ..model import Digest, Paper
from . import escape


def paper_md(paper: Paper) -> str:
    return f"papers/{paper.slug}/index.md"


# Every paper page is a `papers/<slug>/index.md` (paper_md), one folder deep like all the others: a
# link from one paper page (to a tag page, a digest) is the same from each of them.
ANY_PAPER_MD = "papers/any/index.md"


def digest_md(digest: Digest) -> str:
    return f"digests/{digest.slug}/index.md"


def tag_feed(slug: str) -> str:
    """A tag's Atom feed, at the site root (render/feeds.py says why)."""
    return f"feed-{slug}.xml"


def rel(from_md: str, to_path: str) -> str:
    """Link from one docs file to another (both relative to docs_dir)."""
    start = posixpath.dirname(from_md)
    here, there = start.split("/") if start else [], to_path.split("/")
    if "" in there or any(p in (".", "..", "") for p in here + there):
        return posixpath.relpath(to_path, start or ".")  # not a plain docs path: let posixpath decide
    # posixpath.relpath makes both paths absolute (a getcwd() each): 50,000 links cost seconds.
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:]) or "."


def page_url(md_path: str) -> str:
    """The URL MkDocs gives a Markdown file (directory URLs): `papers/x.md` -> `papers/x/`."""
    stem = md_path[:-3] if md_path.endswith(".md") else md_path
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
    return stem.rstrip("/") + "/" if stem else ""


def url_from(from_md: str, to: str) -> str:
    """A relative href from the page of `from_md` to the page of `to` (a `.md` path) or to a file
    (any other path, e.g. `papers/x.bib`), as MkDocs would write it for a Markdown link."""
    here = page_url(from_md).split("/")[:-1]
    there = (page_url(to) if to.endswith(".md") else to).split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    out = "/".join([".."] * (len(here) - common) + there[common:])
    return out or "./"


def paper_anchor(paper: Paper, from_md: str) -> str:
    """The paper's title linking to its page, as HTML, for pages written as HTML."""
    return f'<a href="{url_from(from_md, paper_md(paper))}">{escape.text(title_text(paper.title))}</a>'


def fence(body: str, lang: str) -> str:
    """A code fence longer than any backtick run in the body, so the body cannot close it."""
    longest = max((len(run) for run in body.split("\n") for run in _runs(run)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{body}\n{ticks}"


def _runs(line: str) -> list[str]:
    out, cur = [], ""
    for ch in line:
        if ch == "`":
            cur += ch
        elif cur:
            out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out
