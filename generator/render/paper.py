"""The page of one paper: pure function from the model to the page's file.

The body is HTML (see render/html.py for why); the front matter is what the theme reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from urllib.parse import quote

from ..enrich.display import title_text
from ..model import Paper
from ..sources.subjects import class_name
from . import escape
from .chips import chip_nav, tag_line
from .context import RenderContext
from .highwire import front_matter_lines
from .html import FLAG, Ids, cite_tabs, code_block, heading
from .math import rich_text
from .venue import venue_line

# generator/theme/paper.html puts the venue badge and link buttons here, under the authors.
# A section of the page: a function of the page's heading ids, returning HTML ("" for none).
Section = Callable[[Ids], str]


# A sentence ends at `.`, `!` or `?` followed by white space and a capital. Searched for from its
# first character, which the regex engine can look for alone (a look-behind it cannot): twice as
# fast on ten thousand abstracts, the same first sentence (tested).
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")


def description(paper: Paper) -> str:
    """The abstract's first sentence, for search snippets and link previews."""
    text = paper.abstract.strip()
    end = _SENTENCE_END.search(text)
    return (text[:end.start() + 1] if end else text)[:300]


# What urllib's quote_plus leaves as it is (it then writes spaces as `+`).
_UNQUOTED = re.compile(r"[^A-Za-z0-9_.\-~ ]+")


def _percent(m: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in m.group(0).encode("utf-8"))


def quote_plus(text: str) -> str:
    """`urllib.parse.quote_plus(text)` (tested equal): that one maps each character through a
    Python-level cache, and every page quotes its title."""
    return _UNQUOTED.sub(_percent, text).replace(" ", "+")


def search_links(paper: Paper) -> list[tuple[str, str]]:
    q = quote_plus(title_text(paper.title))
    return [
        ("Search arXiv", f"https://arxiv.org/search/?query={q}&searchtype=title"),
        ("Google Scholar", f"https://scholar.google.com/scholar?q={q}"),
    ]


def identifier_links(paper: Paper) -> list[tuple[str, str]]:
    """(label, address) of the paper where its identifiers say it is: the OpenReview forum, the
    arXiv abstract page and PDF, the DOI resolver; then its own link if it is none of these."""
    links: list[tuple[str, str]] = []
    if paper.openreview_id:
        links.append(("OpenReview", f"https://openreview.net/forum?id={quote(paper.openreview_id, safe='')}"))
    if paper.arxiv_id:
        arxiv_id = quote(paper.arxiv_id, safe="/.")
        links.append(("arXiv", f"https://arxiv.org/abs/{arxiv_id}"))
        links.append(("PDF", f"https://arxiv.org/pdf/{arxiv_id}"))
    if paper.doi:
        links.append(("DOI", f"https://doi.org/{quote(paper.doi, safe='/:;()._-')}"))
    if paper.url and not any(_same_place(paper.url, link) for _, link in links):
        links.append(("OpenReview" if "openreview.net" in paper.url else "Paper", paper.url))
    return links


_PLACE_NOISE = re.compile(r"^https?://(www\.)?|v\d+$|/$")


def _same_place(a: str, b: str) -> bool:
    return _PLACE_NOISE.sub("", a.strip()) == _PLACE_NOISE.sub("", b.strip())


def link_buttons(paper: Paper) -> list[tuple[str, str, bool]]:
    """(label, url, primary) for the page header; the theme template draws them as buttons. The
    search links stay only for a paper with no identifier (a TMLR paper's forum link is one)."""
    buttons: list[tuple[str, str, bool]] = []
    for label, link in identifier_links(paper):
        # Front-matter values are HTML text (see escape.yaml_string): escape.url gives `&amp;`.
        url = escape.url(link)
        if url:
            buttons.append((label, url, not buttons))
    if not (paper.arxiv_id or paper.doi or paper.openreview_id) and (not buttons or paper.venue != "TMLR"):
        buttons.extend((label, escape.markup(link), False) for label, link in search_links(paper))
    return buttons


def front_matter(paper: Paper, tag_lines: Mapping[str, str]) -> str:
    """The page's front matter, what the theme reads: title, description, template, venue,
    Highwire Press tags and tags (`tag_lines`: tags' lines by name, as RenderContext.tag_lines
    makes them once a build; `chips.tag_line` makes the line of a tag not among them)."""
    lines = [
        "---", f"title: {escape.yaml_title(title_text(paper.title))}",
        f"description: {escape.yaml_string(description(paper))}",
        "template: paper.html",
        # The body is finished HTML: the MkDocs plugin skips Markdown for it (the same article).
        f"{FLAG}: true",
        f"rl_venue: {escape.yaml_string(venue_line(paper))}",
        # Highwire Press tags for Google Scholar and Zotero (render/highwire.py, theme/main.html).
        *front_matter_lines(paper)]
    if paper.tags:
        lines.append("tags:")
        lines.extend([tag_lines[t] if t in tag_lines else tag_line(t) for t in paper.tags])
    lines.append("---")
    return "\n".join(lines)


def header(paper: Paper, note_path: str | None, edit_url: str) -> str:
    """The venue badge and the link buttons under the author list: the paper's own links, and
    "Edit this note" (or "Write a note": the host's new-file page, named and started for this
    paper) when the site has an edit URL."""
    links = ["".join(f'<a class="md-button{" md-button--primary" if primary else ""}" href="{url}">{label}</a>'
                     for label, url, primary in link_buttons(paper))]
    if edit_url and note_path:
        links.append(f'<a class="md-button rl-edit-note" href="{escape.attr(edit_url)}{escape.attr(note_path)}"'
                     f' title="{escape.attr(note_path)}">Edit this note</a>')
    elif edit_url and "/edit/" in edit_url:
        folder, name = "content/notes", f"{paper.key}.md"
        new_url = (edit_url.replace("/edit/", "/new/", 1) + folder + "?filename=" + quote(name, safe="/")
                   + "&value=" + quote("---\nstatus: to-read\n---\n", safe="/"))
        links.append(f'<a class="md-button rl-edit-note rl-new-note" href="{escape.attr(new_url)}"'
                     f' title="{escape.attr(folder + "/" + name)}">Write a note</a>')
    venue = venue_line(paper)
    badge = f'<p class="rl-venue"><span class="rl-badge">{escape.text(venue)}</span></p>\n' if venue else ""
    # The buttons are controls, not words of the paper: out of the index Zensical and Material's
    # own search cut from the page (their labels ran together: "Search arXivGoogle Scholar").
    return f'<div class="rl-header">\n{badge}<p class="rl-links" data-search-exclude>{"".join(links)}</p>\n</div>'


def arxiv_details(paper: Paper) -> str:
    """What an arXiv record says beside the abstract: its journal reference and comments, as given
    (`Phys. Rev. B 91, 184507 (2015)`; `10 pages, 8 figures; to be published in SAT23`)."""
    rows = [(label, value) for label, value in (("Journal reference", paper.journal_ref),
                                                ("Comments", paper.comments)) if value]
    if not rows:
        return ""
    items = "".join(f"<dt>{label}</dt><dd>{escape.text(value)}</dd>" for label, value in rows)
    return f'<dl class="rl-arxiv-details">{items}</dl>'


def author_line(paper: Paper) -> str:
    authors = ", ".join([escape.text(a) for a in paper.authors]) if paper.authors else "Anonymous"
    if not paper.authors_complete:
        authors += " et al."
    return f'<p class="rl-authors">{authors}</p>'


def render_paper(paper: Paper, ctx: RenderContext, bibtex: str,
                 after_abstract: tuple[Section, ...] = (), after_bibtex: tuple[Section, ...] = ()) -> str:
    """The paper page. Other stages contribute whole HTML sections (note, tags, related papers,
    graph) through `after_abstract` / `after_bibtex`, so this stays one straight list. From the
    build's context: the tag slugs (for the tag chips), the digests by path (for the sources),
    the edit URL and the formatted references, shown in tabs beside the BibTeX entry."""
    library = ctx.library
    references = ctx.references.of(paper)
    ids = Ids()
    note = library.notes.by_paper.get(paper.id) if library.notes else None
    parts = [
        front_matter(paper, ctx.tag_lines),
        "",
        chip_nav(paper, ctx.paper_chips),
        heading(1, escape.text(title_text(paper.title)), ids),
        author_line(paper),
        header(paper, note.path if note else None, ctx.settings.edit_url),
        *filter(None, [arxiv_details(paper)]),
        heading(2, "Abstract", ids),
        _abstract(paper),
        *_sections(after_abstract, ids),
        # With formatted references (render/references.py): tabs BibTeX | APA | IEEE under "Cite".
        heading(2, "Cite" if references else "BibTeX", ids),
        cite_tabs(code_block(bibtex), references) if references else code_block(bibtex),
        f'<p><a class="rl-bib-download" href="#{"cite" if references else "bibtex"}"'
        f' data-file="{escape.attr(paper.key)}.bib">Download {escape.text(paper.key)}.bib</a></p>',
        *_sections(after_bibtex, ids),
    ]
    if paper.categories:
        names = "; ".join(_category_html(c) for c in paper.categories)
        parts.append(f'<p class="rl-subjects">Subjects: {names}</p>')
    parts += [heading(2, "Sources", ids), "<ul>"]
    digest_links = ctx.digest_links  # a digest's link is the same on every paper page
    for src in paper.sources:
        target = digest_links.get(src.path) or escape.text(src.name)
        parts.append(f"<li>{target}, line {src.line}</li>")
    parts += ["</ul>", ""]
    return "\n".join(parts)


def _category_html(code: str) -> str:
    """`Machine Learning (cs.LG)`: arXiv's name of the category and its code (the code alone when
    it is no arXiv category)."""
    name = class_name(code)
    return f"{escape.text(name)} ({escape.text(code)})" if name != code else escape.text(code)


def _sections(sections: tuple[Section, ...], ids: Ids) -> list[str]:
    # Called here, in page order, so the sections' heading ids follow the ones above them.
    texts = [section(ids) for section in sections]
    return [text.strip("\n") for text in texts if text and not text.isspace()]


def abstract_html(abstract: str) -> str:
    """The abstract section's HTML (math as MathML)."""
    if not abstract:
        return '<p class="rl-abstract"><em>No abstract in the digest.</em></p>'
    paras = [f"<p>{rich_text(p)}</p>" for p in abstract.split("\n\n") if p.strip()]
    return '<div class="rl-abstract">\n' + "\n".join(paras) + "\n</div>"


def _abstract(paper: Paper) -> str:
    return abstract_html(paper.abstract)

