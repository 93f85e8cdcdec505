"""Search at ten thousand papers: a Pagefind index behind Material's own search box.

Material's built-in search ships one JSON index holding every page's full text and builds a lunr
index from it in the browser: at ten thousand papers that is about 25 MB to fetch and seconds of
work before the first result. Pagefind splits its index into small chunks and fetches only those
a query needs (a few hundred KB), so results come at once however long the list grows.

This module writes that index after MkDocs has built the site (the MkDocs plugin calls
`build_index` into the project's cache, then `publish` links it into the site). It indexes exactly
what a reader searches for — each paper's title, authors, abstract, citation key, arXiv id and
DOI, taken from `papers.json` — and leaves out page boilerplate and the BibTeX block, which would
repeat the same words on every page. Material's search box stays (generator/theme/partials/search.html,
without Material's own search component), and `static/readinglist-search.js` answers it through
Pagefind's JavaScript API, so typing into `.md-search__input` shows `.md-search-result__item`
results in Material's markup.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Config
from ..enrich.text import to_ascii
from ..model import short_authors

log = logging.getLogger("mkdocs.readinglist")

INDEX_DIR = "pagefind"
STAMP = ".readinglist-records"
SCRIPT = "assets/javascripts/readinglist-search.js"


class SearchIndexError(Exception):
    """The Pagefind index could not be written (binary missing or failing)."""


@dataclass(frozen=True)
class Record:
    url: str
    title: str
    content: str
    part: str = ""  # what matched, shown under a result's title: "" (the paper), "Note", "Page" or "Tag"
    # A paper's facets for the All papers filter (readinglist-search.js): Pagefind filters, sort
    # keys and the table row's cells. None for notes, pages and tags, which the filter never lists.
    filters: dict[str, list[str]] | None = None
    sort: dict[str, str] | None = None
    row: dict[str, str] | None = None

    def as_dict(self) -> dict[str, Any]:
        if self.filters is not None:
            return {"url": self.url, "content": self.content, "language": "en",
                    "meta": {"title": self.title, **(self.row or {})}, "filters": self.filters,
                    "sort": self.sort or {}}
        if self.part == "Note":
            # Pagefind searches a record's metadata too: a note's record is titled "Note" and names
            # its paper in a filter (never searched), so the paper's own title words find the
            # paper's record alone.
            return {"url": self.url, "content": self.content, "language": "en",
                    "meta": {"title": self.part, "part": self.part}, "filters": {"paper": [self.title]}}
        meta = {"title": self.title, **({"part": self.part} if self.part else {})}
        return {"url": self.url, "content": self.content, "language": "en", "meta": meta}


def curator_records(config: Config, papers: list[dict[str, Any]]) -> list[Record]:
    """The curator's own words: each note (a record on its paper's page, so a word found only in
    a note finds that paper), each page of content/pages/ and each tag description of
    content/topics.yml (on the tag's page)."""
    from ..enrich.topics import load_taxonomy
    from ..errors import Problems
    from ..notes.load import split_front_matter
    from ..render.tagnames import tag_slugs

    out: list[Record] = []
    by_page = {str(p.get("page") or ""): p for p in papers}
    for path, page in _note_pages(config):
        paper = by_page.get(page)
        text = _body(path, split_front_matter)
        if page and paper and text:
            title = " ".join(str(paper.get("title") or "").split())
            out.append(Record(url=page + "#my-notes", title=title, content=text, part="Note"))
    pages = sorted(config.pages_dir.rglob("*.md")) if config.pages_dir.is_dir() else []
    for path in pages:
        rel = path.relative_to(config.pages_dir).with_suffix("").as_posix()
        url = "" if rel == "index" else (rel[: -len("/index")] if rel.endswith("/index") else rel) + "/"
        raw = _body(path, split_front_matter, fold=False)
        if raw.strip():
            heading = re.search(r"(?m)^#\s+(.+?)\s*#*\s*$", raw)
            out.append(Record(url=url, title=heading.group(1) if heading else path.stem, content=" ".join(raw.split()),
                              part="Page"))
    # Tags with a page (a paper has them): slugs as render.tagnames gives them, from the same names.
    slugs = tag_slugs([t for p in papers for t in p.get("tags") or []])
    for topic in load_taxonomy(config.topics_path, Problems()).topics:
        if topic.name in slugs and topic.description.strip():
            out.append(Record(url=f"tags/{slugs[topic.name]}/", title=topic.name,
                              content=" ".join(topic.description.split()), part="Tag"))
    return out


def _note_pages(config: Config) -> list[tuple[Path, str]]:
    """Each note file with the page of the paper it names (by citation key or slug, as
    citekeys.yml records them); notes that name no paper are left out."""
    from ..enrich.registry import Registry
    from ..errors import Problems

    registry = Registry.load(config.registry_path, Problems())
    stems: dict[str, str] = {}
    for entry in registry.entries.values():
        slug = entry.get("slug")
        for name in (entry.get("key"), slug):
            if name and slug:
                stems.setdefault(name, f"papers/{slug}/")
    notes = sorted(config.notes_dir.glob("*.md")) if config.notes_dir.is_dir() else []
    return [(path, stems[path.stem]) for path in notes if path.stem in stems]


def _body(path: Path, split: Any, *, fold: bool = True) -> str:
    """The Markdown of a note or page without its front matter (white space folded)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""  # the build reports it, with its path
    body = split(text)[1]
    return " ".join(body.split()) if fold else str(body)


# A word only papers' records hold, once each. Pagefind 1.5 answers a search without a term by
# loading every chunk of its word index (5 MB at 10,000 papers; fixed upstream after 1.5.2, in
# Pagefind's pull request 1317); the All papers filter searches for this word instead, which
# loads the one chunk that holds it. readinglist-search.js keeps it out of result excerpts.
EVERY = "rlpaper"

# The reading statuses a note may give, in the filter's order.
READING = ("to-read", "reading", "read", "skipped")


def reading_of(config: Config) -> dict[str, tuple[str, int]]:
    """Each noted paper's reading status and rating, by page (`papers/<slug>/`), from the notes'
    front matter (a note that does not parse is reported by the build, and has neither here)."""
    from ..errors import Problems
    from ..notes.load import parse_note

    out: dict[str, tuple[str, int]] = {}
    for path, page in _note_pages(config):
        try:
            note = parse_note(path.read_text(encoding="utf-8"), path.name, path.stem, Problems())
        except (OSError, UnicodeDecodeError):
            continue
        out[page] = (note.status or "", note.rating or 0)
    return out


def facets(paper: dict[str, Any], reading: tuple[str, int] | None) -> tuple[dict[str, list[str]],
                                                                               dict[str, str], dict[str, str]]:
    """(filters, sort keys, row cells) of one paper of `papers.json` for the All papers filter.
    Every paper has the filter `kind: paper`, so a query for all papers leaves out the notes,
    pages and tags that share the index; sort keys are strings Pagefind compares (dates as ISO
    text, ratings as numbers, titles case-folded)."""
    status, rating = reading or ("", 0)
    year = paper.get("year")
    filters: dict[str, list[str]] = {"kind": ["paper"], "tag": list(paper.get("tags") or []),
                                     "status": [str(paper.get("status") or "")]}
    if year:
        filters["year"] = [str(year)]
    if paper.get("venue"):
        filters["venue"] = [str(paper["venue"])]
    if status:
        filters["reading"] = [status]
    sort = {"date": str(paper.get("date") or "0000-00-00"),
            "title": " ".join(str(paper.get("title") or "").split()).casefold(), "rating": str(rating)}
    authors = list(paper.get("authors") or [])
    first = short_authors(authors, bool(paper.get("authors_complete", True)))
    row = {"first": first, "venue": str(paper.get("venue_line") or ""), "year": str(year or "")}
    return filters, sort, row


def identifiers(paper: dict[str, Any]) -> str:
    """The paper's citation key, arXiv id and DOI, each after its name (`Citation key smith2023robust
    · arXiv 2306.06130 · DOI 10.1103/PhysRevB.91.184507`): searchable, and after the abstract, so
    a result's excerpt reads title, authors, abstract, and shows them named when they matched."""
    named = [("Citation key", paper.get("key")), ("arXiv", paper.get("arxiv")), ("DOI", paper.get("doi"))]
    return " · ".join(f"{name} {value}" for name, value in named if value)


def record(paper: dict[str, Any], reading: tuple[str, int] | None = None) -> Record:
    """What search knows of one paper (an object of `papers.json`): title, authors, abstract, its
    citation key, arXiv id and DOI (`identifiers`), and its facets for the All papers filter
    (`reading`: its note's status and rating).

    The URL is relative to the site root, so the index works wherever the site is published; the
    search worker puts the site's own base path in front of it.
    """
    authors = ", ".join(paper.get("authors") or [])
    if paper.get("authors") and not paper.get("authors_complete", True):
        authors += " et al."
    # Typed without accents too: `Bethune` must find Béthune (the index does not fold diacritics).
    # Only the names that have accents, so result excerpts do not show every author twice.
    folded = ", ".join(" ".join(to_ascii(a).split()) for a in paper.get("authors") or [] if not a.isascii())
    parts = [paper.get("title") or "", authors, folded, paper.get("abstract") or "", identifiers(paper)]
    content = "\n".join(" ".join(p.split()) for p in parts if p and p.strip())
    # The word every paper's record ends with: the All papers filter searches for it (see EVERY).
    content += "\n" + EVERY
    page = str(paper.get("page") or "")
    filters, sort, row = facets(paper, reading)
    return Record(url=page, title=" ".join((paper.get("title") or "").split()), content=content,
                  filters=filters, sort=sort, row=row)


def records(papers: Iterable[dict[str, Any]], reading: dict[str, tuple[str, int]] | None = None) -> list[Record]:
    reading = reading or {}
    return [record(p, reading.get(str(p["page"]))) for p in papers if p.get("page")]


def fingerprint(recs: list[Record]) -> str:
    h = hashlib.sha256()
    for r in recs:
        h.update(json.dumps(r.as_dict(), ensure_ascii=False, sort_keys=True).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def available() -> bool:
    try:
        from pagefind.service import get_executable
    except ImportError:
        return False
    return get_executable() is not None


def build_index(papers_file: Path, out: Path, *, force: bool = False, config: Config | None = None,
                background: bool = False) -> int | None:
    """(Re)write the Pagefind index `out` from `papers_file` and, with `config`, the curator's notes
    and pages (`curator_records`); None when `out` already holds it. `background`: Pagefind runs at
    a low scheduling priority (under `mkdocs serve`, where a rebuild and a browser are waiting)."""
    if not papers_file.is_file():
        raise SearchIndexError(f"{papers_file} is missing; was the generator run?")
    raw = papers_file.read_bytes()
    # The file's own hash first: every rebuild under `serve` asks, and parsing 30 MB of JSON
    # beside MkDocs' build (same interpreter) slowed each rebuild by half a second.
    digest = hashlib.sha256(raw)
    # And this module's code, which decides what the records hold (a new facet, say).
    digest.update(Path(__file__).read_bytes())
    for folder in (config.notes_dir, config.pages_dir, config.registry_path) if config else ():
        for path in sorted(folder.rglob("*.md")) if folder.is_dir() else [folder] if folder.is_file() else []:
            digest.update(f"\0{path}\0".encode("utf-8", "surrogateescape") + path.read_bytes())
    quick = "bytes " + digest.hexdigest()
    stamp_file = out / STAMP
    held = stamp_file.read_text(encoding="utf-8").splitlines() if stamp_file.is_file() else []
    current = not force and (out / "pagefind.js").is_file()
    if current and quick in held:
        return None
    papers = json.loads(raw.decode("utf-8"))
    recs = records(papers, reading_of(config) if config else None) + (curator_records(config, papers) if config else [])
    stamp = fingerprint(recs)
    if current and stamp in held:
        stamp_file.write_text(f"{stamp}\n{quick}\n", encoding="utf-8")  # same records, other bytes
        return None
    tmp = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        _write_index(recs, tmp, background=background)
    except FileNotFoundError as exc:
        raise SearchIndexError("the Pagefind binary is missing: install the project with "
                               "`pip install -e .` (it depends on pagefind[bin])") from exc
    (tmp / STAMP).write_text(f"{stamp}\n{quick}\n", encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return len(recs)


def publish(prepared: Path, site_dir: Path) -> None:
    """Put the index built in `prepared` into the site, as hard links where the file system allows."""
    target = site_dir / INDEX_DIR
    stamp = prepared / STAMP
    if (target / STAMP).is_file() and stamp.is_file() and (target / STAMP).read_bytes() == stamp.read_bytes():
        return
    tmp = site_dir / f".{INDEX_DIR}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(prepared, tmp, copy_function=link)
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)


class _Service:
    """Pagefind's indexing service (`pagefind --service`), spoken to directly.

    The `pagefind` package's own asyncio client sleeps 0.1 s before reading each reply, which makes
    ten thousand records take a quarter of an hour; the protocol is just base64-encoded JSON
    messages separated by commas, so a thread reading replies as they come keeps it to seconds.
    """

    def __init__(self, *, background: bool = False) -> None:
        from pagefind.service import get_executable

        exe = get_executable()
        if exe is None:
            raise FileNotFoundError("pagefind")
        lower = background and hasattr(os, "nice")
        self.proc = subprocess.Popen([str(exe), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, preexec_fn=_lower_priority if lower else None)
        self.replies: dict[int, dict[str, Any]] = {}
        self.errors: list[str] = []
        self.done = threading.Condition()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        buf = b""
        while chunk := os.read(self.proc.stdout.fileno(), 1 << 16):
            buf += chunk
            *messages, buf = buf.split(b",")
            for raw in messages:
                reply = json.loads(base64.b64decode(raw))
                payload = reply.get("payload") or {}
                with self.done:
                    if payload.get("type") == "Error":
                        self.errors.append(str(payload.get("message")))
                    if reply.get("message_id") is not None:
                        self.replies[reply["message_id"]] = payload
                    self.done.notify_all()
        with self.done:
            self.done.notify_all()

    def send(self, payload: dict[str, Any]) -> int:
        assert self.proc.stdin is not None
        self.next_id += 1
        message = {"message_id": self.next_id, "payload": payload}
        self.proc.stdin.write(base64.b64encode(json.dumps(message).encode("utf-8")) + b",")
        return self.next_id

    def wait(self, message_id: int, timeout: float = 600.0) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.flush()
        with self.done:
            ok = self.done.wait_for(lambda: message_id in self.replies or self.errors
                                    or self.proc.poll() is not None, timeout)
        if self.errors:
            raise SearchIndexError("Pagefind: " + "; ".join(self.errors[:3]))
        if not ok or message_id not in self.replies:
            raise SearchIndexError("Pagefind's indexing service stopped without answering")
        return self.replies[message_id]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _lower_priority() -> None:
    os.nice(10)  # in the Pagefind child only (preexec_fn), not in this process


def _write_index(recs: list[Record], out: Path, *, background: bool = False) -> None:
    service = _Service(background=background)
    try:
        reply = service.wait(service.send({"type": "NewIndex", "config": {"verbose": False}}))
        index_id = reply["index_id"]
        for r in recs:
            service.send({"type": "AddRecord", "index_id": index_id, "filters": None, "sort": None, **r.as_dict()})
        service.wait(service.send({"type": "WriteFiles", "index_id": index_id, "output_path": str(out)}))
        _wait_until_written(out, len(recs))
    finally:
        service.close()


def _wait_until_written(out: Path, pages: int, timeout: float = 120.0) -> None:
    """The service answers WriteFiles before its last files (the entry file among them) are on
    disk; wait until the entry names all pages and no file is still empty."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            entry = json.loads((out / "pagefind-entry.json").read_text(encoding="utf-8"))
            count = sum(lang.get("page_count", 0) for lang in entry.get("languages", {}).values())
            empty = [p for p in out.rglob("*") if p.is_file() and p.stat().st_size == 0]
            if count == pages and not empty:
                return
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            raise SearchIndexError(f"Pagefind did not finish writing {out}")
        time.sleep(0.05)
