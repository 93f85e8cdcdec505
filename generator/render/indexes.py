"""Pages that list papers: home, All papers, the digest index and one page per digest.

The home page is Markdown; the listings are HTML (render/html.py): at ten thousand papers they
hold 50,000 rows, which Python-Markdown took twenty seconds to parse."""

from __future__ import annotations

from collections.abc import Mapping

from ..enrich.display import title_text
from ..errors import count
from ..model import STATUSES, Digest, Library, Paper
from . import escape
from .context import RenderContext, Settings
from .html import FLAG, Ids, heading, table
from .links import digest_md, paper_md, rel, url_from
from .pagination import PAGE_SIZE, page_md, pager, pages, year_links, year_starts
from .rows import NOT_INDEXED, Entry, all_order, anchor, paper_rows_table, prefix
from .status import PAGES, status_counts
from .tags import whole_list_formats
from .venue import venue_line


def paper_link(paper: Paper, from_md: str) -> str:
    return f"[{escape.text(title_text(paper.title))}]({rel(from_md, paper_md(paper))})"


def first_author(paper: Paper) -> str:
    return escape.text(paper.short_authors)


def paper_table(rows: list[Entry], from_md: str) -> str:
    return paper_rows_table(["Title", "First author", "Venue", "Year"], rows, from_md, venue=True)


def newest(library: Library, by_id: Mapping[str, Paper], count: int = 10) -> list[Paper]:
    """Newest digests first, in the order each digest lists its papers."""
    order: dict[str, Paper] = {}  # a dict, not a list: `in` on a list made this O(n²)
    for d in sorted(library.digests, key=lambda d: (d.date is not None, d.date), reverse=True):
        for i in d.paper_ids:
            if i in by_id and i not in order:
                order[i] = by_id[i]
        if len(order) >= count:
            break
    return list(order.values())[:count]


def render_home(ctx: RenderContext) -> str:
    library, settings = ctx.library, ctx.settings
    me = "index.md"
    n = len(library.papers)
    accepted = sum(1 for p in library.papers if p.status == "accepted")
    lines = [
        "---", "title: Home", "---", "",
        f"# {escape.text(settings.site_name)}", "",
        escape.text(settings.site_description) if settings.site_description else "", "",
        f'<p class="rl-counts"><strong>{n}</strong> papers from <strong>{len(library.digests)}</strong> '
        f"digests · <strong>{accepted}</strong> accepted</p>", "",
        *_status_line(library, ctx.papers_by_id),
        "[All papers](all.md){ .md-button .md-button--primary } "
        "[Digests](digests/index.md){ .md-button } [Tags](tags.md){ .md-button }", "",
        "Download everything: [references.bib](references.bib) (BibTeX) · "
        "[references.json](references.json) (CSL-JSON) · [references.ris](references.ris) (RIS) · "
        "[papers.json](papers.json) (for scripts)", "",
        "## Newest papers", "",
    ]
    if not library.papers:
        lines += _first_steps(settings)
    for p in newest(library, ctx.papers_by_id):
        lines.append(f"- {paper_link(p, me)} — {first_author(p)}, {escape.text(venue_line(p))}")
    lines.append("")
    return "\n".join(lines)


def _first_steps(settings: Settings) -> list[str]:
    """What an empty list's home page says: how to add the first digest."""
    seeds = escape.text(settings.seeds_folder)
    return [
        '<div class="admonition tip rl-first-steps" markdown>',
        '<p class="admonition-title">No papers yet: add your first digest</p>',
        f"<p>Copy a digest into <code>{seeds}/</code> with <code>readinglist add digest.txt</code> "
        "(a TMLR digest e-mail, text copied from a paper-listing page, an arXiv e-mail, an arXiv RSS or Atom "
        "feed or API result, or a <code>.bib</code> file), then run "
        "<code>readinglist serve</code>: this page lists its papers.</p>",
        "</div>", ""]


def _status_line(library: Library, by_id: Mapping[str, Paper]) -> list[str]:
    """Counts from the curator's notes, linking to the status pages."""
    if library.notes is None:
        return []
    counts = status_counts(library, by_id)
    labels = {"to-read": "to read", "reading": "reading", "read": "read"}
    items = [f"[**{counts[status]}** {labels[status]}]({page})" for status, page, *_ in PAGES]
    return ["Your reading: " + " · ".join(items), ""]


def render_all_pages(library: Library, entries: Mapping[str, Entry], size: int = PAGE_SIZE) -> dict[str, str]:
    """`all.md` and, past `size` papers, `all/2/index.md`, `all/3/index.md`, ...: a table of `size`
    papers each (`entries`: every paper's row, `rows.entries`)."""
    papers = all_order(library.papers)
    form = filter_form(library)
    chunks = pages(papers, size)
    years = year_starts(chunks)
    out: dict[str, str] = {}
    for n, chunk in enumerate(chunks, start=1):
        me = page_md("all.md", n)
        first, last = (n - 1) * size + 1, (n - 1) * size + len(chunk)
        where = f" Papers {first}–{last}, page {n} of {len(chunks)}." if len(chunks) > 1 else ""
        # The table needs the width: no sidebars on wide screens (the tabs and the drawer remain).
        # all.md is not an index.md (the navigation and the curator's pages name it): its links
        # are Markdown links, which MkDocs and Zensical both resolve (render/links.py says why).
        markdown = not me.endswith("/index.md")
        # all.md's table is Markdown, which takes no attribute: the page leaves search whole
        # (Material's documented `search: exclude`), as the other pages' tables do (rows.NOT_INDEXED).
        lines = ["---", "title: All papers" + (f" (page {n})" if n > 1 else ""), "hide:", "  - navigation",
                 "  - toc", *(["search:", "  exclude: true"] if markdown else [f"{FLAG}: true"]), "---", "",
                 heading(1, "All papers", Ids()), f"<p>{len(papers)} papers, newest year first.{where}</p>"]
        lines.append(form)
        # The paginated table: what a reader without JavaScript (or without the search index)
        # sees, and what the filter hides while it lists its own results (the marker and
        # everything after it: a Markdown table cannot sit inside a raw-HTML wrapper).
        lines += ["", "<div data-rl-static></div>", ""]
        if len(chunks) > 1:
            lines += [year_links(years, "all.md", me, markdown=markdown), "",
                      pager("all.md", n, len(chunks), me, markdown=markdown), ""]
        if not chunk:
            lines.append("<p>No papers yet.</p>")
        elif markdown:
            lines += ["| Title | First author | Venue | Year |", "| --- | --- | --- | --- |"]
            lines += [f"| [{e.title}]({rel(me, paper_md(e.paper))}) | {e.author} | {e.venue} | {e.year} |"
                      for e in (entries[p.id] for p in chunk)]
        else:
            lines.append(paper_table([entries[p.id] for p in chunk], me))
        if len(chunks) > 1:
            lines += ["", pager("all.md", n, len(chunks), me, markdown=markdown)]
        out[me] = "\n".join(lines) + "\n"
    return out



# The sorts the All papers filter offers (readinglist-search.js maps each to Pagefind's sort).
SORTS = (("", "Newest first"), ("oldest", "Oldest first"), ("title", "Title A–Z"), ("rating", "Highest rated"),
         ("interest", "Most interesting"))
READING = (("to-read", "To read"), ("reading", "Reading"), ("read", "Read"), ("skipped", "Skipped"))


def _caseless(text: str) -> tuple[str, str]:
    return text.casefold(), text


def filter_form(library: Library) -> str:
    """The All papers filter: a form the script (static/readinglist-search.js) shows and answers
    from the search index, keeping its choices in the address (`?tag=...&year=...&sort=...`).
    Hidden until then: without JavaScript or an index, the paginated table is the page."""
    # Ties broken by the text itself: "ArXiv" and "arXiv" would otherwise come in the set's order,
    # which changes with Python's hash seed from one build to the next.
    tags = sorted({t for p in library.papers for t in p.tags}, key=_caseless)
    years = sorted({p.year for p in library.papers if p.year}, reverse=True)
    venues = sorted({p.venue for p in library.papers if p.venue}, key=_caseless)
    statuses = [s for s in STATUSES if any(p.status == s for p in library.papers)]

    def select(name: str, label: str, choices: list[tuple[str, str]], anything: str) -> str:
        options = "".join(f'<option value="{escape.attr(v)}">{escape.text(text)}</option>' for v, text in choices)
        return (f'<label>{label} <select name="{name}"><option value="">{anything}</option>{options}'
                "</select></label>")

    fields = [
        select("tag", "Tag", [(t, t) for t in tags], "any"),
        select("year", "Year", [(str(y), str(y)) for y in years], "any"),
        select("venue", "Venue", [(v, v) for v in venues], "any"),
        select("status", "Status", [(s, s) for s in statuses], "any"),
        select("reading", "Reading", list(READING), "any"),
        '<label>Sort <select name="sort">' + "".join(
            f'<option value="{v}">{text}</option>' for v, text in SORTS) + "</select></label>",
        '<button type="reset" class="md-button">Clear</button>',
    ]
    return ('<form class="rl-filter" data-rl-filter hidden>' + "".join(fields) + "</form>\n"
            '<div class="rl-filter-results" data-rl-filter-results hidden></div>')


def render_digest_index(library: Library) -> str:
    me = "digests/index.md"
    rows = [[f'<a href="{url_from(me, digest_md(d))}">{escape.text(d.title)}</a>', str(d.date or ""),
             str(len(d.paper_ids))]
            for d in sorted(library.digests, key=lambda d: (d.date is not None, d.date, d.path), reverse=True)]
    return "\n".join(["---", "title: Digests", f"{FLAG}: true", "---", "", heading(1, "Digests", Ids()),
                      table(["Digest", "Date", "Papers"], rows), ""])


def has_downloads(digest: Digest) -> bool:
    """Whether a digest gets its .bib, CSL-JSON and RIS files: not when it lists no paper."""
    return bool(digest.paper_ids)


def _why_empty(digest: Digest) -> str:
    if digest.format.startswith("arxiv"):
        return ("Nothing from this digest is in the list: the arXiv replacements it announced are of "
                "papers the list does not have (extra.readinglist.keep_replacements: true keeps them), "
                "or its papers are hidden by notes.")
    return "Nothing from this digest is in the list: its papers are hidden by notes."


def render_digest_pages(digest: Digest, entries: Mapping[str, Entry], size: int = PAGE_SIZE,
                        left_out: int = 0) -> dict[str, str]:
    """A digest's page, split into `digests/<slug>/2/index.md`, ... when it lists more than `size`
    papers (`entries`: the library's papers' rows by id, `rows.entries`; `left_out`: how many of
    its papers the keep rules left out)."""
    base = digest_md(digest)
    papers = [entries[i] for i in digest.paper_ids if i in entries]
    date = f"{digest.date} (from the {digest.date_source})" if digest.date else "unknown"
    chunks = pages(papers, size)
    out: dict[str, str] = {}
    for n, chunk in enumerate(chunks, start=1):
        me = page_md(base, n)
        bib = url_from(me, f"digests/{digest.slug}.bib")
        title = digest.title + (f" (page {n})" if n > 1 else "")
        source = f"<p>Source file <code>{escape.text(digest.name)}</code> · date {escape.text(date)} · "
        if left_out:
            source += f"{left_out} left out by your keep rules (extra.readinglist.keep) · "
        lines = ["---", f"title: {escape.yaml_title(title)}", f"{FLAG}: true", "---", "",
                 heading(1, escape.text(digest.title), Ids())]
        if not papers:
            # No empty downloads: the files are not written either (has_downloads).
            why = "All of its papers were left out by your keep rules." if left_out else _why_empty(digest)
            lines += [source + "no papers</p>", f"<p>{escape.text(why)}</p>"]
            out[me] = "\n".join(lines) + "\n"
            continue
        lines.append(source + f'{count(len(papers), "paper")} · <a href="{bib}">BibTeX</a></p>')
        lines.append(whole_list_formats(me))
        if len(chunks) > 1:
            lines.append(pager(base, n, len(chunks), me))
        start = (n - 1) * size + 1
        # The script (static/readinglist.js) shows the choice and sorts the list by these scores,
        # one per item (enrich/interest.py), kept here so that the list's own markup stays as it is.
        scores = " ".join(f"{e.paper.interest:.2f}" for e in chunk)
        lines.append(f'<p class="rl-order" data-rl-order data-interest="{scores}" hidden>Order: '
                     '<button type="button" class="md-button" data-rl-by="">as listed</button> '
                     '<button type="button" class="md-button" data-rl-by="interest">most interesting first'
                     '</button></p>')
        lines.append(f'<ol start="{start}" {NOT_INDEXED}>' if start > 1 else f"<ol {NOT_INDEXED}>")
        lead = prefix(me)
        lines += [f"<li>{anchor(e, me, lead)} — {e.author} · {e.venue}</li>" for e in chunk]
        lines.append("</ol>")
        if len(chunks) > 1:
            lines.append(pager(base, n, len(chunks), me))
        out[me] = "\n".join(lines) + "\n"
    return out

