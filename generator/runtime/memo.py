"""The no-change rebuild: when no input changed since the last build, reuse it without redoing it.

Every `mkdocs build`, `mkdocs serve` and `readinglist build` starts with a generator run, and most
find nothing changed: reading every digest, finding related papers and rendering every page only
for write-if-changed to find that nothing differs took seconds at 10,000 papers. Before
building, `build()` takes a fingerprint of everything a build reads: every file under `seeds/`
and `content/`, the key registry, the settings and the generator's own code, by content (a
modification time can stay the same across two quick edits). If it equals the fingerprint stored
by the last build, and the build folder still holds exactly the files that build wrote (same
sizes and modification times), the stored result (its problems and summary) is returned and no
input is parsed and no file written. `READINGLIST_CACHE=off` turns it off.

The memo lives in `.readinglist-cache/` beside mkdocs.yml (git-ignored), not in the build folder:
`mkdocs serve` watches the build folder, and a memo written there would start a second MkDocs
build after every full rebuild. Anything it cannot vouch for (a digest dated from git history, an
unreadable memo, a changed build folder) means a normal build.
"""

from __future__ import annotations

import copy
import hashlib
import os
import pickle
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Config
from ..errors import Problems
from . import switches

CACHE_DIR = ".readinglist-cache"
MEMO = "memo.pickle"
VERSION = 6


def enabled() -> bool:
    return switches.on("READINGLIST_CACHE")


@dataclass
class Memo:
    fingerprint: str
    manifest: dict[str, tuple[int, int]]  # build-folder file -> (size, mtime_ns)
    result: Any  # the BuildResult of that build, without its files and its library
    files: list[str]  # the files that build generated, in its order
    summary: str  # that result's summary()


@dataclass
class Stored:
    """What `reuse` hands back: the stored result (library left out), its files and summary."""

    result: Any
    files: Mapping[str, str]
    summary: str


def _tree(folder: Path, h: Any) -> None:
    if not folder.exists():
        h.update(b"-missing-")
        return
    for dirpath, dirs, names in os.walk(folder):
        # Compiled files are written while a build imports its stages: not an input.
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            path = os.path.join(dirpath, name)
            try:
                digest = _digest(path)
            except OSError:
                continue
            h.update(f"{os.path.relpath(path, folder)}\0{digest}\n".encode("utf-8", "surrogateescape"))


def _digest(path: str) -> str:
    """The SHA-256 of a file's contents, read each time: a build takes the fingerprint twice (before,
    and after, to see that no input changed while it ran), and the second reading of the 17 MB of
    10,000 papers' digests costs about 0.02 s."""
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


# The generator's own code (the whole package, not only this folder): new code, new output.
PACKAGE = Path(__file__).resolve().parents[1]


def fingerprint(config: Config, *, registry: bool = True, base: str | None = None) -> str:
    """Everything a build reads, as a digest of contents. `base`, a fingerprint taken with
    `registry=False`, saves hashing the seeds and notes a second time."""
    if base is None:
        h = hashlib.sha256(f"v{VERSION}\0{sys.version}\0{config!r}\n".encode())
        for label, folder in (("seeds", config.seeds_dir), ("content", config.content_dir),
                              ("code", PACKAGE)):
            h.update(f"[{label}]\n".encode())
            _tree(folder, h)
        _file(config.root / "mkdocs.yml", h)
        base = h.hexdigest()
    if not registry:
        return base
    h = hashlib.sha256(base.encode())
    _file(config.registry_path, h)
    return h.hexdigest()


def _file(path: Path, h: Any) -> None:
    try:
        h.update(f"{path}\0{_digest(str(path))}\n".encode())
    except OSError:
        h.update(f"{path}\0missing\n".encode())


def manifest(build_dir: Path) -> dict[str, tuple[int, int]]:
    """Every file in the build folder but the cache: relative path -> (size, mtime_ns)."""
    out: dict[str, tuple[int, int]] = {}
    # os.scandir with the relative path carried along: os.walk + relpath cost more than the stats.
    todo: list[tuple[str, str]] = [(str(build_dir), "")]
    while todo:
        folder, prefix = todo.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if prefix or entry.name != CACHE_DIR:
                        todo.append((entry.path, f"{prefix}{entry.name}/"))
                    continue
                if entry.is_symlink() and os.path.isdir(entry.path):
                    continue  # os.walk lists a link to a folder as a folder, never follows it
                st = os.stat(entry.path)
                out[prefix + entry.name] = (st.st_size, st.st_mtime_ns)
    return out


def _memo_path(config: Config) -> Path:
    return config.root / CACHE_DIR / config.build_dir.name / MEMO


def reuse(config: Config, fp: str, problems: Problems | None = None) -> Stored | None:
    """The stored result of the last build if its inputs had fingerprint `fp` and its output is
    intact. A memo that is not whole (its checksum differs: a cache restored half, a disk error)
    is removed, with a note in `problems`: the build is made in full."""
    path = _memo_path(config)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    damage = _damage(raw)
    if damage is not None:
        if damage and problems is not None:
            problems.note(_shown(config, path), f"{damage}; building in full, and keeping a new one")
        path.unlink(missing_ok=True)
        return None
    try:
        memo = pickle.loads(raw[raw.index(b"\n") + 1:])
    except Exception:  # whole, but of other code (a class that moved): not ours to trust
        return None
    if not isinstance(memo, Memo) or memo.fingerprint != fp:
        return None
    try:
        if manifest(config.build_dir) != memo.manifest:
            return None
    except OSError:
        return None
    return Stored(memo.result, BuiltFiles(config.build_dir, memo.files), memo.summary)


# The memo file: this line, the SHA-256 of what follows it, a newline, then the pickle.
_HEADER = b"readinglist-memo %d " % VERSION


def _damage(raw: bytes) -> str | None:
    """None for a whole memo of this version; "" for a memo of another layout (nothing to say);
    else what is wrong with it."""
    if not raw.startswith(_HEADER):
        if raw.startswith(b"readinglist-memo ") or raw.startswith(b"\x80"):
            return ""  # an earlier version's memo (pickles start with the PROTO opcode)
        return "the no-change memo is damaged (its first bytes are not a memo's)"
    end = raw.find(b"\n")
    if end < 0 or raw[len(_HEADER):end].decode("ascii", "replace") != hashlib.sha256(raw[end + 1:]).hexdigest():
        return "the no-change memo is damaged (its checksum does not match)"
    return None


def _shown(config: Config, path: Path) -> str:
    return str(path.relative_to(config.root)) if path.is_relative_to(config.root) else str(path)


def storable(library: Any) -> bool:
    """Whether `remember` would store this library: a digest dated from git history is never vouched for."""
    return not any(d.date_source == "git" for d in library.digests)


def remember(config: Config, fp: str, result: Any, files: list[str],
             built: dict[str, tuple[int, int]]) -> None:
    """Store `result` (without its library) for the next build. `built`: what the build folder
    holds, as `manifest` gives it; the write stage knows it (WriteStats.manifest) without a walk."""
    path = _memo_path(config)
    path.unlink(missing_ok=True)
    if not storable(result.library):
        return
    head = copy.copy(result)
    head.library = None
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    data = pickle.dumps(Memo(fp, built, head, files, result.summary()), protocol=pickle.HIGHEST_PROTOCOL)
    try:
        with tmp.open("wb") as fh:
            fh.write(_HEADER + hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # (a full disk: no memo, and no half of one)
        raise


def forget(config: Config) -> None:
    _memo_path(config).unlink(missing_ok=True)


class BuiltFiles(Mapping[str, str]):
    """The files of a reused build, read from the build folder only when asked for."""

    def __init__(self, build_dir: Path, names: list[str]) -> None:
        self._dir = build_dir
        self._names = names
        self._set = set(names)

    def __getitem__(self, name: str) -> str:
        if name not in self._set:
            raise KeyError(name)
        return (self._dir / name).read_text(encoding="utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._set
