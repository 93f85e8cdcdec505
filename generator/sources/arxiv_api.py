"""Reader for results of the arXiv API (`export.arxiv.org/api/query`), an Atom feed, as saved from
the browser or by tools such as arxiv.py.

    <feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
      <entry>
        <id>http://arxiv.org/abs/1201.4869v1</id>          (or cond-mat/0412498v1)
        <published>2012-01-23T20:00:00Z</published>  <updated>...</updated>
        <title>... hard line breaks ...</title>  <summary>...</summary>
        <author><name>...</name><arxiv:affiliation>...</arxiv:affiliation></author>
        <arxiv:doi>...</arxiv:doi> <arxiv:journal_ref>...</arxiv:journal_ref> <arxiv:comment>...</arxiv:comment>
        <link href="http://arxiv.org/abs/..." rel="alternate"/> <link title="pdf" .../> <link title="doi" .../>
        <arxiv:primary_category term="cs.LG"/> <category term="cs.LG"/> <category term="stat.ML"/>
      </entry>

A paper's date is its first version's (`published`); the digest's date is the feed's `updated`.
The first category is the primary one (`arxiv:primary_category`); category terms that are no
arXiv category (MSC or ACM classes, `35J20, 35B38`) are left out. The digest's title says what was
asked: `ArXiv Query: search_query=au:del_maestro&id_list=&start=0&max_results=10` reads
`arXiv API: au:del_maestro, 9 October 2016`.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import parse_qs
from xml.etree.ElementTree import Element

from ..errors import Problems
from ..model import Paper, SourceRef
from .dates import MONTH_NAMES
from .feedxml import NS, element_lines, looks_like_xml, parse, text_of
from .ids import arxiv_id, doi
from .records import RawDigest, arxiv_paper
from .subjects import is_category
from .tex import tex_paragraphs, tex_title, tex_to_text

FORMAT = "arxiv-api"


def detect(text: str) -> bool:
    head = text[:4000]
    return (looks_like_xml(text) and "<feed" in head and "arxiv.org/schemas/atom" in head
            and "announce_type" not in text[:20000])


def _date(value: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def _paper(entry: Element, line: int, path: str, problems: Problems) -> Paper | None:
    where = SourceRef(path, line)
    raw_id = text_of(entry, "atom:id")
    ident = arxiv_id(raw_id)
    if ident is None:
        problems.warn(path, line, f"entry id {raw_id[:80]!r} is not an arXiv abstract address; entry skipped")
        return None
    title = tex_title(text_of(entry, "atom:title"))
    abstract = tex_paragraphs(_paragraphs(entry.find("atom:summary", NS)))
    names = tuple(tex_to_text(text_of(a, "atom:name")) for a in entry.findall("atom:author", NS))
    names = tuple(n for n in names if n)
    categories = [c.get("term", "") for c in entry.findall("atom:category", NS)]
    primary = entry.find("arxiv:primary_category", NS)
    if primary is not None and primary.get("term"):
        categories.insert(0, primary.get("term", ""))
    links = {(link.get("title") or link.get("rel") or ""): link.get("href", "")
             for link in entry.findall("atom:link", NS)}
    found_doi = doi(text_of(entry, "arxiv:doi")) or doi(links.get("doi"))
    if not title:
        problems.warn(path, line, f"the entry of arXiv:{ident} has no title; using a placeholder title")
    return arxiv_paper(
        ident, title, names, abstract, where, categories=tuple(dict.fromkeys(c for c in categories if is_category(c))),
        doi=found_doi, date=_date(text_of(entry, "atom:published")),
        journal_ref=tex_to_text(text_of(entry, "arxiv:journal_ref")),
        comments=tex_to_text(text_of(entry, "arxiv:comment")))


def _paragraphs(summary: Element | None) -> str:
    """The summary's text with its hard line breaks joined; a blank line keeps a paragraph break."""
    if summary is None:
        return ""
    text = "".join(summary.itertext()).strip()
    return "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text))


def read(path: str, text: str, problems: Problems) -> RawDigest:
    root = parse(path, text, problems, "an arXiv API result")
    if root is None:
        return RawDigest(path=path, format=FORMAT, title="arXiv API results", date=None, date_source="")
    entries = root.findall("atom:entry", NS)
    lines = element_lines(text, "entry")
    papers = []
    for n, entry in enumerate(entries):
        paper = _paper(entry, lines[n] if n < len(lines) else 1, path, problems)
        if paper is not None:
            papers.append(paper)
    date = _date(text_of(root, "atom:updated"))
    title = digest_title(text_of(root, "atom:title"), date)
    return RawDigest(path=path, format=FORMAT, title=title, date=date, date_source="text" if date else "",
                     papers=papers)


def digest_title(feed_title: str, date: dt.date | None) -> str:
    """`arXiv API: au:del_maestro, 9 October 2016` from the feed's title (`ArXiv Query:
    search_query=au:del_maestro&id_list=&start=0&max_results=10`): the search, else the ids asked for."""
    asked = feed_title
    m = re.match(r"\s*arxiv query:\s*(.*)$", feed_title, re.I | re.S)
    if m:
        fields = parse_qs(m.group(1).replace("&amp;", "&"))
        search = " ".join(fields.get("search_query", [""])[0].split())
        ids = ", ".join(i for i in fields.get("id_list", [""])[0].split(",") if i.strip())
        asked = "; ".join(x for x in (search, ids) if x)
    title = "arXiv API" + (f": {asked}" if asked else " results")
    return title + (f", {date.day} {MONTH_NAMES[date.month - 1].title()} {date.year}" if date else "")
