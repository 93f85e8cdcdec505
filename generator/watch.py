"""Watch mode: rebuild when a digest, a note, the taxonomy or the config changes.

Saves come in bursts (editors write a temporary file and rename it, some save twice), so
events are collected until the files have been quiet for `debounce` seconds and then give
one rebuild. Only seeds/, content/ and mkdocs.yml are watched: the build folder and site/
are ours, and reacting to them would loop.

A note edit that changes no override (title, year, citekey, tags, hidden, accept_warnings)
cannot change the model or the build's warnings, so it takes a fast path: the same papers, the
notes re-indexed, and only the pages a note shows on (its paper, the papers it links to, the
status pages, home) and those papers' search records made again.
Everything else runs the whole build; write-if-changed keeps unchanged pages untouched, so
`mkdocs serve` rebuilds only what changed. A failed rebuild leaves the last good output in
place; the next save tries again.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from .build import BuildResult, StoredResult, build, read_assets, read_library
from .config import Config, load_config
from .errors import GeneratorError, Problems, Stopped, count
from .model import Library
from .notes.apply import reindex
from .notes.load import NoteCache, load_notes
from .notes.model import Note, NoteIndex
from .render import render_note_pages
from .render.context import make_context
from .render.references import FormattedReferences, format_references
from .render.search_records import RECORDS, updated_records_file
from .runtime import lock
from .sources.pages import read_pages
from .write import MARKER, write_if_changed

# Editor droppings: vim's swap files and its `4913` probe, emacs' lock and autosave files, backups.
_IGNORED_SUFFIXES = (".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload", "~")
_EVENTS = {"created", "modified", "moved", "deleted", "closed"}  # not "opened"/"closed_no_write": reads


def ignored_name(name: str) -> bool:
    return name.startswith((".", "#")) or name.endswith(_IGNORED_SUFFIXES) or name == "4913"


@dataclass
class Outcome:
    """One rebuild, for the console and for tests."""

    changed: tuple[str, ...]
    fast: bool
    problems: Problems
    written: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


def overrides_signature(notes: list[Note]) -> tuple[tuple[str, tuple[object, ...]], ...]:
    return tuple(sorted((n.stem, n.overrides()) for n in notes if n.has_overrides))


def affected_papers(old: NoteIndex | None, new: NoteIndex) -> set[str]:
    """Papers whose page shows something a note change altered: the note itself or Mentioned in."""
    old = old or NoteIndex()
    ids = set(old.by_paper) | set(new.by_paper) | set(old.mentions) | set(new.mentions)
    return {pid for pid in ids
            if (note := new.by_paper.get(pid)) != old.by_paper.get(pid)
            # the same note, its links resolved to other papers: its body shows other links
            or (note is not None and old.links.get(note.path) != new.links.get(note.path))
            or old.mentions.get(pid) != new.mentions.get(pid)}


class Watcher:
    """Builds once, then rebuilds on every (debounced) change until `stop()`."""

    def __init__(self, config_file: Path, *, debounce: float = 0.05, out: TextIO | None = None,
                 on_rebuild: Callable[[Outcome], None] | None = None) -> None:
        self.config_file = config_file.resolve()
        self.config: Config = load_config(self.config_file)
        self.debounce = debounce
        self.out = out or sys.stderr
        self.on_rebuild = on_rebuild
        self.cache = NoteCache()
        self.library: Library | None = None
        self.signature: tuple[Any, ...] | None = None
        self.noted: set[str] = set()  # the notes' stems at the last full build (keep rules: keep.py)
        self.outcomes: list[Outcome] = []
        self._pending: set[Path] = set()
        self._last_event = 0.0
        self._cond = threading.Condition()
        self._stopped = False
        self._observer: Any = None
        self._thread: threading.Thread | None = None
        self._watched: set[Path] = set()
        self._accepted: set[str] = set()  # errors the output on disk already has
        self._unread: Config | None = None  # the config of a reused build whose library is not read yet
        self._events = 0  # relevant changes seen so far
        self._registry: str | None = None  # the key registry's digest after the last full build
        # The references stage's result of the build `library` comes from: a note changes no
        # reference, so the fast rebuilds show these and never start citeproc-py.
        self.references: FormattedReferences | None = None
        # The site's static assets, package files that do not change while the watcher runs: read
        # once, not on every note save (the fast rebuild's context takes them; it writes none).
        self.assets = read_assets()

    # -- life cycle -------------------------------------------------------------------------

    def start(self) -> BuildResult | None:
        """First full build (printed), then watch in the background. A file the curator writes
        that cannot be read whole (errors.Stopped) leaves the last build's output to serve, if
        there is one; the next save builds again."""
        result: BuildResult | None = None
        try:
            result = self._full()
        except Stopped as exc:
            if not (self.config.build_dir / MARKER).is_file():
                raise  # no earlier build to serve
            self._print(Outcome((), False, _problems(exc), error=exc.advice()))
        self._observer = Observer()
        self._schedule(self.config.root, recursive=False)
        for folder in (self.config.seeds_dir, self.config.content_dir):
            if folder.is_dir():
                self._schedule(folder, recursive=True)
        self._observer.start()
        self._thread = threading.Thread(target=self._loop, name="readinglist-watch", daemon=True)
        self._thread.start()
        return result

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def wait_for(self, count: int, timeout: float) -> bool:
        """True once `count` rebuilds (after the first build) have finished."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.outcomes) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    # -- events -----------------------------------------------------------------------------

    def _schedule(self, folder: Path, *, recursive: bool) -> None:
        folder = folder.resolve()
        if folder not in self._watched:
            self._observer.schedule(_Handler(self), str(folder), recursive=recursive)
            self._watched.add(folder)

    def relevant(self, path: Path) -> bool:
        if path == self.config_file or path == self.config.registry_path:
            return True  # (the registry: only when its bytes are not the last build's, see _loop)
        if ignored_name(path.name):
            return False
        cfg = self.config
        if path.is_relative_to(cfg.build_dir):
            return False
        if path.parent == cfg.notes_dir and path.suffix != ".md":
            return False  # `sed -i` and editors write temporary files beside the note
        return path.is_relative_to(cfg.seeds_dir) or path.is_relative_to(cfg.content_dir)

    def notify(self, event: FileSystemEvent) -> None:
        if event.event_type not in _EVENTS or (event.is_directory and event.event_type == "modified"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        hits = set()
        for raw in paths:
            if not raw:
                continue
            path = Path(raw if isinstance(raw, str) else raw.decode()).resolve()
            if self.relevant(path):
                hits.add(path)
                if event.is_directory and path in (self.config.seeds_dir, self.config.content_dir):
                    self._schedule(path, recursive=True)  # created after we started
        if hits:
            with self._cond:
                self._pending |= hits
                self._last_event = time.monotonic()
                self._events += 1
                self._cond.notify_all()

    def _loop(self) -> None:
        self._read_library()
        while True:
            with self._cond:
                while not self._pending and not self._stopped:
                    self._cond.wait()
                if self._stopped:
                    return
                while True:  # debounce: wait until the burst is over
                    quiet = self._last_event + self.debounce - time.monotonic()
                    if quiet <= 0 or self._stopped:
                        break
                    self._cond.wait(quiet)
                changed, self._pending = self._pending, set()
            # The registry changes when a build gives out keys (no rebuild for that), or when the
            # curator edits it (a key changed, a merge conflict resolved): then it is rebuilt.
            if self.config.registry_path in changed and _digest(self.config.registry_path) == self._registry:
                changed.discard(self.config.registry_path)
                if not changed:
                    continue
            outcome = self.rebuild(changed)
            with self._cond:
                self.outcomes.append(outcome)
                self._cond.notify_all()
            if self.on_rebuild is not None:
                self.on_rebuild(outcome)

    # -- rebuilding -------------------------------------------------------------------------

    def rebuild(self, changed: set[Path]) -> Outcome:
        # The fast path writes pages itself: it waits for another build of the list as build() does.
        with lock.for_list(self.config.root).held(lambda line: print(line, file=self.out, flush=True)):
            return self._rebuild(changed)

    def _rebuild(self, changed: set[Path]) -> Outcome:
        start = time.perf_counter()
        shown = tuple(sorted(self._display(p) for p in changed))
        notes_dir = self.config.notes_dir.resolve()
        only_notes = all(p.parent == notes_dir and p.suffix == ".md" for p in changed)
        try:
            if self.config_file in changed:
                self.config = load_config(self.config_file)
            outcome = (self._fast(shown) if only_notes and self.library is not None else None)
            if outcome is None:
                result = self._full(quiet=True)
                outcome = Outcome(shown, False, result.problems,
                                  list(result.stats.written) if result.stats else [])
        except Stopped as exc:
            outcome = Outcome(shown, False, _problems(exc), error=exc.advice())
        except _Kept as kept:
            outcome = Outcome(shown, False, kept.problems, error="the rebuild has new errors (above); nothing written")
        except (GeneratorError, OSError) as exc:
            outcome = Outcome(shown, False, Problems(), error=str(exc))
        except Exception as exc:  # keep watching whatever happened; the last good output stays
            outcome = Outcome(shown, False, Problems(), error=f"{type(exc).__name__}: {exc}")
        outcome.seconds = time.perf_counter() - start
        self._print(outcome)
        return outcome

    def _full(self, quiet: bool = False) -> BuildResult:
        new_errors: list[str] = []

        def accept(result: BuildResult) -> bool:
            # An error that the last written build did not have (a digest broken mid-edit) would
            # drop its papers from the site: keep the last good output until it is fixed.
            new_errors.extend(str(p) for p in result.problems.errors if str(p) not in self._accepted)
            return not (quiet and new_errors)

        try:
            result = build(self.config, write=True, notes_cache=self.cache, accept=accept)
        finally:
            self._registry = _digest(self.config.registry_path)
        if result.stats is None:
            raise _Kept(result.problems)
        self._accepted = {str(p) for p in result.problems.errors}
        if isinstance(result, StoredResult):
            # Reused from the last build, which stores no library: the watching thread reads it
            # (`_read_library`), so that `serve` need not wait for it before it starts MkDocs.
            self.library, self.references, self._unread = None, None, self.config
        else:
            self.library, self.references, self._unread = result.library, result.references, None
        notes = load_notes(self.config.notes_dir, self.config.root, Problems(), self.cache)
        self.signature = overrides_signature(notes)
        self.noted = {n.stem for n in notes}
        if not quiet:
            for problem in result.problems:
                print(problem, file=self.out)
            print(result.summary(), file=self.out)
        return result

    def _read_library(self) -> None:
        """The library of the reused first build, if it was not stored: read and enriched again from
        the inputs, in the watching thread before it waits for changes, with its references (the
        references stage, which takes them from the cache the build saved). Kept only if no change
        came meanwhile: the pages on disk are the stored build's, and a note edited meanwhile would
        be in this library already, so the fast rebuild would find nothing to redo (without a
        library the next rebuild is a full one)."""
        unread, self._unread = self._unread, None
        if unread is None:
            return
        with self._cond:
            seen = self._events
        try:
            library = read_library(unread, self.cache)
            references = format_references(library, unread)
        except Exception:  # (any problem is reported by the full rebuild that is done instead)
            return
        with self._cond:
            if self._events == seen and self.library is None:
                self.library, self.references = library, references

    def _fast(self, shown: tuple[str, ...]) -> Outcome | None:
        problems = Problems()
        notes = load_notes(self.config.notes_dir, self.config.root, problems, self.cache)
        if overrides_signature(notes) != self.signature or self.library is None or self.references is None:
            return None
        if self.config.keep and {n.stem for n in notes} != self.noted:
            return None  # a paper with a note is always kept: a new note may bring one back
        library = reindex(self.library, notes, problems)
        assert library.notes is not None
        ids = affected_papers(self.library.notes, library.notes)
        ctx = make_context(library, self.config, self.references, self.assets)
        files = render_note_pages(ctx, ids)
        # A note's words and reading status are in the search index's records too: those of the
        # papers it shows on are made again, the others kept from the file the last build wrote.
        pages = read_pages(self.config.pages_dir, self.config.root, Problems())
        records = self.config.build_dir / RECORDS
        old = records.read_text(encoding="utf-8") if records.is_file() else ""
        files[RECORDS] = updated_records_file(old, ctx, pages, ids)
        written = []
        for rel, text in sorted(files.items()):
            if write_if_changed(self.config.build_dir / rel, text.encode("utf-8")):
                written.append(rel)
        self.library = library
        return Outcome(shown, True, problems, written)

    def _print(self, outcome: Outcome) -> None:
        what = ", ".join(outcome.changed) or "?"
        for problem in outcome.problems:
            print(problem, file=self.out)
        if outcome.error:
            print(f"readinglist: error: {outcome.error}", file=self.out)
            print("readinglist: still serving the last good build; fix it and save again", file=self.out)
        else:
            print(f"readinglist: rebuilt after {what} in {outcome.seconds * 1000:.0f} ms: "
                  f"{count(len(outcome.written), 'file')} written, {count(len(outcome.problems.warnings), 'warning')}",
                  file=self.out)
        self.out.flush()

    def _display(self, path: Path) -> str:
        try:
            return path.relative_to(self.config.root).as_posix()
        except ValueError:
            return path.as_posix()


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _problems(stopped: Stopped) -> Problems:
    problems = Problems()
    for cause in stopped.causes:
        problems.error(cause.path, cause.line, cause.message)
    return problems


class _Kept(Exception):
    """A rebuild that was not written, so the last good output stays."""

    def __init__(self, problems: Problems) -> None:
        super().__init__("kept the last good output")
        self.problems = problems


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.watcher.notify(event)
