"""`readinglist add ID...`: fetch each paper's metadata once and keep what was received in seeds/.

The identifiers already in the list are not asked for again (nothing is fetched, nothing added).
The others are asked for by service (services.py): every arXiv id in one query, then each DOI,
then each OpenReview note, one request at a time. An arXiv paper whose record gives a publisher's
DOI is asked for once more, at doi.org: its CSL-JSON record, kept beside the arXiv answer, makes
it read as the published paper (venue, volume, pages) while it keeps its arXiv id (enrich/merge.py
folds the two records by the DOI).

Each answer is written whole into seeds/ as a dated digest (`2026-12-08-arxiv-2306.06130.xml`,
`...-doi-10.1103-PhysRevB.85.115117.json`, `...-openreview-<id>.json`), atomically: a file appears
complete or not at all, and never replaces another. A failure (offline, unknown id, rate limit, a
bad answer) is one line naming the identifier; what was fetched for the others is kept; the
command then exits 1. The build reads these files as any digest and never makes a request.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..add import free_name
from ..config import Config
from ..errors import Problems
from ..model import Paper, short_authors
from ..sources import read_all
from ..sources.ids import match_keys, normalise_title
from . import services
from .http import Client, FetchError
from .identifiers import Identifier


@dataclass
class Known:
    """The list as seeds/ holds it: identifiers and normalised titles -> (title, file)."""

    ids: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    titles: dict[str, tuple[str, str]] = field(default_factory=dict)

    def add(self, paper: Paper, where: str) -> None:
        shown = (paper.title, where)
        for key in match_keys(paper):
            self.ids.setdefault(key, shown)
        if not paper.title_missing:
            self.titles.setdefault(normalise_title(paper.title), shown)

    def find(self, paper: Paper) -> tuple[str, str] | None:
        for key in match_keys(paper):
            if key in self.ids:
                return self.ids[key]
        return None if paper.title_missing else self.titles.get(normalise_title(paper.title))


def known_papers(config: Config) -> Known:
    known = Known()
    for raw in read_all(config.seeds_dir, config.root, Problems()):
        for paper in raw.papers:
            known.add(paper, paper.origin.path)
    return known


@dataclass
class Run:
    config: Config
    http: Client
    today: dt.date
    known: Known
    say: Callable[[str], None]
    complain: Callable[[str], None]
    failed: int = 0

    def fail(self, ident: Identifier | str, message: str) -> None:
        self.failed += 1
        self.complain(f"{ident}: error: {message}")

    def store(self, stem: str, suffix: str, data: bytes) -> str:
        """Write `data` into seeds/ under a free name, whole or not at all; its path as shown."""
        seeds = self.config.seeds_dir
        seeds.mkdir(parents=True, exist_ok=True)
        part = seeds / f".{stem}{suffix}.part-{os.getpid()}"
        try:
            with part.open("wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            while True:
                target = free_name(seeds, f"{self.today.isoformat()}-{stem}{suffix}")
                try:
                    os.link(part, target)  # fails if the name was taken meanwhile: never replaces
                    break
                except FileExistsError:
                    continue
        except OSError as exc:
            raise FetchError(f"cannot write into {_shown(seeds, self.config.root)}/: "
                             f"{exc.strerror or exc}") from None
        finally:
            part.unlink(missing_ok=True)
        return _shown(target, self.config.root)

    def added(self, ident: Identifier, paper: Paper, where: str, extra: str = "") -> None:
        year = f" {paper.year}" if paper.year else ""
        same = self.known.find(paper)
        state = (f"new: {where}" if same is None else
                 f"in {where}; the list had it already as {same[0]!r} ({same[1]}): this record adds to it")
        self.say(f"{ident}: {paper.title!r} ({short_authors(paper.authors, paper.authors_complete)}{year}), "
                 f"{state}{extra}")
        self.known.add(paper, where)


def add_identifiers(config: Config, identifiers: list[Identifier], today: dt.date | None = None,
                    http: Client | None = None, say: Callable[[str], None] = print,
                    complain: Callable[[str], None] | None = None) -> int:
    """Fetch and keep each identifier's paper; 1 if any failed, else 0 (see the module's text)."""
    run = Run(config, http or services.client(_contact(config)), today or dt.date.today(), known_papers(config),
              say, complain or (lambda line: print(line, file=sys.stderr)))
    todo: list[Identifier] = []
    seen: set[tuple[str, str]] = set()
    for ident in identifiers:
        key = (ident.kind, ident.base)
        if key in seen:
            continue
        seen.add(key)
        had = run.known.ids.get(key)
        if had is not None:
            say(f"{ident}: already in the list ({had[0]!r}, {had[1]}); nothing fetched")
        else:
            todo.append(ident)
    try:
        _arxiv(run, [i for i in todo if i.kind == "arxiv"])
        for ident in (i for i in todo if i.kind == "doi"):
            _doi(run, ident)
        for ident in (i for i in todo if i.kind == "openreview"):
            _openreview(run, ident)
    except KeyboardInterrupt:
        run.complain("readinglist add: interrupted; what was fetched before is kept in seeds/")
        return 130
    return 1 if run.failed else 0


def _arxiv(run: Run, idents: list[Identifier]) -> None:
    if not idents:
        return
    found: dict[str, tuple[Paper, str]] = {}
    asked = idents
    for _attempt in range(2):  # an answer without an id is believed the second time only
        try:
            answer = services.arxiv(run.http, [i.value for i in asked])
        except FetchError as exc:
            for ident in asked:
                run.fail(ident, f"arXiv: {exc}")
            return
        wanted = {i.base for i in asked}
        mine = [p for p in answer.papers if p.arxiv_id in wanted]
        if mine:
            try:
                got = {p.arxiv_id for p in mine}
                where = run.store(_arxiv_stem([i for i in asked if i.base in got]), ".xml", answer.data)
            except FetchError as exc:
                for ident in asked:
                    run.fail(ident, str(exc))
                return
            found.update((p.arxiv_id or "", (p, where)) for p in mine)
        asked = [i for i in asked if i.base not in found]
        if not asked:
            break
    for ident in idents:
        if ident.base not in found:
            run.fail(ident, "no such arXiv id (arXiv's API answered twice without it)")
            continue
        paper, where = found[ident.base]
        published, record_paper = "", None
        publisher_doi = paper.doi and not paper.doi.lower().startswith("10.48550/")
        if paper.doi and publisher_doi and ("doi", paper.doi.lower()) not in run.known.ids:
            try:
                record = services.doi(run.http, paper.doi)
                if record is None:
                    raise FetchError(f"doi.org does not know {paper.doi}")
                stored = run.store(_doi_stem(paper.doi), ".json", record.data)
                ref = record.papers[0].journal_ref or record.papers[0].venue
                published, record_paper = f"; published version ({ref}): {stored}", (record.papers[0], stored)
            except FetchError as exc:
                run.fail(ident, f"added as the arXiv preprint ({where}), but the record of its published version "
                         f"could not be fetched: {exc}; `readinglist add {paper.doi}` adds it later")
        run.added(ident, paper, where, published)
        if record_paper:
            run.known.add(*record_paper)


def _doi(run: Run, ident: Identifier) -> None:
    had = run.known.ids.get(("doi", ident.base))  # an arXiv paper's published version, fetched above
    if had is not None:
        run.say(f"{ident}: already in the list ({had[0]!r}, {had[1]}); nothing fetched")
        return
    try:
        answer = services.doi(run.http, ident.value)
        if answer is None:
            run.fail(ident, "no such DOI (doi.org does not know it)")
            return
        where = run.store(_doi_stem(ident.value), ".json", answer.data)
    except FetchError as exc:
        run.fail(ident, f"doi.org: {exc}")
        return
    for paper in answer.papers:
        run.added(ident, paper, where)


def _openreview(run: Run, ident: Identifier) -> None:
    try:
        answer = services.openreview_note(run.http, ident.value)
        if answer is None:
            run.fail(ident, "no such OpenReview forum (or it is not public)")
            return
        where = run.store(f"openreview-{ident.value}", ".json", answer.data)
    except FetchError as exc:
        run.fail(ident, f"OpenReview: {exc}")
        return
    for paper in answer.papers:
        run.added(ident, paper, where)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:80]


def _arxiv_stem(idents: list[Identifier]) -> str:
    more = f"-and-{len(idents) - 1}-more" if len(idents) > 1 else ""
    return f"arxiv-{_slug(idents[0].value)}{more}"


def _doi_stem(value: str) -> str:
    return f"doi-{_slug(value)}"


def _contact(config: Config) -> str:
    value = config.extra.get("contact")
    return " ".join(str(value).split()) if value else ""


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
