"""The build, one named stage after another.

    read        seeds/ -> RawDigest records         (sources: one reader per format, chosen by content)
                citekeys.yml -> Registry            (enrich/registry.py: the keys and pages given so far)
                content/names.yml -> {name: name}   (enrich/bibtex/names.py: names as BibTeX writes them)
                content/notes/ -> Note list         (notes/load.py: front matter checked, bodies parsed)
                content/topics.yml -> Taxonomy      (enrich/topics: the curator's topics)
                content/pages/ -> {path: text}      (sources/pages.py: the curator's own pages, as they are)
                render/static/ -> {path: text}      (read_assets: the site's CSS and scripts)
    enrich      records -> Library                  (merge, ids, citation keys, topics, related papers,
                                                    each paper's BibTeX entry; with the registry,
                                                    names, taxonomy and the notes' overrides)
    notes       Library + notes -> Library          (titles, hidden papers, the notes on the pages)
    bibtex      Library -> Library                  (the entries of papers a note retitled)
    references  Library -> FormattedReferences      (render/references.py: each paper's CSL item and
                                                    its references in the configured CSL styles)
    render      RenderContext, pages -> {path: text} (pure: every page, listing and export, the pages,
                                                    and the search index's records; the context,
                                                    render/context.py, is made once from the
                                                    Library, the references and the assets)
    write       {path: text} -> build/              (atomic, write-if-changed, stale files removed)

Each stage is one call whose inputs are its arguments and whose output is its return value. A
build keeps two things between runs, both in .readinglist-cache/: the no-change memo
(runtime/memo.py), checked first, and citeproc-py's formatted references, which the references
stage reads and `save_references` writes once the build folder is written.
docs/developer-guide/architecture.md follows one paper through these stages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .config import Config, missing_seeds
from .errors import ConfigError, DiskFull, ParseError, Problems, Stopped, count, shown
from .model import Library
from .runtime import collector, lock, memo
from .write import FULL, WriteStats, check_build_dir, write_if_changed, write_tree

if TYPE_CHECKING:
    from .enrich import Registry
    from .notes.load import NoteCache
    from .render.context import RenderContext
    from .render.references import FormattedReferences

# How to keep arXiv replacements of papers the list lacks (the build summary and `add` say it).
T = TypeVar("T")

KEEP_REPLACEMENTS = "extra.readinglist.keep_replacements: true keeps them"
KEEP_RULES = "extra.readinglist.keep in mkdocs.yml"

# The stages are imported when a build runs, not with this module: a no-change build (every
# `mkdocs build` and `readinglist build` starts with one) needs none of them.


@dataclass
class BuildResult:
    library: Library
    problems: Problems
    files: Mapping[str, str] = field(default_factory=dict)
    stats: WriteStats | None = None
    references: FormattedReferences | None = None  # the references stage's result (None for a reused build)

    def summary(self) -> str:
        lib = self.library
        parts = [f"{count(len(lib.papers), 'paper')} from {count(len(lib.digests), 'digest')}"]
        if self.stats is not None:
            parts.append(f"{count(len(self.stats.written), 'file')} written, {self.stats.unchanged} unchanged"
                         + (f", {len(self.stats.removed)} removed" if self.stats.removed else ""))
        else:
            parts.append(f"{count(len(self.files), 'file')} checked")
        if self.library.notes is not None:
            n = self.library.notes
            parts.append(count(len(n.by_paper), "note") + (f", orphan notes: {', '.join(o.path for o in n.orphans)}"
                                                           if n.orphans else ""))
        if lib.skipped_replacements:
            parts.append(f"{count(lib.skipped_replacements, 'arXiv replacement')} of papers not in the list left "
                         f"out ({KEEP_REPLACEMENTS})")
        if lib.keep_counts:
            left = sum(c.left_out for c in lib.keep_counts)
            parts.append(f"{count(left, 'paper')} left out by your keep rules ({KEEP_RULES})")
        parts.append(count(len(self.problems.warnings), "warning"))
        if self.problems.errors:
            parts.append(count(len(self.problems.errors), "error"))
        # One line per digest the keep rules apply to: what each rule kept, what was left out.
        return "readinglist: " + ", ".join(parts) + "".join(f"\n  {c.line()}" for c in lib.keep_counts)


def build(config: Config, *, write: bool = True, notes_cache: NoteCache | None = None,
          accept: Callable[[BuildResult], bool] | None = None) -> BuildResult:
    """Build the docs folder from seeds/ and content/. `write=False` only reads and checks.
    `accept` (the watcher's) may veto writing a result, to keep the last good output.
    Raises ConfigError when the seeds folder does not exist (a misspelt setting would build, and
    serve, an empty site)."""
    missing = missing_seeds(config)
    if missing:
        raise ConfigError(missing)
    if not write:
        return _build(config, write, notes_cache, accept)
    check_build_dir(config.build_dir, _protected(config))  # a refused folder: not even the lock is made
    # One build at a time per list (runtime/lock.py): a second one waits, and says so.
    with lock.for_list(config.root).held():
        return _build(config, write, notes_cache, accept)


def _build(config: Config, write: bool, notes_cache: NoteCache | None,
           accept: Callable[[BuildResult], bool] | None) -> BuildResult:
    # mkdocs.yml's own problems (config.problems) are reported by every build: not reused.
    before = memo.fingerprint(config, registry=False) if write and memo.enabled() and not config.problems else ""
    problems = Problems()  # (a damaged memo's note, first)
    problems.extend(list(config.problems))
    if before:
        reused = memo.reuse(config, memo.fingerprint(config, base=before), problems)
        if reused is not None:
            return StoredResult(reused)

    # The stages make millions of objects and no cycles: the collector waits (runtime/collector.py).
    with collector.paused():
        return _stages(config, write, notes_cache, accept, before, problems)


def _stages(config: Config, write: bool, notes_cache: NoteCache | None,
            accept: Callable[[BuildResult], bool] | None, before: str, problems: Problems) -> BuildResult:
    """read, enrich, notes, BibTeX, references, render and write: a build the memo could not reuse."""
    library, registry = make_library(config, problems, notes_cache)
    # The render stage's modules: not for a no-change build.
    from .render.context import make_context
    from .render.references import format_references, save_references
    from .sources.pages import read_pages

    # Read after the model is made only so that its warnings come where they always came.
    pages = read_pages(config.pages_dir, config.root, problems)
    formatted = format_references(library, config, problems)
    files = render(make_context(library, config, formatted, read_assets()), pages, problems)
    result = BuildResult(library, problems, files, references=formatted)
    if write and (accept is None or accept(result)):
        result.stats = write_tree(config.build_dir, files, protected=_protected(config))
        if registry.changed:
            try:
                write_if_changed(config.registry_path, registry.dump().encode("utf-8"))
            except OSError as exc:
                if exc.errno not in FULL:
                    raise
                raise DiskFull(config.registry_path.parent, f"{shown(config.build_dir)} is written, "
                               f"{config.registry_path.name} is as it was (the next build gives the same keys "
                               "again)") from None
        # The caches, after the pages: a refused build folder leaves the project as it was, and a
        # cache that cannot be written on a full disk is only a slower next build.
        try:
            save_references(formatted)
            if before:
                _remember(config, before, result)
        except OSError as exc:
            if exc.errno not in FULL:
                raise
            memo.forget(config)
            problems.note(memo.CACHE_DIR, "no space left on the device to keep the caches; the next build "
                          "makes them again")
    return result


def make_library(config: Config, problems: Problems,
                 notes_cache: NoteCache | None = None) -> tuple[Library, Registry]:
    """The stages up to the finished model: read, enrich, notes, BibTeX."""
    from .enrich import Registry, enrich
    from .enrich.bibtex import with_entries
    from .enrich.bibtex.names import load_name_overrides
    from .enrich.topics import load_taxonomy
    from .notes.apply import apply_notes, note_overrides
    from .notes.load import load_notes
    from .sources import read_all

    raws = read_all(config.seeds_dir, config.root, problems)
    # The files the curator writes are read whole or the build stops here, before anything is
    # written (generator/curated.py); every such file is read, so that one run names them all.
    stops: list[ParseError] = []

    def whole(read: Callable[..., T], *args: Any) -> T | None:
        try:
            return read(*args)
        except ParseError as exc:
            stops.append(exc)
            return None

    registry = whole(Registry.load, config.registry_path, problems)
    names_path = config.content_dir / "names.yml"
    names = whole(load_name_overrides, names_path, _shown(names_path, config.root), problems)
    notes = load_notes(config.notes_dir, config.root, problems, notes_cache)
    # topics.yml, read once for both enrich runs below; its messages are shown where they have
    # always been, after enrich's about keys (enrich places them).
    topic_problems = Problems()
    taxonomy = whole(load_taxonomy, config.topics_path, topic_problems, _shown(config.topics_path, config.root))
    if stops or registry is None or names is None or taxonomy is None:
        raise Stopped(stops)

    # A note may pin a paper's key, correct its year or change its tags, all of which enrich
    # uses. A note named after a paper that gets its key only in this build is matched once the
    # keys are given: then the papers are enriched again with it (note_overrides says so).
    scratch = Problems()
    overrides = note_overrides(notes, registry)
    library = enrich(raws, registry, scratch, names=names, config=config, taxonomy=taxonomy,
                     taxonomy_problems=topic_problems, **overrides.enrich_kwargs())
    late = overrides.late(library, registry)
    if late is not None:
        overrides, scratch = late, Problems()
        library = enrich(raws, registry, scratch, names=names, config=config, taxonomy=taxonomy,
                     taxonomy_problems=topic_problems, **overrides.enrich_kwargs())
    problems.extend(scratch)

    library = apply_notes(library, notes, overrides.stems(library, registry), problems)
    library = with_entries(library)
    return library, registry


def render(ctx: RenderContext, pages: Mapping[str, str], problems: Problems) -> dict[str, str]:
    """Every file of the docs folder: the generated ones (of the build's context, made by
    `render.context.make_context` from the library, the references stage's result and the
    assets) and the curator's own `pages` (as `sources.pages.read_pages` read them), which go in
    unchanged unless they take a generated name."""
    from .render import render_site
    from .render.search_records import RECORDS, records_file, search_records

    files = render_site(ctx)
    for rel, text in pages.items():
        if rel in files:
            problems.warn(f"content/pages/{rel}", 0, "has the name of a generated page; skipped")
        else:
            files[rel] = text
    # What the search index holds (site/search.py gives it to Pagefind after MkDocs' build): the
    # papers' records are papers.json's, made once for both.
    files[RECORDS] = records_file(search_records(ctx, pages))
    return files


def read_assets() -> dict[str, str]:
    """The static assets' text (generator/render/static/), by their path in the docs folder."""
    from importlib import resources

    from .render.context import ASSETS

    static = resources.files("generator.render").joinpath("static")
    return {target: static.joinpath(name).read_text("utf-8") for target, name in ASSETS.items()}


def read_library(config: Config, notes_cache: NoteCache | None = None) -> Library:
    """The finished model read again from the inputs: read, enrich, notes and BibTeX, all of a
    build but render and write (seconds at 10,000 papers). For a reused build, which stores no
    library: its inputs are unchanged, so this is the library it was built from. Its problems
    are not kept (the reused build reports its own)."""
    return make_library(config, Problems(), notes_cache)[0]


class NoLibrary(AttributeError):
    """A reused build was asked for its library, which it does not hold."""


class StoredResult(BuildResult):
    """The result of the last build, reused (runtime/memo.py): the problems, the files and the
    summary, but no library. A caller that needs the model (the watcher's fast note rebuilds)
    calls `read_library(config)` itself, knowing that it reads and enriches every input again."""

    def __init__(self, stored: memo.Stored) -> None:
        self.problems, self.stats = stored.result.problems, stored.result.stats
        self.files = stored.files
        self._stored = stored

    @property
    def library(self) -> Library:  # type: ignore[override]
        raise NoLibrary("a reused build holds no library; build.read_library(config) reads it again")

    def summary(self) -> str:
        return self._stored.summary

    def __repr__(self) -> str:
        return f"StoredResult({self._stored.summary!r})"


def _protected(config: Config) -> list[Path]:
    return [config.root, config.content_dir, config.seeds_dir]


def _remember(config: Config, before: str, result: BuildResult) -> None:
    """Store this build for `memo.reuse`, unless an input changed while it ran (the registry it
    wrote itself aside: a rebuild would hand out the very keys it now holds)."""
    after = memo.fingerprint(config, registry=False)
    if after != before or result.stats is None:
        memo.forget(config)
        return
    # Not its notes: they said what this build did (a damaged cache made again), once.
    kept = Problems([p for p in result.problems if p.severity != "note"])
    stored = BuildResult(result.library, kept, {},
                         WriteStats(written=[], unchanged=len(result.stats.written) + result.stats.unchanged))
    memo.remember(config, memo.fingerprint(config, base=after), stored, list(result.files),
                  result.stats.manifest)


def _shown(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def find_config(start: Path | None = None) -> Path | None:
    """The nearest mkdocs.yml at or above `start` (the current folder by default); None outside a list."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file():
            return folder / "mkdocs.yml"
    return None
