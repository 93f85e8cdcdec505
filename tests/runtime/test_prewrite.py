"""Paper pages written ahead by the render workers (prewrite.py): into a folder that a first build
makes whole under another name and renames into place, else file by file, atomically."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.build import build
from generator.config import load_config
from generator.prewrite import Prewrite
from generator.render.links import paper_md
from generator.write import MARKER
from tests.conftest import copy_project

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")


def test_a_new_folder_is_filled_under_another_name_and_renamed_into_place(tmp_path: Path) -> None:
    root = tmp_path / "build"
    pre = Prewrite(root, [tmp_path / "content"], ["papers/a.md", "papers/b.md"])
    staging = root / ".papers.partial"
    assert staging.is_dir() and not (root / "papers").exists()
    names, written, unchanged, stats = pre.write({"papers/a.md": "alpha\n", "papers/b.md": "beta\n"})
    assert (names, written, unchanged) == (["papers/a.md", "papers/b.md"], ["papers/a.md", "papers/b.md"], 0)
    pre.record(names, written, unchanged, stats)
    # Until every worker is done nothing is in place: written in place, in the staging folder.
    assert not (root / "papers").exists() and sorted(os.listdir(staging)) == ["a.md", "b.md"]
    assert not [n for n in os.listdir(staging) if n.endswith(".tmp")]
    pre.finish()
    assert not staging.exists()
    assert (root / "papers" / "a.md").read_text() == "alpha\n" and (root / "papers" / "b.md").read_text() == "beta\n"
    # What each file was as written is what it is once in place: the manifest takes it from there.
    on_disk = {rel: ((root / rel).stat().st_size, (root / rel).stat().st_mtime_ns) for rel in names}
    assert pre.known_stats() == (on_disk, {"papers"}) and on_disk["papers/a.md"][0] == 6
    assert oct((root / "papers" / "a.md").stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    # An existing folder: file by file (compared, kept when equal), never a staging folder.
    again = Prewrite(root, [tmp_path / "content"], ["papers/a.md", "papers/b.md"])
    assert not staging.exists()
    assert again.write({"papers/a.md": "alpha\n", "papers/b.md": "beta 2\n"})[1:] == (["papers/b.md"], 1, {})
    again.finish()
    assert again.known_stats() == ({}, set())  # nothing made whole here
    assert (root / "papers" / "b.md").read_text() == "beta 2\n"


def test_a_staging_folder_left_by_a_stopped_build_is_cleared_and_a_folder_made_meanwhile_is_kept(
        tmp_path: Path) -> None:
    root = tmp_path / "build"
    left = root / ".papers.partial"
    left.mkdir(parents=True)
    (root / MARKER).write_text("a build folder\n")
    (left / "a.md").write_text("half a pa")
    (left / "gone.md").write_text("of a paper no longer listed")
    pre = Prewrite(root, [tmp_path / "content"], ["papers/a.md"])
    assert os.listdir(left) == []
    pre.write({"papers/a.md": "whole\n"})
    # Something made the folder before the workers were done: the files move in one by one.
    (root / "papers").mkdir()
    (root / "papers" / "other.md").write_text("kept\n")
    pre.finish()
    assert sorted(os.listdir(root / "papers")) == ["a.md", "other.md"] and not left.exists()
    assert (root / "papers" / "a.md").read_text() == "whole\n"
    assert pre.whole == set()  # a folder someone else made may hold more: looked at file by file


def test_the_manifest_takes_a_whole_folder_from_its_writes_and_stale_files_are_not_looked_for_there(
        tmp_path: Path) -> None:
    from generator.runtime import memo as cache
    from generator.write import remove_stale

    root = tmp_path / "build"
    (root / "papers").mkdir(parents=True)
    (root / "papers" / "a.md").write_text("a\n")
    (root / "tags").mkdir()
    (root / "tags" / "t.md").write_text("t\n")
    (root / "index.md").write_text("home\n")
    plain = cache.manifest(root)
    assert set(plain) == {"papers/a.md", "tags/t.md", "index.md"}
    # As written (say an mtime the file system rounded since): taken as given, never a stat.
    known = ({"papers/a.md": (2, 123)}, {"papers"})
    assert cache.manifest(root, known) == {**plain, "papers/a.md": (2, 123)}
    (root / "papers" / "x.md").write_text("made by someone else meanwhile\n")
    (root / "tags" / "old.md").write_text("stale\n")
    assert remove_stale(root, {"papers/a.md", "tags/t.md", "index.md"}, whole={"papers"}) == ["tags/old.md"]
    assert (root / "papers" / "x.md").exists()
    # ... which the next build's manifest sees, so it does not take the folder as it stored it.
    assert cache.manifest(root) != cache.manifest(root, known)


@needs_fork
def test_a_first_build_killed_while_writing_is_made_whole_by_the_next(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    config = load_config(copy_project(tmp_path))
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = build(config)
    expected = {p.relative_to(config.build_dir).as_posix(): p.read_bytes()
                for p in config.build_dir.rglob("*") if p.is_file() and ".readinglist-cache" not in p.parts}
    # What a first build stopped mid-way leaves: no papers folder, a staging folder with a half page.
    pages = sorted(paper_md(p) for p in serial.library.papers)
    for page in pages:
        (config.build_dir / page).unlink()
    (config.build_dir / "papers").rmdir()
    staging = config.build_dir / ".papers.partial"
    staging.mkdir()
    (staging / pages[0].split("/")[1]).write_bytes(expected[pages[0]][:50])
    shutil.rmtree(config.root / ".readinglist-cache", ignore_errors=True)  # no no-change memo
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    again = build(config)
    assert again.stats is not None and sorted(set(again.stats.written) & set(pages)) == pages
    tree = {p.relative_to(config.build_dir).as_posix(): p.read_bytes()
            for p in config.build_dir.rglob("*") if p.is_file() and ".readinglist-cache" not in p.parts}
    assert tree == expected and not staging.exists()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
