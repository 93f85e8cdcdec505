"""Pages that list papers: home, All papers, the digest index and one page per digest."""

from __future__ import annotations

from ..config import Config
from ..enrich.text import plain_title
from ..model import Digest, Library, Paper
from . import escape
from .links import digest_md, paper_md, rel
from .paper import venue_line
from .status import PAGES, status_counts


def paper_link(paper: Paper, from_md: str) -> str:
    return f"[{escape.text(plain_title(paper.title))}]({rel(from_md, paper_md(paper))})"


def first_author(paper: Paper) -> str:
    name = escape.text(paper.first_author)
    return name + (" et al." if len(paper.authors) > 1 or not paper.authors_complete else "")


def paper_table(papers: list[Paper], from_md: str) -> str:
    rows = ["| Title | First author | Venue | Year |", "| --- | --- | --- | --- |"]
    for p in papers:
        rows.append(f"| {paper_link(p, from_md)} | {first_author(p)} | "
                    f"{escape.text(venue_line(p))} | {p.year or ''} |")
    return "\n".join(rows)


def newest(library: Library, count: int = 10) -> list[Paper]:
    """Newest digests first, in the order each digest lists its papers."""
    by_id = library.by_id()
    order: dict[str, Paper] = {}  # a dict, not a list: `in` on a list made this O(n²)
    for d in sorted(library.digests, key=lambda d: (d.date is not None, d.date), reverse=True):
        for i in d.paper_ids:
            if i in by_id and i not in order:
                order[i] = by_id[i]
        if len(order) >= count:
            break
    return list(order.values())[:count]


def render_home(library: Library, config: Config) -> str:
    me = "index.md"
    n = len(library.papers)
    accepted = sum(1 for p in library.papers if p.status == "accepted")
    lines = [
        "---", "title: Home", "---", "",
        f"# {escape.text(config.site_name)}", "",
        escape.text(config.site_description) if config.site_description else "", "",
        f'<p class="rl-counts"><strong>{n}</strong> papers from <strong>{len(library.digests)}</strong> '
        f"digests · <strong>{accepted}</strong> accepted</p>", "",
        *_status_line(library),
        "[All papers](all.md){ .md-button .md-button--primary } "
        "[Digests](digests/index.md){ .md-button } [Tags](tags.md){ .md-button }", "",
        "Download everything: [references.bib](references.bib) (BibTeX) · "
        "[papers.json](papers.json) (for scripts)", "",
        "## Newest papers", "",
    ]
    for p in newest(library):
        lines.append(f"- {paper_link(p, me)} — {first_author(p)}, {escape.text(venue_line(p))}")
    lines.append("")
    return "\n".join(lines)


def _status_line(library: Library) -> list[str]:
    """Counts from the curator's notes, linking to the status pages."""
    if library.notes is None:
        return []
    counts = status_counts(library)
    labels = {"to-read": "to read", "reading": "reading", "read": "read"}
    items = [f"[**{counts[status]}** {labels[status]}]({page})" for status, page, *_ in PAGES]
    return ["Your reading: " + " · ".join(items), ""]


def render_all(library: Library) -> str:
    papers = sorted(library.papers, key=lambda p: (-(p.year or 0), plain_title(p.title).lower()))
    return "\n".join([
        "---", "title: All papers", "---", "",
        "# All papers", "",
        f"{len(papers)} papers, newest year first.", "",
        paper_table(papers, "all.md"), "",
    ])


def render_digest_index(library: Library) -> str:
    me = "digests/index.md"
    lines = ["---", "title: Digests", "---", "", "# Digests", "",
             "| Digest | Date | Papers |", "| --- | --- | --- |"]
    for d in sorted(library.digests, key=lambda d: (d.date is not None, d.date, d.path), reverse=True):
        lines.append(f"| [{escape.text(d.title)}]({rel(me, digest_md(d))}) | {d.date or ''} | {len(d.paper_ids)} |")
    lines.append("")
    return "\n".join(lines)


def render_digest(digest: Digest, library: Library) -> str:
    me = digest_md(digest)
    by_id = library.by_id()
    papers = [by_id[i] for i in digest.paper_ids if i in by_id]
    date = f"{digest.date} (from the {digest.date_source})" if digest.date else "unknown"
    lines = [
        "---", f"title: {escape.yaml_string(digest.title)}", "---", "",
        f"# {escape.text(digest.title)}", "",
        f"Source file <code>{escape.text(digest.name)}</code> · date {escape.text(date)} · {len(papers)} papers · "
        f"[BibTeX]({digest.slug}.bib)", "",
    ]
    for n, p in enumerate(papers, start=1):
        lines.append(f"{n}. {paper_link(p, me)} — {first_author(p)} · {escape.text(venue_line(p))}")
    lines.append("")
    return "\n".join(lines)
