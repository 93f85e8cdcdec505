"""Reader for arXiv's announcement feeds: RSS 2.0 from `rss.arxiv.org/rss/<class>` and the Atom
variant from `rss.arxiv.org/atom/<class>`.

    <item>                                         (Atom: <entry>)
      <title>...</title>  <link>https://arxiv.org/abs/2609.09159</link>
      <description>arXiv:2609.09159v1 Announce Type: new
    Abstract: ...</description>                    (Atom: <summary>)
      <category>cs.LG</category> ...               (Atom: <category term="cs.LG"/>)
      <pubDate>Thu, 18 Sep 2025 00:00:00 -0400</pubDate>   (Atom: <published>)
      <arxiv:announce_type>new</arxiv:announce_type>       new, cross, replace, replace-cross
      <dc:creator>Ann Lee, Bo Chen</dc:creator>    (Atom: the same, or <author><name>)
      <arxiv:DOI>...</arxiv:DOI> <arxiv:journal_reference>...</arxiv:journal_reference>  (when known)
    </item>

The announcement date is the digest's date. Replacements (`replace`, `replace-cross`) behave as
in the e-mail reader: they update a paper the list already has (enrich/merge.py).
"""

from __future__ import annotations

import datetime as dt
import re
from email.utils import parsedate_to_datetime
from xml.etree.ElementTree import Element

from ..errors import Problems
from ..model import Paper, SourceRef
from .authors import parse_authors, warn_unsure
from .feedxml import NS, element_lines, looks_like_xml, parse, text_of
from .ids import arxiv_id, doi
from .records import RawDigest, arxiv_paper
from .tex import tex_paragraphs, tex_title, tex_to_text

FORMAT = "arxiv-feed"
_PREAMBLE = re.compile(r"^\s*arXiv:\S+\s+Announce Type:\s*[\w-]+\s*(?:Abstract:\s*)?", re.I)


def detect(text: str) -> bool:
    return looks_like_xml(text) and "announce_type" in text[:50000] and "arxiv" in text[:4000].lower()


def _date(value: str) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(value).date()
    except (TypeError, ValueError, IndexError):
        return None


def _field(item: Element, rss: str, atom: str) -> str:
    return text_of(item, rss) or text_of(item, atom)


def _paper(item: Element, line: int, path: str, problems: Problems) -> Paper | None:
    where = SourceRef(path, line)
    link = text_of(item, "link") or next(
        (a.get("href", "") for a in item.findall("atom:link", NS) if a.get("rel", "alternate") == "alternate"), "")
    summary = item.find("atom:summary", NS)
    body = text_of(item, "description") or ("".join(summary.itertext()) if summary is not None else "")
    ident = arxiv_id(link) or arxiv_id(body[:80]) or arxiv_id(text_of(item, "guid") or text_of(item, "atom:id"))
    if ident is None:
        problems.warn(path, line, "item without an arXiv identifier (no arxiv.org/abs/ link); item skipped")
        return None
    kind = text_of(item, "arxiv:announce_type").lower()
    title = tex_title(_field(item, "title", "atom:title"))
    abstract = tex_paragraphs(_PREAMBLE.sub("", body.strip()))
    creators = text_of(item, "dc:creator") or ", ".join(
        text_of(a, "atom:name") for a in item.findall("atom:author", NS))
    authors = parse_authors(tex_to_text(creators))
    warn_unsure(authors, path, line, problems)
    categories = [c.text or "" for c in item.findall("category")] + [
        c.get("term", "") for c in item.findall("atom:category", NS)]
    if not title:
        problems.warn(path, line, f"the item of arXiv:{ident} has no title; using a placeholder title")
    return arxiv_paper(
        ident, title, authors.names, abstract, where, complete=authors.complete,
        categories=tuple(dict.fromkeys(c.strip() for c in categories if c.strip())),
        doi=doi(text_of(item, "arxiv:DOI") or text_of(item, "arxiv:doi")),
        date=_date(_field(item, "pubDate", "atom:published")),
        journal_ref=tex_to_text(text_of(item, "arxiv:journal_reference") or text_of(item, "arxiv:journal_ref")),
        replacement=kind.startswith("replace"))


def read(path: str, text: str, problems: Problems) -> RawDigest:
    root = parse(path, text, problems, "an arXiv announcement feed")
    if root is None:
        return RawDigest(path=path, format=FORMAT, title="arXiv announcements", date=None, date_source="")
    atom = root.tag == f"{{{NS['atom']}}}feed"
    channel = root if atom else root.find("channel")
    items = root.findall("atom:entry", NS) if atom else (channel.findall("item") if channel is not None else [])
    lines = element_lines(text, "entry" if atom else "item")
    papers = []
    for n, item in enumerate(items):
        paper = _paper(item, lines[n] if n < len(lines) else 1, path, problems)
        if paper is not None:
            papers.append(paper)
    name = text_of(channel, "atom:title" if atom else "title") or "arXiv announcements"
    date = _date(text_of(channel, "atom:updated" if atom else "pubDate") or text_of(channel, "lastBuildDate"))
    if date is None and papers:
        date = max((p.date for p in papers if p.date), default=None)
    title = name + (f", {date:%b} {date.day}, {date.year}" if date else "")
    return RawDigest(path=path, format=FORMAT, title=title, date=date, date_source="text" if date else "",
                     papers=papers)
