"""`readinglist add FILE...`: copy digests into seeds/ and say at once what they hold.

A file is read before it is copied: one that holds no paper (an image, an empty file, text in no
format the readers know) stays out of seeds/, and the command exits 1 naming it. Which files in
seeds/ are digests is decided in one place (sources/__init__.py, `is_digest_name`); the build reads
each of them by its content, whatever its name.

A file keeps its name when the name holds a date (`2025-08-08`); otherwise today's date goes in
front, so a listing digest without a date in its text still gets the right one. Nothing in seeds/
is ever changed: a name already taken by another file gets `-2`, `-3`, ...; a file whose bytes are
already in seeds/ is not copied again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .build import KEEP_REPLACEMENTS
from .config import Config, missing_seeds
from .errors import ConfigError, Problems, count
from .model import DigestCount
from .sources import digest_files, is_digest_name, read_all, read_digest
from .sources.dates import NAME_DATE, sidecar_path
from .sources.ids import normalise_title
from .sources.records import RawDigest


@dataclass
class Added:
    """What one file given to `add` became."""

    given: Path
    stored: Path | None  # where it now is in seeds/ (None: not stored)
    copied: bool = False
    papers: int = 0
    new: int = 0
    replacements: int = 0  # arXiv replacements: they update a paper, they add none
    known_replacements: int = 0  # of papers the list has (the others are left out)
    note: str = ""
    kept: DigestCount | None = None  # what the keep rules kept of it (None: no rule applies)


@dataclass
class AddReport:
    files: list[Added] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)

    @property
    def failed(self) -> list[Added]:
        """The files not in seeds/ now: missing, or holding no paper."""
        return [item for item in self.files if item.stored is None]

    def lines(self, root: Path) -> list[str]:
        out = []
        for item in self.files:
            if item.stored is None:
                out.append(f"{item.given}: {item.note}")
                continue
            where = _shown(item.stored, root)
            known = item.papers - item.new
            what = (f"{count(item.papers, 'paper')} ({item.new} new, {known} already in the list)"
                    if item.papers else "no papers")
            if item.replacements:
                what += ", " + _replacements(item.replacements, item.known_replacements)
            if item.kept is not None:
                what += f", {item.kept.kept} kept by your keep rules, {item.kept.left_out} left out"
            out.append(f"{where}: {what}" + (f"; {item.note}" if item.note else ""))
        return out


def _replacements(total: int, known: int) -> str:
    """`2 arXiv replacements: 1 updating a paper in the list, 1 of a paper not in the list, left out (...)`."""
    head = count(total, "arXiv replacement")
    left = total - known
    if not left:
        return f"{head}, updating {'a paper' if known == 1 else 'papers'} in the list"
    if not known:
        return f"{head} of {'a paper' if left == 1 else 'papers'} not in the list, left out ({KEEP_REPLACEMENTS})"
    return (f"{head}: {known} updating {'a paper' if known == 1 else 'papers'} in the list, {left} of "
            f"{'a paper' if left == 1 else 'papers'} not in the list, left out ({KEEP_REPLACEMENTS})")


# The name `add` gives a digest whose own name the build would not read (a `.yml`), by format.
_SUFFIX = {"bibtex": ".bib", "arxiv-api": ".xml", "arxiv-feed": ".xml"}


def add_digests(config: Config, given: list[Path], today: dt.date | None = None) -> AddReport:
    """Copy each digest of `given` (a folder: the digests inside it) into seeds/, with the date
    sidecar beside it, if it has one, and say what it holds: its papers, and how many of them the
    list did not have yet. A file that holds no paper is not copied (report.failed names it)."""
    report = AddReport()
    seeds = config.seeds_dir
    if not seeds.is_dir():
        # The default folder is made; a folder the settings name is not (a misspelt name would
        # gather digests the list never reads).
        if seeds.exists() or "extra.readinglist.seeds" in config.lines:
            raise ConfigError(missing_seeds(config) or "")
        seeds.mkdir(parents=True)
    keep = bool(config.extra.get("keep_replacements"))
    known_ids, known_titles = _known(config)
    hashes = {_sha(p): p for p in digest_files(seeds)}
    files = _expand(given, report)
    for path in (p for p in files if not _is_sidecar_of(p, files)):
        if not path.is_file():
            report.files.append(Added(path, None, note="no such file"))
            continue
        # Read before copying: what the build would not read as a digest stays out of seeds/.
        first = Problems()
        raw = read_digest(path, str(path), first)
        if raw is None or not raw.papers:
            report.problems.extend(first)
            report.files.append(Added(path, None, note="holds no paper; not copied into seeds/"))
            continue
        data = path.read_bytes()
        digest_hash = hashlib.sha256(data).hexdigest()
        same = hashes.get(digest_hash)
        if same is not None:
            item = Added(path, same, note="already in seeds/, not copied again")
        else:
            target = free_name(seeds, _stored_name(path, raw, today or dt.date.today()))
            with target.open("xb") as out:  # "x": never replaces a file in seeds/
                out.write(data)
            hashes[digest_hash] = target
            side = sidecar_path(path)
            if side is not None and not target.with_suffix(".yml").exists():
                with target.with_suffix(".yml").open("xb") as out:
                    out.write(side.read_bytes())
            item = Added(path, target, copied=True)
        stored: Path = item.stored  # type: ignore[assignment]
        # Again from seeds/, so the messages name the file the build will name.
        again = read_digest(stored, _shown(stored, config.root), report.problems)
        for paper in again.papers if again else ():
            if paper.replacement and not keep:
                item.replacements += 1
                item.known_replacements += paper.id in known_ids
                continue
            item.papers += 1
            title = normalise_title(paper.title) if not paper.title_missing else ""
            if paper.id not in known_ids and (not title or title not in known_titles):
                item.new += 1
                known_ids.add(paper.id)
                if title:
                    known_titles.add(title)
        report.files.append(item)
    _count_kept(config, report)
    return report


def _count_kept(config: Config, report: AddReport) -> None:
    """What the keep rules keep of each stored digest they apply to, as the build will count it
    (topics and interest need the whole list: it is read and enriched, nothing is written)."""
    stored = {_shown(item.stored, config.root): item for item in report.files if item.stored is not None}
    if not any(rule.applies(path) for rule in config.keep for path in stored):
        return
    from .build import make_library

    for counted in make_library(config, Problems())[0].keep_counts:
        if counted.path in stored:
            stored[counted.path].kept = counted


def _expand(given: list[Path], report: AddReport) -> list[Path]:
    """The files to add: a folder stands for the digests inside it (at any depth, hidden files
    left out; the sidecars travel with their digests)."""
    out: list[Path] = []
    for path in given:
        if not path.is_dir():
            out.append(path)
            continue
        inside = sorted(p for p in path.rglob("*") if p.is_file() and is_digest_name(p)
                        and not any(part.startswith(".") for part in p.relative_to(path).parts))
        if not inside:
            report.files.append(Added(path, None, note="a folder with no digest files in it"))
        out += inside
    return out


def _is_sidecar_of(path: Path, given: list[Path]) -> bool:
    """A `.yml` date file given beside its digest: it travels with the digest."""
    return path.suffix.lower() in {".yml", ".yaml"} and any(
        other != path and sidecar_path(other) == path for other in given)


def _known(config: Config) -> tuple[set[str], set[str]]:
    """The ids and normalised titles of the papers already in seeds/ (their messages are not
    this command's business: `readinglist build` reports them)."""
    ids: set[str] = set()
    titles: set[str] = set()
    for raw in read_all(config.seeds_dir, config.root, Problems()):
        for paper in raw.papers:
            ids.add(paper.id)
            if not paper.title_missing:
                titles.add(normalise_title(paper.title))
    return ids, titles


def _stored_name(path: Path, raw: RawDigest, today: dt.date) -> str:
    """The file's name, with the digest's date in front when the name has none: the date in its
    text or its sidecar, else today (the day it arrived). A name the build would not read as a
    digest's (a `.yml`: a sidecar's) gets the format's suffix."""
    name = path.name
    if not NAME_DATE.search(name):
        known = raw.date is not None and raw.date_source not in _GUESSED
        name = f"{(raw.date if known and raw.date else today).isoformat()}-{name}"
    if not is_digest_name(Path(name)):
        name += _SUFFIX.get(raw.format, ".txt")
    return name


# Where resolve_date falls back to when neither the text nor a sidecar gives a date.
_GUESSED = {"git", "modification time"}


def free_name(folder: Path, name: str) -> Path:
    """`name` in `folder`, or `name-2`, `name-3`, ... when it is taken (`add FILE` and `add ID` alike)."""
    path = folder / name
    stem, suffix = path.stem, path.suffix
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
