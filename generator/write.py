"""Write the build folder: atomic, write-if-changed, stale files removed only inside it.

Every file is written to a temporary file beside its target and renamed over it, so a
build killed at any moment leaves each file either as it was or as it should be. The
build folder must carry the marker file (or be new/empty) and may not overlap the
project's own folders; deletion never follows a symbolic link out of it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DiskFull, GeneratorError, shown
from .runtime.progress import track

MARKER = ".readinglist-build"
# Files in the build folder that are not ours to delete (git keeps the folder with it).
KEEP = {".gitignore", MARKER}
# Our own temporary files (tempfile's names; pid.counter ones from earlier versions), left behind
# only by a build that was killed mid-write.
_TEMP = re.compile(r"^\..*\.(?:[a-z0-9_]{8}|\d+\.\d+)\.tmp$")
# Folders at the top of the build folder that belong to the generator, not to the site.
KEEP_DIRS = {".readinglist-cache"}


Content = str | bytes


@dataclass
class WriteStats:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    # Every file the build folder holds once written (the generator's cache folder aside): relative
    # path -> (size, mtime_ns), from the stats the write took anyway. The no-change memo stores it,
    # so the folder is not walked a second time (runtime/memo.manifest gives the same for a walk).
    manifest: dict[str, tuple[int, int]] = field(default_factory=dict)


_UMASK: list[int] = []


def _umask() -> int:
    # The umask can only be read by setting it, which changes it for the whole process for a
    # moment: read once per process, not around every file, since `readinglist serve` writes in
    # one thread while others may be creating files.
    if not _UMASK:
        umask = os.umask(0)
        os.umask(umask)
        _UMASK.append(umask)
    return _UMASK[0]


def _new_file_mode() -> int:
    """The usual 0666 minus the umask (mkstemp would make files 0600, unreadable to a web server
    serving the site)."""
    return 0o666 & ~_umask()


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; new files get the usual mode."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return _new_file_mode()


def atomic_write(path: Path, data: bytes, *, parent_exists: bool = False,
                 mode: int | None = None) -> os.stat_result:
    """Write to a temporary file beside `path` and rename it into place; the written file's stat.
    `mode`: the file's permissions when the caller knows them (saves a stat)."""
    if not parent_exists:
        path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        mode = _mode_for(path)
    return _replace(str(path.parent), path.name, data, mode)


def _replace(folder: str, name: str, data: bytes, mode: int) -> os.stat_result:
    """atomic_write of `folder`/`name` (strings: write_tree's loop over every file makes no Path)."""
    tmp, written = _stage(folder, name, data, mode)
    try:
        os.replace(tmp, f"{folder}/{name}")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return written


def _stage(folder: str, name: str, data: bytes, mode: int) -> tuple[str, os.stat_result]:
    """`data` in a temporary file beside `folder`/`name`, not yet renamed over it: its path and stat."""
    # tempfile's own name and a file object: a name of our own and raw os.write saved 0.4-0.7 s of
    # a 10,000-paper build (under 3 %, benchmark.md), so they went.
    fd, tmp = tempfile.mkstemp(prefix=f".{name[:12]}.", suffix=".tmp", dir=folder)
    try:
        with open(fd, "wb") as fh:
            os.fchmod(fd, mode)  # mkstemp makes the file 0600, unreadable to a web server
            fh.write(data)
            fh.flush()
            # Its size and modification time as they stay: the rename and closing change neither.
            written = os.fstat(fd)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp, written


# A full disk (or quota): the build says so in one line (DiskFull) and leaves the build folder as it was.
FULL = {errno.ENOSPC, errno.EDQUOT}


def write_if_changed(path: Path, data: bytes, *, parent_exists: bool = False) -> bool:
    return _write_if_changed(str(path.parent), path.name, data, parent_exists)[0]


def _write_if_changed(folder: str, name: str, data: bytes,
                      parent_exists: bool = True) -> tuple[bool, os.stat_result]:
    """Whether `folder`/`name` was written, and its stat as it is now."""
    path = f"{folder}/{name}"
    try:
        st = os.stat(path)
    except OSError:
        if not parent_exists:
            Path(folder).mkdir(parents=True, exist_ok=True)
        return True, _replace(folder, name, data, _new_file_mode())
    if _same(path, st, data):
        return False, st
    return True, _replace(folder, name, data, stat.S_IMODE(st.st_mode))


def _same(path: str, st: os.stat_result, data: bytes) -> bool:
    if st.st_size != len(data):
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read() == data
    except OSError:
        return False


def _stage_one(folder: str, name: str, content: Content, existed: bool,
               new_mode: int) -> tuple[str | None, os.stat_result]:
    """Stage one file of the tree whose folder exists: the temporary file to rename over it (None
    when it holds these bytes already), and the stat it has once renamed."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    if not existed:
        # Not in its folder's listing: nothing to compare or keep the mode of (no stat).
        return _stage(folder, name, data, new_mode)
    path = f"{folder}/{name}"
    try:
        st = os.stat(path)
    except OSError:
        return _stage(folder, name, data, new_mode)
    if _same(path, st, data):
        return None, st
    return _stage(folder, name, data, stat.S_IMODE(st.st_mode))


def check_build_dir(build_dir: Path, protected: list[Path]) -> None:
    """`protected` folders (the project root, content/, seeds/) may not be inside the build folder,
    and the build folder may not be inside content/ or seeds/."""
    build = build_dir.resolve()
    if build == Path(build.anchor) or build == Path.home().resolve():
        raise GeneratorError(f"refusing to use {build_dir} as the build folder: it is the "
                             f"{'file-system root' if build == Path(build.anchor) else 'home folder'}")
    for i, p in enumerate(protected):
        p = p.resolve()
        if p.is_relative_to(build) or (i > 0 and build.is_relative_to(p)):
            raise GeneratorError(f"refusing to use {build_dir} as the build folder: it overlaps {p}")
    if build.is_file():
        raise GeneratorError(f"refusing to use {build_dir} as the build folder: it is a file")
    if build.exists() and any(build.iterdir()) and not (build / MARKER).exists():
        names = {c.name for c in build.iterdir()}
        if not names <= KEEP:
            others = sorted(names - KEEP)
            # setuptools' output when a wheel is built in a checkout whose setup.cfg does not move it.
            setuptools = [n for n in others if n == "lib" or n.startswith("bdist.")]
            leftovers = ", ".join(f"{build_dir}/{n}" for n in setuptools)
            todo = (f"remove setuptools' leftovers ({leftovers}) and build again" if setuptools == others
                    else "move them away, or point docs_dir in mkdocs.yml at another folder")
            raise GeneratorError(f"refusing to write into {build_dir}: it holds {', '.join(others[:5])}"
                                 f"{', ...' if len(others) > 5 else ''} and no {MARKER} marker, so it may not be "
                                 f"a readinglist build folder: {todo}")


def _prepare(build_dir: Path, protected: list[Path]) -> Path:
    check_build_dir(build_dir, protected)
    build_dir.mkdir(parents=True, exist_ok=True)
    marker = build_dir / MARKER
    if not marker.exists():
        atomic_write(marker, b"Generated by readinglist; everything here is rebuilt from seeds/ and content/.\n")
    return build_dir.resolve()


def write_tree(build_dir: Path, files: Mapping[str, Content], protected: list[Path]) -> WriteStats:
    """Make `build_dir` hold exactly `files` (plus KEEP), touching only what changed. Every changed
    file is written to a temporary file first and all are renamed into place once all are
    written: a full disk (DiskFull) leaves the folder as it was."""
    try:
        root = _prepare(build_dir, protected)
    except OSError as exc:
        if exc.errno in FULL:
            raise DiskFull(build_dir, f"nothing written, {shown(build_dir)} is as it was") from None
        raise
    stats = WriteStats()
    todo = sorted(files)
    # All checked before anything is written.
    folders: Folders = {}
    existing = _targets(root, todo, folders)
    # Each paper has a folder of its own (papers/<slug>/index.md): each new folder is made once.
    # Paths are strings here, not Paths: 11,221 files made 11,221 Paths, their parents and hashes.
    made: set[str] = set()
    new_mode = _new_file_mode()
    staged: list[tuple[str, str]] = []  # (temporary file, its target)
    try:
        for rel in track(todo, "writing pages"):
            head, _, name = rel.rpartition("/")
            folder, _, new = folders[head]
            if new and head not in made:
                _make_folder(head, folders, made)
            tmp, st = _stage_one(folder, name, files[rel], rel in existing, new_mode)
            if tmp is not None:
                staged.append((tmp, f"{folder}/{name}"))
                stats.written.append(rel)
            else:
                stats.unchanged += 1
            stats.manifest[rel] = (st.st_size, st.st_mtime_ns)
    except BaseException as exc:
        _unstage(staged, made, folders)
        if isinstance(exc, OSError) and exc.errno in FULL:
            raise DiskFull(build_dir, f"nothing written, {shown(build_dir)} is as it was") from None
        raise
    for tmp, target in staged:
        os.replace(tmp, target)
    # A folder that did not exist holds only what was just written: nothing in it is stale.
    # The folders listed before writing are not listed again: what was stale then is stale now.
    listed = {head: listing for head, (_, listing, new) in folders.items() if not new}
    stats.removed = remove_stale(root, set(files), {head for head, (_, _, new) in folders.items() if new},
                                 kept=stats.manifest, listed=listed)
    return stats


def _unstage(staged: list[tuple[str, str]], made: set[str], folders: Folders) -> None:
    """Take back what a write_tree that failed staged: its temporary files and the folders it made."""
    for tmp, _ in staged:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    for head in sorted(made, key=lambda h: h.count("/"), reverse=True):
        with contextlib.suppress(OSError):
            os.rmdir(folders[head][0])


def _make_folder(head: str, folders: Folders, made: set[str]) -> None:
    """Make the new folder `head` of the build folder, after its parent if that is new too (every
    parent of a folder in `folders` is in it: `_folder` checks them first)."""
    parent = head.rpartition("/")[0]
    if folders[parent][2] and parent not in made:
        _make_folder(parent, folders, made)
    try:
        os.mkdir(folders[head][0])
    except FileExistsError:
        if not os.path.isdir(folders[head][0]):
            raise
    made.add(head)


def _targets(root: Path, files: Iterable[str], folders: Folders | None = None) -> set[str]:
    """Check every output path; which of them exist. Ten thousand papers have a folder each
    (papers/<slug>/): each folder is checked and listed once (into `folders`, which a caller may
    keep), and only when its parent's listing shows it (see `_folder`)."""
    folders = {} if folders is None else folders
    existing: set[str] = set()
    for rel in files:
        parts = rel.split("/")
        if (not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel
                or any(p in ("", ".", "..") for p in parts)):
            raise GeneratorError(f"refusing to write {rel!r}: not a plain path inside the build folder")
        head, _, name = rel.rpartition("/")
        folder, listing, _ = _folder(root, head, folders, rel)
        link = listing.get(name)
        if link is not None:
            existing.add(rel)
            if link.is_symlink() and not Path(folder, name).resolve().is_relative_to(root):
                raise GeneratorError(f"refusing to write {rel!r}: a symbolic link in the build folder points "
                                     f"outside it")
    return existing


# Folder (relative, "" for the build folder) -> its path, its listing, whether it is new (absent).
Listing = dict[str, os.DirEntry[str]]
Folders = dict[str, tuple[str, Listing, bool]]


def _folder(root: Path, head: str, folders: Folders, rel: str) -> tuple[str, Listing, bool]:
    """The folder `head` of the build folder, checked and listed once (kept in `folders`); `rel`
    is the file being written there, for the message. Its parent's listing says what it is: absent
    (new: nothing to resolve or list), a folder (inside the build folder, as its parent is), or a
    symbolic link (resolved, and refused if it leads outside)."""
    known = folders.get(head)
    if known is not None:
        return known
    if not head:
        top = str(root)
        known = folders[head] = (top, _listing(top), False)
        return known
    parent_head, _, name = head.rpartition("/")
    parent, listing, _ = _folder(root, parent_head, folders, rel)
    folder = f"{parent}/{name}"
    link = listing.get(name)
    if link is None:
        known = (folder, {}, True)
    else:
        if link.is_symlink() and not Path(folder).resolve().is_relative_to(root):
            raise GeneratorError(f"refusing to write {rel!r}: a symbolic link in the build folder "
                                 "points outside it")
        known = (folder, _listing(folder), False)
    folders[head] = known
    return known


def _listing(folder: str) -> Listing:
    """Name -> entry, for what is in `folder` (an entry knows its kind without a stat)."""
    try:
        with os.scandir(folder) as entries:
            return {e.name: e for e in entries}
    except (FileNotFoundError, NotADirectoryError):
        return {}


def remove_stale(root: Path, wanted: Collection[str], fresh: Collection[str] = (),
                 kept: dict[str, tuple[int, int]] | None = None,
                 listed: Mapping[str, Listing] | None = None) -> list[str]:
    """Delete what is in `root` but not `wanted` (relative paths), never leaving `root`: links are
    removed as links, never followed. The generator's own cache folder stays. `fresh`: folders
    (relative) this build made, which hold nothing else, so are not looked into. `kept`: gets the
    (size, mtime_ns) of the files kept that are not `wanted` (.gitignore and the marker). `listed`:
    folders (relative) already listed since anything stale was last made, which hold a `wanted`
    file, so are read from there and never removed."""
    removed: list[str] = []
    _remove_in(root, "", wanted, fresh, removed, {} if kept is None else kept, listed or {})
    return sorted(removed)


def _remove_in(folder: Path, rel_folder: str, wanted: Collection[str], fresh: Collection[str],
               removed: list[str], kept: dict[str, tuple[int, int]], listed: Mapping[str, Listing]) -> bool:
    """remove_stale in one folder and below (a real folder is entered, a link never); whether the
    folder is left empty."""
    left = 0
    known = listed.get(rel_folder)
    if known is not None:
        entries = list(known.values())
    else:
        with os.scandir(folder) as it:
            entries = list(it)
    for entry in entries:
        rel = entry.name if not rel_folder else f"{rel_folder}/{entry.name}"
        if entry.is_dir(follow_symlinks=False):
            if rel in fresh or (not rel_folder and entry.name in KEEP_DIRS):
                left += 1
            elif _remove_in(Path(entry.path), rel, wanted, fresh, removed, kept, listed):
                os.rmdir(entry.path)
            else:
                left += 1
            continue
        if rel in wanted:
            left += 1
            continue
        if not rel_folder and entry.name in KEEP:
            left += 1
            _keep(entry, kept)
            continue
        os.unlink(entry.path)
        if not _TEMP.match(entry.name):
            removed.append(rel)
    return left == 0 and rel_folder not in listed


def _keep(entry: os.DirEntry[str], kept: dict[str, tuple[int, int]]) -> None:
    """Note a kept file's size and modification time as runtime/memo.manifest would: through a
    link to a file, never for a link to a folder or a broken one."""
    try:
        st = entry.stat()
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode):
        kept[entry.name] = (st.st_size, st.st_mtime_ns)
