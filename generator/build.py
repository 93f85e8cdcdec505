"""The build, one named stage after another: read, enrich, render, write."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import cache, progress, sources
from .config import Config
from .enrich import Registry, enrich
from .errors import Problems
from .model import Library
from .render import render_site
from .write import WriteStats, write_if_changed, write_tree


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
        parts.append(f"{len(self.problems.warnings)} warnings")
        if self.problems.errors:
            parts.append(f"{len(self.problems.errors)} errors")
        return "readinglist: " + ", ".join(parts)


def collect(config: Config, problems: Problems) -> tuple[Library, Registry]:
    """Read every digest and enrich the whole model (related links need all papers)."""
    raws = sources.read_all(config.seeds_dir, config.root, problems)
    registry = Registry.load(config.registry_path, problems)
    library = enrich(raws, registry, problems)
    return library, registry


def build(config: Config, *, write: bool = True) -> BuildResult:
    # Nothing changed since the last build: its result stands and no file is touched (cache.py).
    before = cache.fingerprint(config, registry=False) if write else ""
    if write:
        reused = cache.reuse(config, cache.fingerprint(config, base=before))
        if isinstance(reused, BuildResult):
            return reused
    with progress.paused_gc():
        problems = Problems()
        library, registry = collect(config, problems)
        files = render_site(library, config)
        result = BuildResult(library, problems, files)
        if write:
            result.stats = write_tree(config.build_dir, files,
                                      protected=[config.root, config.content_dir, config.seeds_dir])
            if registry.changed:
                write_if_changed(config.registry_path, registry.dump().encode("utf-8"))
    if write:
        _remember(config, before, result)
    return result


def _remember(config: Config, before: str, result: BuildResult) -> None:
    """Store this build for `cache.reuse`, unless an input changed while it ran (the registry it
    wrote itself aside: a rebuild would hand out the very keys it now holds)."""
    after = cache.fingerprint(config, registry=False)
    if after != before or result.stats is None:
        cache.forget(config)
        return
    memo = BuildResult(result.library, result.problems, {},
                       WriteStats(written=[], unchanged=len(result.stats.written) + result.stats.unchanged))
    cache.remember(config, cache.fingerprint(config, base=after), memo, list(result.files))


def find_config(start: Path | None = None) -> Path:
    """The nearest mkdocs.yml at or above `start` (the current folder by default)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file():
            return folder / "mkdocs.yml"
    return here / "mkdocs.yml"
