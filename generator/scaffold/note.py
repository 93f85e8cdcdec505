"""`readinglist note <key-or-title>`: create a note stub. The one command that adds a file to content/."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from ..build import build
from ..config import Config
from ..enrich.text import plain_title
from ..errors import GeneratorError
from ..model import Library, Paper
from ..render.escape import yaml_string
from ..sources.ids import arxiv_id, doi

_ARXIV_PREFIX = re.compile(r"^(?:https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/|arxiv:)", re.I)


def _identifiers(query: str) -> tuple[str | None, str | None]:
    """The arXiv id and the DOI that `query` is, if it is one: `2306.06924`, `arXiv:2306.06924v2`,
    `https://arxiv.org/abs/2306.06924`; `10.1103/PhysRevB.91.184507` (a title holding one is none)."""
    bare = _ARXIV_PREFIX.sub("", query.strip())
    ident = arxiv_id(f"arXiv:{bare}")
    if ident is None or not re.fullmatch(re.escape(ident) + r"(?:v\d+)?(?:\.pdf)?", bare, re.I):
        ident = None
    found = doi(query)
    return ident, (found if found and found == query.strip().removeprefix("https://doi.org/") else None)


def find_paper(library: Library, query: str) -> Paper:
    """By citation key, slug, arXiv id, DOI or exact title; else the one paper whose title contains
    `query`."""
    q = " ".join(query.split())
    fold = q.casefold()
    ident, found_doi = _identifiers(q)
    for pick in (lambda p: p.key == q, lambda p: p.slug == q,
                 lambda p: ident is not None and p.arxiv_id == ident,
                 lambda p: found_doi is not None and (p.doi or "").casefold() == found_doi.casefold(),
                 lambda p: " ".join(plain_title(p.title).split()).casefold() == fold):
        hits = [p for p in library.papers if pick(p)]
        if len(hits) == 1:
            return hits[0]
    hits = [p for p in library.papers if fold in plain_title(p.title).casefold()]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise GeneratorError(f"no paper has the citation key, slug, arXiv id, DOI or title {query!r}")
    # Whole titles, one a line: two titles that begin alike differ only further on.
    shown = _SHOWN_MATCHES
    lines = [f"  {p.key}  {' '.join(plain_title(p.title).split())}" for p in hits[:shown]]
    if len(hits) > shown:
        lines.append(f"  ... and {len(hits) - shown} more (give more of the title)")
    raise GeneratorError(f"{len(hits)} papers match {query!r}; give the citation key:\n" + "\n".join(lines))


_SHOWN_MATCHES = 8


def stub_text(paper: Paper, today: dt.date) -> str:
    return "\n".join([
        "---",
        f"# Note on {yaml_string(plain_title(paper.title))}. Every field is optional.",
        "status: to-read  # to-read, reading, read or skipped",
        "rating:  # 1 to 5",
        f"added: {today.isoformat()}",
        "tags: []  # tags to add to this paper",
        "remove_tags: []  # tags to take away",
        "hidden: false  # true leaves the paper out of the site",
        "# Overrides, uncomment to use:",
        f"# title: {yaml_string(plain_title(paper.title))}",
        f"# year: {paper.year or ''}",
        f"# citekey: {paper.key}",
        "---",
        "",
        "",
    ])


def create_stub(config: Config, query: str, today: dt.date | None = None) -> Path:
    """Write content/notes/<key>.md for the paper `query` names; never overwrites anything."""
    result = build(config, write=False)
    library = result.library
    paper = find_paper(library, query)
    index = library.notes
    existing = index.by_paper.get(paper.id) if index else None
    if existing is not None:
        raise NoteExists(config.root / existing.path,
                         f"{existing.path} already holds the note on {paper.key}; not overwritten")
    path = config.notes_dir / f"{paper.key}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # Mode "x": fails if the file exists, even if it appeared a moment ago.
        with path.open("x", encoding="utf-8", newline="\n") as fh:
            fh.write(stub_text(paper, today or dt.date.today()))
    except FileExistsError:
        raise NoteExists(path, f"{path} already exists; not overwritten") from None
    return path


class NoteExists(GeneratorError):
    """The paper has a note already (at `path`): nothing is written."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
