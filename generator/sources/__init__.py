"""The read stage: every input file read, one reader per digest format, chosen by looking at the
content rather than the file name (`READERS` and `read_digest` here).

- One module per format: tmlr.py (TMLR digest e-mails), listing.py (text copied from a listing
  page), arxiv_email.py, arxiv_rss.py and arxiv_api.py (arXiv's e-mails, feeds and API results),
  bibfile.py (.bib files), csljson.py (CSL-JSON: doi.org's answers, Zotero and pandoc exports),
  openreview.py (OpenReview notes as its API answers them); pages.py reads the curator's own pages under content/pages/.
- What they share: records.py (the `RawDigest` a reader returns and the rules every reader
  applies to its papers), ids.py (a record's id and normalised title), dupes.py (the same paper
  twice in one digest), dates.py (a digest's date when its text has none).
- Text as digests carry it: decode.py (bytes to clean text), feedxml.py (XML, parsed safely),
  jsondoc.py (JSON, parsed once), rejoin.py (lines a web page broke), authors.py (author lines),
  subjects.py (arXiv subjects),
  tex.py and texmath.py (TeX to Unicode; math without dollar signs).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import Problems
from ..runtime.progress import track
from . import arxiv_api, arxiv_email, arxiv_rss, bibfile, csljson, listing, openreview, tmlr
from .dates import resolve_date, sidecar_path
from .decode import read_text
from .dupes import drop_duplicates
from .feedxml import looks_like_xml
from .jsondoc import error as json_error
from .jsondoc import load as load_json
from .jsondoc import looks_like_json
from .records import RawDigest


@dataclass(frozen=True)
class Reader:
    format: str
    detect: Callable[[str], bool]
    read: Callable[[str, str, Problems], RawDigest]
    # Whether a file of this format is a dated digest: one whose text gives no date is told so.
    # A .bib file is not (its papers carry their years); its date, for its page, is taken quietly.
    dated: bool = True


READERS: tuple[Reader, ...] = (
    # JSON first: one parse tells them apart (sources/jsondoc.py); their items carry their own dates.
    Reader(openreview.FORMAT, openreview.detect, openreview.read, dated=False),
    Reader(csljson.FORMAT, csljson.detect, csljson.read, dated=False),
    Reader(arxiv_rss.FORMAT, arxiv_rss.detect, arxiv_rss.read),
    Reader(arxiv_api.FORMAT, arxiv_api.detect, arxiv_api.read),
    Reader(arxiv_email.FORMAT, arxiv_email.detect, arxiv_email.read),
    Reader(bibfile.FORMAT, bibfile.detect, bibfile.read, dated=False),
    Reader(tmlr.FORMAT, tmlr.detect, tmlr.read),
    Reader(listing.FORMAT, listing.detect, listing.read),
)

# Files in the seeds folder that are no digest: date sidecars (sources/dates.py) and a README
# (`readinglist init` writes seeds/README.md). Every other file is read, whatever its name, and
# the reader is chosen by its content: a file that is no digest gets a message, never silence.
SIDECAR_SUFFIXES = {".yml", ".yaml"}


def is_digest_name(path: Path) -> bool:
    """Whether the build reads a file of this name in seeds/ (the one rule; `add` keeps to it)."""
    return path.suffix.lower() not in SIDECAR_SUFFIXES and not _is_readme(path)


def _is_readme(path: Path) -> bool:
    return path.stem.lower() == "readme" and path.suffix.lower() in {"", ".md", ".txt"}


def _seed_files(seeds_dir: Path) -> list[Path]:
    if not seeds_dir.is_dir():
        return []
    # Hidden files and folders (`.git`, a tool's cache) hold no digests.
    return sorted(
        p for p in seeds_dir.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(seeds_dir).parts)
    )


def digest_files(seeds_dir: Path) -> list[Path]:
    return [p for p in _seed_files(seeds_dir) if is_digest_name(p)]


def _stray_sidecars(files: list[Path], digests: list[Path]) -> list[Path]:
    """The `.yml` files in seeds/ that are no digest's sidecar: nothing reads them."""
    ymls = [p for p in files if p.suffix.lower() in SIDECAR_SUFFIXES]
    if not ymls:
        return []  # the usual case: no file to look for beside each digest
    sidecars = {sidecar_path(p) for p in digests}
    return [p for p in ymls if p not in sidecars]


def read_digest(path: Path, display: str, problems: Problems) -> RawDigest | None:
    text = read_text(path, display, problems)
    if text is None:
        return None
    reader = next((r for r in READERS if r.detect(text)), None)
    if reader is None:
        if looks_like_xml(text):
            problems.error(display, 1, "an XML file, but not an arXiv API result or arXiv announcement feed "
                           "(RSS or Atom); skipped")
        elif looks_like_json(text) and (display.lower().endswith(".json") or load_json(text) is not None):
            problems.error(display, *json_error(text))
        else:
            problems.error(display, 1, "not a digest format I know (expected a TMLR digest e-mail, text copied "
                           "from a paper-listing page, an arXiv mailing-list e-mail, an arXiv feed or a .bib "
                           "file); skipped")
        return None
    raw = reader.read(display, text, problems)
    drop_duplicates(raw, problems)
    if not raw.papers:
        problems.error(display, 1, f"read as a {reader.format} digest but found no papers")
        return raw
    if raw.date is None:
        date, source = resolve_date(path, display, problems if reader.dated else Problems())
        raw.date, raw.date_source = date, source
    raw.papers = [p if p.date else replace(p, date=raw.date) for p in raw.papers]
    return raw


def read_all(seeds_dir: Path, root: Path, problems: Problems) -> list[RawDigest]:
    """Every digest in `seeds_dir`, in file order, and their messages in that order."""
    files = _seed_files(seeds_dir)
    paths = [p for p in files if is_digest_name(p)]
    root = root.resolve()  # once, not once per file
    for stray in _stray_sidecars(files, paths):
        problems.warn(_display(stray, root), 0, "no digest beside this file, so nothing reads it (a date "
                      "sidecar has its digest's name: 2025-08-08-cs-lg.txt and 2025-08-08-cs-lg.yml)")
    out = []
    for path in track(paths, "reading digests"):
        raw = read_digest(path, _display(path, root), problems)
        if raw is not None:
            out.append(raw)
    return out


def _display(path: Path, root: Path) -> str:
    """`path` relative to `root` (resolved already), safe to print."""
    try:
        text = path.resolve().relative_to(root).as_posix()
    except ValueError:
        text = path.as_posix()
    # A file name is input too: bytes that are not UTF-8 (surrogates here) could not be written to
    # a page, and control characters would reach the terminal in messages.
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return re.sub(r"[\x00-\x1f\x7f-\x9f]", "?", text)
