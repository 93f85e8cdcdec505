"""A small crawler over http: every internal link and anchor of the built site must resolve.

Starts from the site root and from every HTML file in the site folder (paper pages are not in
the navigation, so a crawl alone could miss an orphan), follows a/link/script/img/source URLs
on the same origin, and checks that each `#fragment` names an element id on the target page.
External links are not fetched (the tests have no network). A same-origin URL outside the
site's prefix is an error: it works at `/` but breaks on GitHub project pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.request import urlopen

_LINK_ATTRS = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src", "iframe": "src"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name") if tag in ("a", "map") else ("id",):
            if values.get(key):
                self.ids.add(str(values[key]))
        if tag == "a" and values.get("xlink:href"):
            self.links.append(str(values["xlink:href"]))  # links inside inline SVG (graphs, map)
        attr = _LINK_ATTRS.get(tag)
        if attr and values.get(attr) and not (tag == "link" and values.get("rel") in ("preconnect", "dns-prefetch")):
            self.links.append(str(values[attr]))


@dataclass
class Report:
    fetched: dict[str, int] = field(default_factory=dict)        # url -> status
    anchors_checked: int = 0
    problems: list[str] = field(default_factory=list)

    def pages(self, under: str) -> list[str]:
        return sorted(u for u, s in self.fetched.items() if s == 200 and u.startswith(under))


def _fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urlopen(url, timeout=30) as response:
            return response.status, response.headers.get_content_type(), response.read()
    except HTTPError as exc:
        return exc.code, "", b""
    except URLError as exc:
        return 0, str(exc.reason), b""


def check(base: str, site_dir: Path | None = None) -> Report:
    """Crawl the site served at `base` (ending in `/`); `site_dir` adds every HTML file as a start."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base))
    report = Report()
    parsed: dict[str, _Page] = {}
    wanted: dict[str, list[tuple[str, str]]] = {}   # target page -> [(from page, fragment)]
    queue = [base, *(_seed_urls(base, site_dir) if site_dir else [])]
    seen: set[str] = set()
    with ThreadPoolExecutor(max_workers=8) as pool:
        while queue:
            batch = [u for u in dict.fromkeys(queue) if u not in seen]
            queue = []
            seen.update(batch)
            for url, (status, ctype, body) in zip(batch, pool.map(_fetch, batch), strict=True):
                report.fetched[url] = status
                if status != 200 or ctype != "text/html":
                    continue
                page = _Page()
                page.feed(body.decode("utf-8", "replace"))
                parsed[url] = page
                for raw in page.links:
                    target, fragment = urldefrag(urljoin(url, raw))
                    if not target.startswith(origin + "/"):
                        continue  # external: not fetched offline
                    if not urlsplit(target).path.startswith(urlsplit(base).path):
                        report.problems.append(f"{url}: link {raw!r} leaves the site's path {urlsplit(base).path}")
                        continue
                    wanted.setdefault(target, []).append((url, fragment))
                    if target not in seen:
                        queue.append(target)
    for target, sources in sorted(wanted.items()):
        status = report.fetched.get(target)
        if status != 200:
            for source in sorted({s for s, _ in sources}):
                report.problems.append(f"{source}: broken link to {target} (HTTP {status})")
            continue
        for source, fragment in sources:
            if not fragment:
                continue
            report.anchors_checked += 1
            if target not in parsed or fragment not in parsed[target].ids:
                report.problems.append(f"{source}: no anchor #{fragment} on {target}")
    report.problems = sorted(set(report.problems))
    return report


def _seed_urls(base: str, site_dir: Path) -> Iterable[str]:
    for html in sorted(site_dir.rglob("*.html")):
        rel = html.relative_to(site_dir).as_posix()
        if rel == "404.html":
            continue  # served only for missing pages; its links are checked by the 404 test
        yield base + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)
