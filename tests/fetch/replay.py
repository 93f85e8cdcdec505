"""A local stand-in for arXiv's API, doi.org and OpenReview's API: an HTTP server on 127.0.0.1
that answers from recorded files (tests/fixtures/ident/) and records every request it gets."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from tests.conftest import FIXTURES

IDENT = FIXTURES / "ident"
# What each service answers, by what it is asked: arXiv by its id_list, doi.org by the DOI
# (case-insensitive, as DOIs are), OpenReview by the note's id. Anything else: 404.
ARXIV = {"2306.06130": "arxiv-2306.06130.xml", "2306.06130v1": "arxiv-2306.06130.xml",
         "1412.6529": "arxiv-1412.6529.xml",
         "1412.6529,cond-mat/0607501v2": "arxiv-batch-1412.6529-cond-mat-0607501v2.xml"}
DOIS = {p.stem[4:].replace("-", "/", 1).lower(): p.name for p in IDENT.glob("doi-*.json")}
NOTES = {"6oXNpKuBDK": "openreview-6oXNpKuBDK.json"}


@dataclass
class Request:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    at: float


Answer = tuple[int, dict[str, str], bytes]


@dataclass
class Replay:
    """The server's address and what it was asked; `script` answers first when it returns something."""

    url: str = ""
    requests: list[Request] = field(default_factory=list)
    script: Callable[[Request], Answer | None] | None = None

    @property
    def env(self) -> dict[str, str]:
        return {"READINGLIST_ARXIV_API": f"{self.url}/api/query", "READINGLIST_DOI_RESOLVER": f"{self.url}/doi",
                "READINGLIST_OPENREVIEW_API": f"{self.url}/openreview", "READINGLIST_ARXIV_INTERVAL": "0"}


def recorded(req: Request) -> Answer:
    def file(name: str, kind: str) -> Answer:
        return 200, {"Content-Type": kind}, (IDENT / name).read_bytes()

    if req.path == "/api/query":
        asked = req.query.get("id_list", [""])[0]
        name = ARXIV.get(asked)
        if name:
            return file(name, "application/atom+xml")
        # Several ids not recorded together: the entries of those recorded alone, as arXiv
        # answers a list that mixes known and unknown ids (only the known ones).
        texts = [(IDENT / ARXIV[i]).read_text(encoding="utf-8") for i in asked.split(",") if i in ARXIV]
        if not texts:
            return file("arxiv-empty.xml", "application/atom+xml")
        entries = "".join(t[t.index("  <entry>"):t.index("</feed>")] for t in texts[1:])
        return 200, {}, texts[0].replace("</feed>", entries + "</feed>").encode("utf-8")
    if req.path.startswith("/doi/"):
        if req.headers.get("accept") != "application/vnd.citationstyles.csl+json":
            return 406, {}, b"Not Acceptable"
        name = DOIS.get(unquote(req.path[len("/doi/"):]).lower())
        return file(name, "application/vnd.citationstyles.csl+json") if name else (404, {}, b"DOI Not Found")
    if req.path == "/openreview/notes":
        name = NOTES.get(req.query.get("id", [""])[0])
        return file(name, "application/json") if name else (200, {}, b'{"notes":[],"count":0}')
    return 404, {}, b"not found"


@contextmanager
def serving(script: Callable[[Request], Answer | None] | None = None) -> Iterator[Replay]:
    replay = Replay(script=script)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlparse(self.path)
            req = Request(url.path, parse_qs(url.query), {k.lower(): v for k, v in self.headers.items()},
                          time.monotonic())
            replay.requests.append(req)
            answer = (replay.script(req) if replay.script else None) or recorded(req)
            status, headers, body = answer
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    replay.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield replay
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def fixture(name: str) -> Path:
    return IDENT / name
