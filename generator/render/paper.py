"""The page of one paper: pure function from the model to Markdown text."""

from __future__ import annotations

import re
from urllib.parse import quote_plus

from ..enrich.text import plain_title
from ..model import Digest, Library, Paper
from ..sources.subjects import class_name
from . import escape
from .links import digest_md, fence, paper_md, rel
from .math import rich_text

_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def venue_line(paper: Paper) -> str:
    """`TMLR · accepted · Aug 2025` or `cs.LG · cross-listed from cs.CL`."""
    if paper.venue == "TMLR":
        parts = ["TMLR", paper.status]
        if paper.date:
            parts.append(f"{_MONTHS[paper.date.month - 1]} {paper.date.year}")
        return " · ".join(parts + list(paper.labels))
    if paper.categories:
        listed = paper.categories[-1] if paper.cross_listed_from else paper.categories[0]
        if paper.cross_listed_from:
            return f"{listed} · cross-listed from {paper.cross_listed_from}"
        return f"{listed} · {paper.status}"
    return " · ".join(x for x in (paper.venue, paper.status) if x)


def description(paper: Paper) -> str:
    """The abstract's first sentence, for search snippets and link previews."""
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", paper.abstract.strip(), maxsplit=1)[0]
    return first[:300]


def search_links(paper: Paper) -> list[tuple[str, str]]:
    q = quote_plus(plain_title(paper.title))
    return [
        ("Search arXiv", f"https://arxiv.org/search/?query={q}&searchtype=title"),
        ("Google Scholar", f"https://scholar.google.com/scholar?q={q}"),
    ]


def _links(paper: Paper) -> str:
    buttons = []
    url = escape.url(paper.url)
    if url:
        label = "OpenReview" if "openreview.net" in url else "Paper"
        buttons.append(f'<a class="md-button md-button--primary" href="{url}">{label}</a>')
    if not url or paper.venue != "TMLR":
        for label, link in search_links(paper):
            buttons.append(f'<a class="md-button" href="{link.replace("&", "&amp;")}">{label}</a>')
    return '<p class="rl-links">' + " ".join(buttons) + "</p>"


def front_matter(paper: Paper) -> str:
    lines = ["---", f"title: {escape.yaml_string(plain_title(paper.title))}",
             f"description: {escape.yaml_string(description(paper))}"]
    if paper.tags:
        lines.append("tags:")
        lines.extend(f"  - {escape.yaml_string(t)}" for t in paper.tags)
    lines.append("---")
    return "\n".join(lines)


def render_paper(paper: Paper, library: Library, bibtex: str,
                 after_abstract: tuple[str, ...] = (), after_bibtex: tuple[str, ...] = ()) -> str:
    """The paper page. Other stages contribute whole Markdown sections (note, tags, related
    papers, graph) through `after_abstract` / `after_bibtex`, so this stays one straight list."""
    me = paper_md(paper)
    digests = {d.path: d for d in library.digests}
    authors = ", ".join(escape.text(a) for a in paper.authors) if paper.authors else "Anonymous"
    if not paper.authors_complete:
        authors += " et al."
    parts = [
        front_matter(paper),
        "",
        f"# {escape.text(plain_title(paper.title))}",
        "",
        f'<p class="rl-authors">{authors}</p>',
        "",
        f'<p class="rl-venue"><span class="rl-badge">{escape.text(venue_line(paper))}</span></p>',
        "",
        _links(paper),
        "",
        "## Abstract",
        "",
        _abstract(paper),
        "",
        *_sections(after_abstract),
        "## BibTeX",
        "",
        fence(bibtex, "bibtex"),
        "",
        f"[Download {escape.text(paper.key)}.bib]({paper.slug}.bib)",
        "",
        *_sections(after_bibtex),
    ]
    if paper.categories:
        names = ", ".join(f"{escape.text(c)} ({escape.text(class_name(c))})" for c in paper.categories)
        parts += [f'<p class="rl-subjects">Subjects: {names}</p>', ""]
    parts += ["## Sources", ""]
    for src in paper.sources:
        d = digests.get(src.path)
        title = escape.text(d.title) if d else escape.text(src.name)
        target = f"[{title}]({rel(me, digest_md(d))})" if d else title
        parts.append(f"- {target}, line {src.line}")
    parts.append("")
    return "\n".join(parts)


def _sections(sections: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for section in sections:
        if section.strip():
            out += [section.rstrip("\n"), ""]
    return out


def _abstract(paper: Paper) -> str:
    if not paper.abstract:
        return '<p class="rl-abstract"><em>No abstract in the digest.</em></p>'
    paras = [f"<p>{rich_text(p)}</p>" for p in paper.abstract.split("\n\n") if p.strip()]
    return '<div class="rl-abstract">\n' + "\n".join(paras) + "\n</div>"


def digest_link(digest: Digest, from_md: str) -> str:
    return f"[{escape.text(digest.title)}]({rel(from_md, digest_md(digest))})"
