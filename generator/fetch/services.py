"""The three services `readinglist add` asks, and what counts as an answer from each.

- arXiv's API (`READINGLIST_ARXIV_API`, the query endpoint itself, `https://export.arxiv.org/api/query`
  by default): every arXiv id of one `add` in one `id_list` query; the answer is an Atom feed
  (sources/arxiv_api.py reads it). An answer without an entry for an id is taken for "no such id"
  only when a second query, one pause later, has none either (arXiv sometimes answers empty).
- doi.org (`READINGLIST_DOI_RESOLVER`, a base called as `{base}/{doi}`): CSL-JSON by content
  negotiation, which Crossref and DataCite DOIs answer alike (sources/csljson.py reads it).
- OpenReview's API v2 (`READINGLIST_OPENREVIEW_API`, a base called as `{base}/notes?id=...`):
  the note as JSON (sources/openreview.py reads it).

An answer is checked with the reader the build will use before it is kept: what the build could
not read is a "bad answer", never a file in seeds/.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlparse

from ..errors import Problems
from ..model import Paper
from ..sources import Reader, arxiv_api, csljson, openreview
from .http import Client, FetchError, refused, user_agent

ARXIV_API = "https://export.arxiv.org/api/query"
DOI_RESOLVER = "https://doi.org"
OPENREVIEW_API = "https://api2.openreview.net"
CSL_JSON = "application/vnd.citationstyles.csl+json"
# arXiv's terms: one request every three seconds. A mirror or a test may set another pause.
ARXIV_INTERVAL = 3.0


def endpoint(name: str, default: str) -> str:
    return (os.environ.get(name) or default).rstrip("/")


def arxiv_interval() -> float:
    value = os.environ.get("READINGLIST_ARXIV_INTERVAL", "")
    try:
        return max(0.0, float(value)) if value else ARXIV_INTERVAL
    except ValueError:
        return ARXIV_INTERVAL


def client(contact: str) -> Client:
    """The client of one `add`: arXiv's pause between two of its requests."""
    host = urlparse(endpoint("READINGLIST_ARXIV_API", ARXIV_API)).hostname or ""
    interval = arxiv_interval()
    return Client(user_agent(contact), spacing={host: interval}, backoff=max(interval, 1.0) if interval else 0.1)


@dataclass
class Answer:
    """What a service answered, as received (`data`, kept in seeds/), and the papers in it."""

    data: bytes
    papers: list[Paper]


_ENTRY = re.compile(r"[ \t]*<entry>.*?</entry>\s*?\n?", re.S)
_ABS_ID = re.compile(r"<id>\s*https?://arxiv\.org/abs/")


def arxiv(http: Client, ids: list[str]) -> Answer:
    """The Atom answer for `ids` (one query), its entries that are no paper (arXiv's empty entry for
    an id it does not know, in some of its versions) left out of what is kept."""
    query = urlencode({"id_list": ",".join(ids), "max_results": str(len(ids))}, safe=",/")
    url = f"{endpoint('READINGLIST_ARXIV_API', ARXIV_API)}?{query}"
    status, body = http.get(url, "application/atom+xml")
    text = body.decode("utf-8", "replace")
    if status != 200 and "api/errors" not in text:
        raise refused(url, status, body)
    if re.search(r"<id>\s*https?://arxiv\.org/api/errors", text):
        summary = re.search(r"<summary>(.*?)</summary>", text, re.S)
        raise FetchError(f"arXiv's API refused the query: {' '.join((summary.group(1) if summary else '').split())}")
    if "<entry" not in text and re.search(r"<feed[^>]*http://www\.w3\.org/2005/Atom", text[:2000]):
        return Answer(body, [])  # no entry at all: asked again before it is believed
    if not arxiv_api.detect(text):
        raise FetchError("bad answer from arXiv's API (not an arXiv API Atom feed)")
    kept = _ENTRY.sub(lambda m: m.group(0) if _ABS_ID.search(m.group(0)) else "", text)
    problems = Problems()
    raw = arxiv_api.read("answer", kept, problems)
    if problems.errors:
        raise FetchError(f"bad answer from arXiv's API ({next(iter(problems.errors)).message})")
    return Answer(kept.encode("utf-8") if kept != text else body, raw.papers)


def doi(http: Client, value: str) -> Answer | None:
    """The CSL-JSON record of a DOI, or None when doi.org does not know it."""
    url = f"{endpoint('READINGLIST_DOI_RESOLVER', DOI_RESOLVER)}/{quote(value, safe='/:;()')}"
    status, body = http.get(url, CSL_JSON)
    if status == 404:
        return None
    if status != 200:
        raise refused(url, status, body)
    return _json(body, Reader(csljson.FORMAT, csljson.detect, csljson.read), "doi.org (CSL-JSON)")


def openreview_note(http: Client, forum: str) -> Answer | None:
    """The note of an OpenReview forum (API v2), or None when OpenReview has none (or not public)."""
    url = f"{endpoint('READINGLIST_OPENREVIEW_API', OPENREVIEW_API)}/notes?{urlencode({'id': forum})}"
    status, body = http.get(url, "application/json")
    if status in (403, 404):  # OpenReview answers 403 for a note that is not public
        return None
    if status != 200:
        raise refused(url, status, body)
    answer = _json(body, Reader(openreview.FORMAT, openreview.detect, openreview.read), "OpenReview's API (a note)",
                   empty_ok=True)
    return answer if answer.papers else None


def _json(body: bytes, reader: Reader, what: str, empty_ok: bool = False) -> Answer:
    text = body.decode("utf-8", "replace")
    if not reader.detect(text):
        if empty_ok and re.match(r'\s*\{\s*"notes"\s*:\s*\[\s*\]', text):
            return Answer(body, [])
        raise FetchError(f"bad answer from {what}: {' '.join(text[:80].split()) or 'empty'}")
    problems = Problems()
    raw = reader.read("answer", text, problems)
    if not raw.papers and empty_ok:
        return Answer(body, [])
    if not raw.papers:
        raise FetchError(f"bad answer from {what}: no paper in it")
    return Answer(body, raw.papers)
