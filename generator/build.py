"""The build, one named stage after another: read, enrich, render, write."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import heap
from .config import Config
from .errors import Problems
from .model import Library, Paper
from .prewrite import Prewrite
from .runtime import memo as cache
from .runtime import progress
from .write import WriteStats, write_if_changed, write_tree

if TYPE_CHECKING:
    from .early import EarlyEntries
    from .enrich import Registry
    from .notes import NoteCache

# The stages are imported when a build runs, not with this module: a no-change build (every
# `mkdocs build` and `readinglist build` starts with one) needs none of them.


@dataclass
class BuildResult:
    library: Library
    problems: Problems
    files: Mapping[str, str] = field(default_factory=dict)
    stats: WriteStats | None = None

    def summary(self) -> str:
        lib = self.library
        parts = [f"{len(lib.papers)} papers from {len(lib.digests)} digests"]
        if self.stats is not None:
            parts.append(f"{len(self.stats.written)} files written, {self.stats.unchanged} unchanged"
                         + (f", {len(self.stats.removed)} removed" if self.stats.removed else ""))
        else:
            parts.append(f"{len(self.files)} files checked")
        if self.library.notes is not None:
            n = self.library.notes
            parts.append(f"{len(n.by_paper)} notes" + (f", orphan notes: {', '.join(o.path for o in n.orphans)}"
                                                       if n.orphans else ""))
        parts.append(f"{len(self.problems.warnings)} warnings")
        if self.problems.errors:
            parts.append(f"{len(self.problems.errors)} errors")
        return "readinglist: " + ", ".join(parts)


class StoredResult(BuildResult):
    """The result of the last build, reused (cache.py): its library is made when first asked for,
    as a no-change build only reports the problems and the summary. It is unpickled if that build
    stored it (`build(keep_library=True)`: the watcher's builds), else read and enriched again
    from the inputs, which are the ones it was built from."""

    def __init__(self, stored: cache.Stored, config: Config, notes_cache: NoteCache | None = None) -> None:
        self.problems, self.stats = stored.result.problems, stored.result.stats
        self.files = stored.files
        self._stored = stored
        self._config, self._notes_cache = config, notes_cache
        self._library: Library | None = None

    @property
    def has_library(self) -> bool:
        """Whether the library is stored (else asking for it reads and enriches every digest)."""
        return self._library is not None or self._stored.has_library

    @property  # type: ignore[override]
    def library(self) -> Library:
        if self._library is None:
            if self._stored.has_library:
                self._library = self._stored.library()
            else:
                from . import forked

                try:
                    with progress.paused_gc():
                        self._library = collect(self._config, Problems(), self._notes_cache)[0]
                finally:
                    forked.reap()
        return self._library

    @library.setter
    def library(self, value: Library) -> None:
        self._library = value

    def summary(self) -> str:
        return self._stored.summary


def collect(config: Config, problems: Problems, notes_cache: NoteCache | None = None,
            keyed: Callable[[list[Paper]], None] | None = None) -> tuple[Library, Registry]:
    """Read every digest and enrich the whole model (related links need all papers). `keyed` is
    shown the papers once they have their citation keys (generator/early.py)."""
    from . import sources

    # The later stages' imports (numpy, scipy, pybtex, the renderers: a third of a second and
    # more) are done while the reading child reads, rather than before it starts or twice, in
    # the tagging child and in this process.
    cold = [name for name in _LATER_STAGES if name not in sys.modules]
    raws = sources.read_all(config.seeds_dir, config.root, problems,
                            meanwhile=(lambda: _import(cold)) if cold else None)
    from .enrich import Registry
    from .enrich.bibtex.names import load_name_overrides
    from .notes import enrich_with_notes, load_notes

    registry = Registry.load(config.registry_path, problems)
    names_path = config.content_dir / "names.yml"
    names = load_name_overrides(names_path, _shown(names_path, config.root), problems)
    notes = load_notes(config.notes_dir, config.root, problems, notes_cache)
    library = enrich_with_notes(raws, registry, problems, notes, config, names=names, keyed=keyed)
    return library, registry


# Modules the stages after reading import (0.35-0.5 s at the start of a build).
_LATER_STAGES = ("numpy", "scipy.sparse", "generator.render", "generator.notes", "generator.early",
                 "generator.enrich.bibtex.names")


def _import(names: list[str]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:  # the stage that needs it says so, where it is used
            pass


def render_site(library: Library, config: Config, prewrite: Prewrite | None = None,
                idle: Callable[[], None] | None = None) -> MutableMapping[str, str]:
    """Every generated page (generator.render.render_site)."""
    from .render import render_site as render

    return render(library, config, prewrite, idle)


def extra_pages(config: Config, problems: Problems) -> dict[str, str]:
    """The curator's own pages under content/pages/, copied into the site unchanged."""
    pages: dict[str, str] = {}
    if not config.pages_dir.is_dir():
        return pages
    for path in sorted(config.pages_dir.rglob("*.md")):
        rel = path.relative_to(config.pages_dir).as_posix()
        try:
            pages[rel] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.warn(path.relative_to(config.root).as_posix(), 0, f"cannot read page: {exc}")
    return pages


def build(config: Config, *, write: bool = True, notes_cache: NoteCache | None = None,
          accept: Callable[[BuildResult], bool] | None = None, keep_library: bool = False) -> BuildResult:
    """`accept` (the watcher's) may veto writing a result, to keep the last good output.
    `keep_library`: store the library with the no-change memo (cache.py), for a watcher that
    starts on an unchanged list and needs the papers at hand for its fast note rebuilds; other
    callers only report a reused build's problems and summary (at 10,000 papers, writing it took
    0.1-0.2 s of CPU and 30 MB of new memory in the build's own process)."""
    # Nothing changed since the last build: its result stands and no file is touched (cache.py).
    before = cache.fingerprint(config, registry=False) if write else ""
    if write:
        reused = cache.reuse(config, cache.fingerprint(config, base=before))
        if reused is not None:
            return StoredResult(reused, config, notes_cache)
    with progress.paused_gc(), heap.kept() as held, _early_entries() as early:
        problems = Problems()
        library, registry = collect(config, problems, notes_cache, keyed=early.start)
        early.take(library.papers)
        prewrite = _prewrite(config, library) if write and accept is None else None
        # Before this process takes its share of the pages: the library for the no-change memo,
        # if asked for, and citekeys.yml's text (final since the keys were given), which is saved
        # after the pages.
        stored: list[str] = []
        registry_text: list[str] = []

        def idle() -> None:
            if write and keep_library and cache.storable(library):
                stored.append(cache.write_library(config, library))
            if write and registry.changed:
                registry_text.append(registry.dump())

        held.release()  # before the render worker forks (heap.py)
        files = render_site(library, config, prewrite, idle)
        for rel, text in extra_pages(config, problems).items():
            if rel in files:
                problems.warn(f"content/pages/{rel}", 0, "has the name of a generated page; skipped")
            else:
                files[rel] = text
        result = BuildResult(library, problems, files)
        if write and (accept is None or accept(result)):
            result.stats = write_tree(config.build_dir, files, protected=_protected(config), prewritten=prewrite)
            if registry.changed:
                text = registry_text[0] if registry_text else registry.dump()
                write_if_changed(config.registry_path, text.encode("utf-8"))
    if write:
        _remember(config, before, result, stored[0] if stored else None,
                  prewrite.known_stats() if prewrite is not None else None, keep_library)
    return result


@contextmanager
def _early_entries() -> Iterator[EarlyEntries]:
    from . import forked
    from .early import EarlyEntries

    early = EarlyEntries()
    try:
        yield early
    finally:
        early.stop()  # a build that failed leaves no child behind
        forked.reap()


def _protected(config: Config) -> list[Path]:
    return [config.root, config.content_dir, config.seeds_dir]


def _prewrite(config: Config, library: Library) -> Prewrite | None:
    """Paper pages written by the processes that render them, when several do (render/parallel.py).
    Not when a watcher may still veto the result: nothing may be written before it has seen it."""
    from .render.links import paper_md
    from .render.parallel import jobs_for

    if jobs_for(len(library.papers)) < 2:
        return None
    return Prewrite(config.build_dir, _protected(config), [paper_md(p) for p in library.papers])


def _remember(config: Config, before: str, result: BuildResult, stored: str | None = None,
              known: cache.Known | None = None, keep_library: bool = False) -> None:
    """Store this build for `cache.reuse`, unless an input changed while it ran (the registry it
    wrote itself aside: a rebuild would hand out the very keys it now holds)."""
    after = cache.fingerprint(config, registry=False)
    if after != before or result.stats is None:
        cache.forget(config)
        return
    memo = BuildResult(result.library, result.problems, {},
                       WriteStats(written=[], unchanged=len(result.stats.written) + result.stats.unchanged))
    cache.remember(config, cache.fingerprint(config, base=after), memo, list(result.files), stored, known,
                   keep_library=keep_library)


def _shown(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def find_config(start: Path | None = None) -> Path:
    """The nearest mkdocs.yml at or above `start` (the current folder by default)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file():
            return folder / "mkdocs.yml"
    return here / "mkdocs.yml"
