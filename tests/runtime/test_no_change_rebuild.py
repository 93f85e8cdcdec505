"""No-change rebuilds reuse the last build; any change to an input builds again."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import generator.build as gb
from generator.build import build
from generator.config import Config
from tests.conftest import page_h1


def snapshot(config: Config) -> dict[str, tuple[int, int]]:
    out = {}
    for dirpath, _dirs, names in os.walk(config.build_dir):
        for name in names:
            path = os.path.join(dirpath, name)
            st = os.stat(path)
            out[os.path.relpath(path, config.build_dir)] = (st.st_size, st.st_mtime_ns)
    return out


def test_second_build_touches_nothing_and_reports_the_same(project: Callable[..., Config]) -> None:
    config = project()
    first = build(config)
    assert first.stats is not None and first.stats.written
    before = snapshot(config)
    again = build(config)
    assert again.stats is not None
    assert again.stats.written == [] and again.stats.removed == []
    assert again.stats.unchanged == len(first.stats.written) + first.stats.unchanged
    assert snapshot(config) == before
    assert isinstance(again, gb.StoredResult)
    assert [p.key for p in gb.read_library(config).papers] == [p.key for p in first.library.papers]
    assert [str(p) for p in again.problems] == [str(p) for p in first.problems]
    assert again.summary() == first.summary().replace(
        f"{len(first.stats.written)} files written, {first.stats.unchanged} unchanged",
        f"0 files written, {again.stats.unchanged} unchanged")
    # The files of a reused build are still there to read.
    assert set(again.files) == set(first.files)
    page = "papers/defending-against-unforeseen-failure-modes-with-latent/index.md"
    assert again.files[page] == first.files[page]


def test_editing_a_digest_builds_again(project: Callable[..., Config]) -> None:
    config = project()
    build(config)
    digest = config.seeds_dir / "000_1b8355006bbdabc6.txt"
    text = digest.read_text(encoding="utf-8")
    digest.write_text(text.replace("Defending Against Unforeseen Failure Modes",
                                   "Defending Against Unforeseen Failure Cases"), encoding="utf-8")
    result = build(config)
    assert result.stats is not None
    page = "papers/defending-against-unforeseen-failure-modes-with-latent/index.md"
    assert page in result.stats.written
    assert page_h1((config.build_dir / page).read_text(encoding="utf-8")).startswith(
        "Defending Against Unforeseen Failure Cases")


def test_a_new_note_or_a_changed_build_folder_builds_again(project: Callable[..., Config]) -> None:
    config = project()
    first = build(config)
    assert first.stats is not None
    # Something under content/ changed: a normal build (write-if-changed decides what is written).
    (config.content_dir / "notes").mkdir(parents=True, exist_ok=True)
    (config.content_dir / "notes" / "scratch.md").write_text("draft\n", encoding="utf-8")
    assert build(config).stats.unchanged > 0  # type: ignore[union-attr]
    # A generated file deleted by hand comes back.
    page = config.build_dir / "papers" / "defending-against-unforeseen-failure-modes-with-latent" / "index.md"
    page.unlink()
    result = build(config)
    assert result.stats is not None
    assert result.stats.written == ["papers/defending-against-unforeseen-failure-modes-with-latent/index.md"]
    assert page.is_file()
    # A stray file in the build folder is removed, as by any build.
    (config.build_dir / "stray.md").write_text("x", encoding="utf-8")
    result = build(config)
    assert result.stats is not None and result.stats.removed == ["stray.md"]


def test_a_rebuild_that_rewrote_nothing_is_reused_and_a_page_edited_by_hand_is_rebuilt(
        project: Callable[..., Config]) -> None:
    """The memo keeps the build folder as the write stage left it (its WriteStats), also after a
    build that found every file unchanged; a page changed by hand (same size) is rewritten."""
    config = project()
    build(config)
    (config.content_dir / "notes").mkdir(parents=True, exist_ok=True)
    (config.content_dir / "notes" / "scratch.md").write_text("draft\n", encoding="utf-8")
    middle = build(config)
    assert not isinstance(middle, gb.StoredResult) and middle.stats is not None
    assert middle.stats.written == [] and middle.stats.unchanged > 41
    assert isinstance(build(config), gb.StoredResult)
    page = config.build_dir / "papers" / "defending-against-unforeseen-failure-modes-with-latent" / "index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("Defending", "Defendinx", 1), encoding="utf-8")
    result = build(config)
    assert not isinstance(result, gb.StoredResult) and result.stats is not None
    assert result.stats.written == ["papers/defending-against-unforeseen-failure-modes-with-latent/index.md"]
    assert page.read_text(encoding="utf-8") == text
    assert isinstance(build(config), gb.StoredResult)


def test_check_never_uses_or_writes_the_memo(project: Callable[..., Config]) -> None:
    config = project()
    result = build(config, write=False)
    assert result.stats is None and len(result.files) > 41
    assert not (config.root / ".readinglist-cache").exists()
    assert not (config.build_dir / ".readinglist-cache").exists()


def test_a_reused_build_holds_no_library_and_read_library_reads_it_again_on_request(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.build as gb

    config = project()
    first = build(config)
    made: list[int] = []
    real = gb.make_library
    monkeypatch.setattr(gb, "make_library", lambda *a, **k: made.append(1) or real(*a, **k))
    again = build(config)
    assert isinstance(again, gb.StoredResult)
    assert again.stats is not None and again.stats.written == []
    assert [str(p) for p in again.problems] == [str(p) for p in first.problems]
    assert first.stats is not None
    assert f"0 files written, {len(first.stats.written) + first.stats.unchanged} unchanged" in again.summary()
    assert made == []  # the summary and problems come from the small memo
    with pytest.raises(gb.NoLibrary, match="read_library"):
        again.library  # noqa: B018 - no hidden rebuild behind an attribute
    assert made == []
    assert gb.read_library(config) == first.library  # read and enriched again, from the same inputs
    assert made == [1]


def test_the_memo_can_be_switched_off(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.build as gb

    config = project()
    build(config)
    monkeypatch.setenv("READINGLIST_CACHE", "off")
    again = build(config)
    assert not isinstance(again, gb.StoredResult)
    assert again.stats is not None and again.stats.written == []  # rebuilt, nothing rewritten


def test_the_memo_is_kept_outside_the_folder_mkdocs_serve_watches(project: Callable[..., Config]) -> None:
    config = project()
    build(config)
    assert not (config.build_dir / ".readinglist-cache").exists()
    assert list((config.root / ".readinglist-cache").rglob("*")) != []
    assert build(config).stats is not None and build(config).stats.written == []  # and is used


def test_the_fingerprint_sees_every_change_to_an_input(project: Callable[..., Config]) -> None:
    """Also a same-size write in the same tick of the file clock (size and times as they were),
    and one whose modification time is set back to what it was."""
    from generator.runtime.memo import fingerprint

    config = project()
    digest = sorted(config.seeds_dir.glob("*.txt"))[0]
    text = digest.read_bytes()
    first = fingerprint(config)
    assert fingerprint(config) == first
    st = digest.stat()
    digest.write_bytes(text.replace(text[:1], b"X" if text[:1] != b"X" else b"Y", 1))
    os.utime(digest, ns=(st.st_atime_ns, st.st_mtime_ns))
    changed = fingerprint(config)
    assert changed != first and fingerprint(config) == changed
    long_ago = time.time_ns() - 3600 * 10**9
    os.utime(digest, ns=(long_ago, long_ago))
    assert fingerprint(config) == changed  # the times are no input
    digest.write_bytes(text)
    os.utime(digest, ns=(long_ago, long_ago))
    assert fingerprint(config) == first
    digest.unlink()
    assert fingerprint(config) not in (first, changed)


def test_new_generator_code_builds_again_and_compiled_files_do_not(
        project: Callable[..., Config], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    import generator
    import generator.build as gb
    from generator.runtime import memo as cache

    # The code the memo watches is the whole package (it had been generator/runtime/ alone).
    assert cache.PACKAGE == Path(generator.__file__).resolve().parent
    code = tmp_path / "code"
    shutil.copytree(cache.PACKAGE, code, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "PACKAGE", code)
    config = project()
    build(config)
    assert isinstance(build(config), gb.StoredResult)
    paper = code / "render" / "paper.py"
    paper.write_text(paper.read_text(encoding="utf-8") + "\n# a change in a stage, not in runtime/\n",
                     encoding="utf-8")
    assert not isinstance(build(config), gb.StoredResult)
    assert isinstance(build(config), gb.StoredResult)
    (code / "render" / "__pycache__").mkdir()
    (code / "render" / "__pycache__" / "paper.cpython-311.pyc").write_bytes(b"compiled")
    assert isinstance(build(config), gb.StoredResult)
