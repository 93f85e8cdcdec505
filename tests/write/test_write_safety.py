"""The build folder is the only place the generator deletes anything; content/ and seeds/ are never
touched; dangerous build folders are refused before anything is written."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config, load_config
from generator.errors import GeneratorError
from generator.write import MARKER, atomic_write, write_tree
from tests.conftest import copy_project


def tree_hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def add_content(config: Config) -> None:
    notes = config.notes_dir
    notes.mkdir(parents=True, exist_ok=True)
    (notes / "maron2025oneshot.md").write_text("---\nstatus: read\n---\nMy note on a real paper.\n")
    (notes / "gone2024paper.md").write_text("A note whose paper is in no digest any more.\n")
    (config.content_dir / "topics.yml").write_text("topics:\n  - name: Federated\n    phrases: [federated]\n")
    (config.pages_dir).mkdir(parents=True, exist_ok=True)
    (config.pages_dir / "about.md").write_text("# About\n")


def test_build_never_changes_or_deletes_anything_under_content_or_seeds(project: Callable[..., Config]) -> None:
    config = project()
    add_content(config)
    before = tree_hashes(config.content_dir), tree_hashes(config.seeds_dir)
    build(config)
    # A digest disappears: its papers go, their notes stay exactly as written.
    tmlr = next(config.seeds_dir.glob("000_*.txt"))
    saved = tmlr.read_bytes()
    tmlr.unlink()
    result = build(config)
    assert all(p.venue != "TMLR" for p in result.library.papers)
    assert tree_hashes(config.content_dir) == before[0]
    orphans = [str(p) for p in result.problems if "orphan note" in p.message]
    assert any(m.startswith("content/notes/maron2025oneshot.md:1: warning: orphan note") for m in orphans), orphans
    tmlr.write_bytes(saved)
    build(config)
    assert (tree_hashes(config.content_dir), tree_hashes(config.seeds_dir)) == before


def test_stale_pages_go_but_only_inside_the_build_folder(project: Callable[..., Config], tmp_path: Path) -> None:
    config = project()
    build(config)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.md").write_text("not ours")
    (outside / "sub").mkdir()
    (outside / "sub" / "keep.md").write_text("not ours either")
    stale = config.build_dir / "papers" / "old-paper.md"
    stale.write_text("from a paper that is gone")
    (config.build_dir / "gone" / "deep").mkdir(parents=True)
    (config.build_dir / "gone" / "deep" / "x.md").write_text("stale")
    (config.build_dir / "link-to-file.md").symlink_to(outside / "keep.md")
    (config.build_dir / "link-to-dir").symlink_to(outside / "sub", target_is_directory=True)
    (config.build_dir / "papers" / ".index.md.abcd1234.tmp").write_text("half a file from a killed build")
    result = build(config)
    assert result.stats is not None
    assert result.stats.removed == ["gone/deep/x.md", "link-to-dir", "link-to-file.md", "papers/old-paper.md"]
    assert not stale.exists() and not (config.build_dir / "gone").exists()
    assert not (config.build_dir / "link-to-dir").exists() and not (config.build_dir / "link-to-file.md").exists()
    assert not list(config.build_dir.rglob("*.tmp"))
    assert (outside / "keep.md").read_text() == "not ours"
    assert (outside / "sub" / "keep.md").read_text() == "not ours either"
    assert (config.build_dir / ".gitignore").exists() and (config.build_dir / MARKER).exists()


def test_each_paper_folder_is_checked_a_stale_file_in_one_goes_a_link_out_of_one_is_refused(
        project: Callable[..., Config], tmp_path: Path) -> None:
    """Every paper has a folder of its own (papers/<slug>/index.md): a stale file inside one is
    removed, and a paper folder replaced by a link leading out of the build folder is refused."""
    config = project()
    build(config)
    first, second = sorted(p for p in (config.build_dir / "papers").iterdir() if p.is_dir())[:2]
    (first / "notes.md").write_text("left by an older build")
    result = build(config)
    assert result.stats is not None
    assert result.stats.removed == [f"papers/{first.name}/notes.md"]
    assert (first / "index.md").is_file()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "index.md").write_text("not ours")
    for p in second.iterdir():
        p.unlink()
    second.rmdir()
    second.symlink_to(outside, target_is_directory=True)
    with pytest.raises(GeneratorError, match=f"refusing to write 'papers/{second.name}/index.md': a symbolic "
                       "link in the build folder points outside it"):
        build(config)
    assert [p.name for p in outside.iterdir()] == ["index.md"]
    assert (outside / "index.md").read_text() == "not ours"


@pytest.mark.parametrize(("docs_dir", "message"), [
    (".", "refusing to use {root} as the build folder: it overlaps {root}"),
    ("..", "refusing to use {parent} as the build folder: it overlaps {root}"),
    ("content", "refusing to use {root}/content as the build folder: it overlaps {root}/content"),
    ("content/site", "refusing to use {root}/content/site as the build folder: it overlaps {root}/content"),
    ("seeds", "refusing to use {root}/seeds as the build folder: it overlaps {root}/seeds"),
    ("/", "refusing to use / as the build folder: it is the file-system root"),
    ("elsewhere", "refusing to write into {root}/elsewhere: it holds thesis.tex and no .readinglist-build "
                  "marker, so it may not be a readinglist build folder: move them away, or point docs_dir in "
                  "mkdocs.yml at another folder"),
])
def test_dangerous_build_folders_are_refused_and_nothing_is_touched(
        project: Callable[..., Config], docs_dir: str, message: str) -> None:
    config = project()
    root = config.root
    (root / "content").mkdir(exist_ok=True)
    (root / "content" / "mine.md").write_text("mine")
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / "thesis.tex").write_text("years of work")
    before = tree_hashes(root)
    config = load_config(root / "mkdocs.yml", docs_dir=docs_dir)
    with pytest.raises(GeneratorError) as err:
        build(config)
    assert str(err.value) == message.format(root=root, parent=root.parent)
    assert tree_hashes(root) == before


def test_home_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    with pytest.raises(GeneratorError, match="it is the home folder"):
        write_tree(home, {"index.md": "x"}, protected=[tmp_path / "project"])
    assert list(home.iterdir()) == []


def test_cli_reports_a_refused_folder_without_a_traceback(project: Callable[..., Config]) -> None:
    import subprocess
    import sys

    config = project()
    text = (config.root / "mkdocs.yml").read_text().replace("docs_dir: build", "docs_dir: seeds")
    (config.root / "mkdocs.yml").write_text(text)
    proc = subprocess.run([sys.executable, "-m", "generator", "build"], cwd=config.root,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"readinglist: error: refusing to use {config.root}/seeds as the build "
                                   f"folder: it overlaps {config.root}/seeds")
    assert "Traceback" not in proc.stderr


def test_atomic_write_keeps_permissions_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "citekeys.yml"
    target.write_text("old")
    os.chmod(target, 0o640)
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    fresh = tmp_path / "fresh.md"
    atomic_write(fresh, b"x")
    assert fresh.stat().st_mode & 0o044 == 0o044  # readable by a web server, unlike mkstemp's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["citekeys.yml", "fresh.md"]


def test_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "page.md"
    target.write_text("old page")

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(target, b"new page")
    assert target.read_text() == "old page"
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_modes_survive_the_umask_and_new_files_get_the_usual_one(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    build_dir = tmp_path / "build"
    write_tree(build_dir, {"a.md": "a", "sub/b.md": "b"}, protected=[tmp_path / "content"])
    assert (build_dir / "sub" / "b.md").stat().st_mode & 0o777 == 0o666 & ~umask
    # A mode with bits the umask would clear (group-writable) is kept across a rewrite.
    os.chmod(build_dir / "a.md", 0o664)
    stats = write_tree(build_dir, {"a.md": "changed", "sub/b.md": "b"}, protected=[tmp_path / "content"])
    assert stats.written == ["a.md"] and stats.unchanged == 1
    assert (build_dir / "a.md").stat().st_mode & 0o777 == 0o664
    assert (build_dir / "a.md").read_text() == "changed"


def test_mkdocs_build_over_setuptools_leftovers_says_what_to_do_without_a_traceback(tmp_path: Path) -> None:
    """A wheel built in a checkout without setup.cfg's build_base leaves build/lib in the docs
    folder: the next `mkdocs build` stops with one line that says what to remove."""
    copy_project(tmp_path, seeds=False)
    for leftover in ("build/lib/generator", "build/bdist.linux-x86_64"):
        (tmp_path / leftover).mkdir(parents=True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("READINGLIST_HOOK", None)
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    build = tmp_path / "build"
    errors = [line for line in run.stderr.splitlines() if line.startswith("ERROR")]
    assert errors == [
        f"ERROR   -  readinglist: refusing to write into {build}: it holds bdist.linux-x86_64, lib and no "
        f"{MARKER} marker, so it may not be a readinglist build folder: remove setuptools' leftovers "
        f"({build}/bdist.linux-x86_64, {build}/lib) and build again"]
    assert "Traceback" not in run.stderr + run.stdout
    assert sorted(p.name for p in build.iterdir()) == [".gitignore", "bdist.linux-x86_64", "lib"]


def test_write_tree_reports_what_the_folder_holds_as_a_walk_would_find_it(tmp_path: Path) -> None:
    """The no-change memo stores WriteStats.manifest instead of walking the folder again: it must
    equal the walk for new, rewritten, unchanged and linked files, the kept ones and the stale."""
    from generator.runtime.memo import manifest

    build_dir = tmp_path / "build"
    first = write_tree(build_dir, {"index.md": "# Home\n", "papers/a/index.md": "A\n", "old.md": "x"}, [tmp_path / "c"])
    assert first.manifest == manifest(build_dir)
    assert set(first.manifest) == {MARKER, "index.md", "papers/a/index.md", "old.md"}
    (build_dir / ".gitignore").write_text("*\n!.gitignore\n")
    (build_dir / "target.md").write_text("linked\n")
    (build_dir / "link.md").symlink_to("target.md")
    (build_dir / ".readinglist-cache").mkdir()
    (build_dir / ".readinglist-cache" / "x").write_text("not the site's")
    (build_dir / "papers" / "a" / "notes.md").write_text("stale beside a page\n")
    (build_dir / "papers" / "gone").mkdir()
    (build_dir / "papers" / "gone" / "index.md").write_text("a stale folder\n")
    (build_dir / "sub").mkdir()
    (build_dir / "sub" / "old.md").write_text("all that sub/ held: stale, but sub/ stays\n")
    files = {"index.md": "# Home\n", "papers/a/index.md": "B\n", "papers/b/index.md": "new\n",
             "link.md": "linked\n", "target.md": "linked\n", "sub/new/index.md": "new\n"}
    again = write_tree(build_dir, files, [tmp_path / "c"])
    assert again.written == ["papers/a/index.md", "papers/b/index.md", "sub/new/index.md"]
    assert again.removed == ["old.md", "papers/a/notes.md", "papers/gone/index.md", "sub/old.md"]
    assert not (build_dir / "papers" / "gone").exists()
    assert again.manifest == manifest(build_dir)
    assert set(again.manifest) == {MARKER, ".gitignore", *files}
    assert again.manifest["papers/a/index.md"][0] == 2
