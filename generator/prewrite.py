"""Files of the tree written ahead by the processes that render them (render/parallel.py).

`Prewrite` is set up in the build's own process before the workers fork; each worker writes
its pages with it, and `write.write_tree` writes the rest. `TreeFiles` is the build's view of a
tree whose paper pages only the workers held in memory.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from pathlib import Path

from .write import (
    Content,
    Folders,
    _folder,
    _new_file_mode,
    _prepare,
    _targets,
    _write_one,
    encoded,
    write_and_close,
)

# What a process wrote with Prewrite: names, written, unchanged, (size, mtime_ns) of new files.
Wrote = tuple[list[str], list[str], int, dict[str, tuple[int, int]]]


class Prewrite:
    """Some files of the tree written ahead of the rest, by the processes that render them
    (render/parallel.py): writing ten thousand paper pages is mostly the kernel's work, which
    then happens on every core while pages are still being rendered, instead of afterwards on
    one. Set up (folder checks, listings) in the build's own process before the workers start;
    `write` runs in a worker; `record` puts the workers' figures together; `write_tree` skips
    what was written this way. Each file is written atomically, as everywhere, but in a folder
    this build makes: that folder is, by `finish` renaming it into place."""

    def __init__(self, build_dir: Path, protected: list[Path], rels: list[str]) -> None:
        root = self.root = _prepare(build_dir, protected)
        self.rels = set(rels)
        # The folders are made and checked here, before any worker writes; each file's path is
        # checked by the worker that writes it, before it writes anything of its run.
        # The folders' listings, made here before anything is written, go to the workers with the
        # fork: what existed before this build is what each file is compared against.
        self._listings: Folders = {}
        # A folder that does not exist yet (a first build) is made whole under another name and
        # renamed into place by `finish`: its files are written in place, without a temporary
        # file and a rename each (on this machine's ext4, 10,000 files took 0.5-1.1 s of kernel
        # time instead of 0.7-2.3), and nobody ever sees a half-made folder.
        self._fresh: dict[str, Path] = {}
        for rel in self.rels:
            head = rel.rpartition("/")[0]
            if head not in self._listings:
                if head and "/" not in head and not os.path.lexists(root / head):
                    staging = root / f".{head}.partial"
                    _clear(staging)  # left by a build that was stopped before `finish`
                    staging.mkdir()
                    self._fresh[head] = staging
                    self._listings[head] = (staging, {})
                    continue
                (root / head).mkdir(parents=True, exist_ok=True)
                _folder(root, head, self._listings, rel)
        self._staging = set(self._fresh.values())
        self.mode = _new_file_mode()
        self.written: list[str] = []
        self.unchanged = 0
        self.done: set[str] = set()
        # The (size, mtime_ns) of each file written into a staging folder, as written, and the
        # folders `finish` put into place whole: the build's manifest of its folder (cache.py)
        # takes those from here instead of a `stat` of each of their files.
        self.written_stats: dict[str, tuple[int, int]] = {}
        self.whole: set[str] = set()

    def write(self, files: Mapping[str, Content]) -> Wrote:
        """Write those of `files` this was set up for; (names, written, unchanged, stats)."""
        mine = {rel: files[rel] for rel in files if rel in self.rels}
        targets, existing = _targets(self.root, mine, self._listings)
        return list(mine), *self._write_all(targets, mine, existing)

    def write_others(self, files: Mapping[str, Content]) -> Wrote:
        """Write those of `files` that are not paper pages (the listings a worker renders while the
        others render papers), checked here first as write_tree would; (names, written, unchanged,
        stats)."""
        rest = {rel: content for rel, content in files.items() if rel not in self.rels}
        targets, existing = _targets(self.root, rest)
        for folder in {t.parent for t in targets.values()}:
            folder.mkdir(parents=True, exist_ok=True)
        return list(rest), *self._write_all(targets, rest, existing)

    def _write_all(self, targets: Mapping[str, Path], files: Mapping[str, Content],
                   existing: set[str]) -> tuple[list[str], int, dict[str, tuple[int, int]]]:
        written, unchanged, stats = [], 0, {}
        for rel, target in targets.items():
            if target.parent in self._staging:
                stats[rel] = _write_new(target, files[rel], self.mode)
                written.append(rel)
            elif _write_one(target, files[rel], rel in existing, self.mode):
                written.append(rel)
            else:
                unchanged += 1
        return written, unchanged, stats

    def finish(self) -> None:
        """Put the folders made under another name into place (once every worker is done)."""
        for head, staging in self._fresh.items():
            folder = self.root / head
            if not os.path.lexists(folder):
                os.rename(staging, folder)
                self.whole.add(head)
                continue
            # Made meanwhile after all: the files move one by one.
            folder.mkdir(exist_ok=True)
            for entry in os.scandir(staging):
                os.replace(entry.path, folder / entry.name)
            staging.rmdir()
        self._fresh.clear()
        self._staging.clear()

    def record(self, rels: list[str], written: list[str], unchanged: int,
               stats: Mapping[str, tuple[int, int]] | None = None) -> None:
        self.done.update(rels)
        self.written.extend(written)
        self.unchanged += unchanged
        self.written_stats.update(stats or {})

    def known_stats(self) -> tuple[dict[str, tuple[int, int]], set[str]]:
        """(size, mtime_ns) of the files of the folders put into place whole, and those folders."""
        heads = tuple(f"{head}/" for head in self.whole)
        return {rel: st for rel, st in self.written_stats.items() if rel.startswith(heads)}, set(self.whole)


class TreeFiles(MutableMapping[str, str]):
    """The files of a build whose paper pages the workers wrote (Prewrite): those are not sent
    back to the build's own process (a hundred megabytes at 10,000 papers), only their names;
    their text is read back from the build folder if someone asks for it. The rest is in memory."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._ahead: dict[str, None] = {}
        self._texts: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        if name in self._texts:
            return self._texts[name]
        if name not in self._ahead:
            raise KeyError(name)
        return (self._root / name).read_text(encoding="utf-8")

    def __setitem__(self, name: str, text: str) -> None:
        self._ahead.pop(name, None)
        self._texts[name] = text

    def __delitem__(self, name: str) -> None:
        if name in self._texts:
            del self._texts[name]
        else:
            del self._ahead[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._ahead
        yield from self._texts

    def __len__(self) -> int:
        return len(self._ahead) + len(self._texts)

    def __contains__(self, name: object) -> bool:
        return name in self._texts or name in self._ahead

    def add_written(self, names: Iterable[str]) -> None:
        for name in names:
            self._texts.pop(name, None)
            self._ahead[name] = None

    def in_memory(self) -> set[str]:
        return set(self._texts)


def _write_new(path: Path, content: Content, mode: int) -> tuple[int, int]:
    """A file of a folder no one sees yet (a staging folder), written in place; (size, mtime_ns)."""
    written = write_and_close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), encoded(content), mode,
                              report=True)
    assert written is not None
    return written


def _clear(path: Path) -> None:
    """Remove `path` whatever it is (a link is removed as a link, never followed)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
