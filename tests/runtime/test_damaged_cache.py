""".readinglist-cache/ is disposable (the Pages workflow restores it from an earlier run): any damage
to one of its files or stamps means that part is made again, one line says so, and the site is the
one a cold build makes. No stamp of the cache is published."""

from __future__ import annotations

import logging
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.config import load_config
from generator.render.search_records import RECORDS
from generator.site import search
from tests.conftest import copy_project

CACHE = ".readinglist-cache"
MEMO = f"{CACHE}/build/memo.pickle"
REFS = f"{CACHE}/references.json"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CI="", NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def contents(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.relative_to(folder).as_posix().startswith(skip)}


def noise(path: Path, seed: int = 0) -> None:
    """The file's bytes replaced by as many random ones (a restore gone wrong)."""
    path.write_bytes(random.Random(seed).randbytes(path.stat().st_size))


def flip_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x20
    path.write_bytes(bytes(data))


def other_reference_text(path: Path) -> None:
    """Still JSON, still the cache's layout: one reference's text is not what citeproc-py made."""
    text = path.read_text(encoding="utf-8")
    assert text.count("Maron, C., Fresse, V., & ORZALESI. (2025).") == 1
    path.write_text(text.replace("Maron, C., Fresse, V., & ORZALESI. (2025).", "Maron, C. (1999)."), encoding="utf-8")


MEMO_LINE = f"{MEMO}: note: the no-change memo is damaged ({{}}); building in full, and keeping a new one"
REFS_LINE = f"{REFS}: note: the reference cache is damaged ({{}}); the references are formatted again"
DAMAGE = {
    "memo-noise": (MEMO, noise, MEMO_LINE.format("its first bytes are not a memo's")),
    "memo-half": (MEMO, lambda p: p.write_bytes(p.read_bytes()[:p.stat().st_size // 2]),
                  MEMO_LINE.format("its checksum does not match")),
    "memo-one-byte": (MEMO, flip_middle, MEMO_LINE.format("its checksum does not match")),
    "references-noise": (REFS, noise, REFS_LINE.format("its first bytes are not the cache's")),
    "references-one-byte": (REFS, flip_middle, REFS_LINE.format("its checksum does not match")),
    "references-other-text": (REFS, other_reference_text, REFS_LINE.format("its checksum does not match")),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_cache_file_is_made_again_with_one_line(tmp_path: Path, case: str) -> None:
    rel, damage, line = DAMAGE[case]
    root = copy_project(tmp_path).parent
    cold = run(root, "build")
    assert cold.returncode == 0, cold.stderr
    site = contents(root / "build")
    if rel == REFS:
        (root / MEMO).unlink()  # (a build that reuses the last one reads no reference)
    damage(root / rel)
    proc = run(root, "build")
    assert (proc.returncode, proc.stderr.splitlines()) == (0, [line])
    written = re.search(r"(\d+) files written, 0 unchanged", cold.stdout)
    assert written is not None, cold.stdout
    assert f"0 files written, {written[1]} unchanged" in proc.stdout
    assert contents(root / "build") == site
    # Made again whole: the next build trusts it and says nothing.
    again = run(root, "build")
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == cold.stdout.replace(written[0], f"0 files written, {written[1]} unchanged")


# Pagefind names its filter files (and so its entry and meta file) differently from one cold build
# to the next: those are compared by what they say, every other file byte for byte.
UNSTABLE = ("filter/", "pagefind-entry.json", "pagefind.en_")


@pytest.fixture(scope="module")
def cold_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("index")
    config = load_config(copy_project(root))
    from generator.build import build

    build(config)
    out = root / CACHE / search.INDEX_DIR
    assert search.build_index(config.build_dir / RECORDS, out) == 96
    return config.build_dir / RECORDS, out


def pagefind_files(out: Path) -> list[str]:
    """Every file at the top of the index (the stamp among them) and the first of each folder."""
    top = sorted(p.name for p in out.iterdir() if p.is_file())
    return top + [f"{d.name}/{min(f.name for f in d.iterdir())}" for d in sorted(out.iterdir()) if d.is_dir()]


@pytest.mark.parametrize("damage", [noise, flip_middle, Path.unlink], ids=["noise", "one-byte", "gone"])
def test_a_damaged_search_index_file_or_stamp_is_made_again(
        cold_index: tuple[Path, Path], tmp_path: Path, damage: Callable[[Path], None],
        caplog: pytest.LogCaptureFixture) -> None:
    records, pristine = cold_index
    files = pagefind_files(pristine)
    assert {search.STAMP, "pagefind.js", "pagefind-entry.json"} <= set(files)
    assert {f.split("/")[0] for f in files} >= {"fragment", "index", "filter"}
    if damage is not noise:  # every file with noise; the other damage to a few
        files = [f for f in files if f in (search.STAMP, "pagefind.js") or f.startswith("fragment/")]
    unstable = (*UNSTABLE, search.STAMP)  # (the stamp names the filter files)
    expected = contents(pristine, unstable)
    for rel in files:
        out = tmp_path / rel.replace("/", "_") / search.INDEX_DIR
        shutil.copytree(pristine, out)
        search._checked.clear()  # a new process: the cache comes from elsewhere (CI's restore)
        assert search.build_index(records, out) is None, rel  # whole: reused
        search._checked.clear()
        damage(out / rel)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="mkdocs.readinglist"):
            assert search.build_index(records, out) == 96, rel
        said = [r.getMessage() for r in caplog.records]
        assert len(said) == 1 and said[0].startswith(
            f"readinglist: the search index cache {out.parent.name}/pagefind is damaged ("), said
        assert said[0].endswith("); making it again")
        assert contents(out, unstable) == expected, rel
        search._checked.clear()
        assert search.build_index(records, out) is None, rel


def mkdocs_build(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, NO_MKDOCS_2_WARNING="1", CI=""))


def test_mkdocs_build_with_random_bytes_in_the_index_stamp_remakes_it_and_publishes_no_stamp(tmp_path: Path) -> None:
    """The issue's case: before, a traceback from the search-index thread, exit 0, the damaged
    stamp published as site/pagefind/.readinglist-records."""
    root = copy_project(tmp_path).parent
    assert mkdocs_build(root).returncode == 0
    cold = contents(root / "site", tuple(f"pagefind/{u}" for u in UNSTABLE))
    assert not (root / "site/pagefind" / search.STAMP).exists()
    noise(root / CACHE / "pagefind" / search.STAMP)
    proc = mkdocs_build(root)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("readinglist: the search index cache .readinglist-cache/pagefind is damaged "
                             "(its stamp is not readable); making it again") == 1
    assert not (root / "site/pagefind" / search.STAMP).exists()
    assert contents(root / "site", tuple(f"pagefind/{u}" for u in UNSTABLE)) == cold
    entry = (root / "site/pagefind/pagefind-entry.json").read_text(encoding="utf-8")
    assert '"page_count":96' in entry


def test_a_failure_of_the_search_index_fails_mkdocs_build_in_a_line(tmp_path: Path) -> None:
    """Before, the search-index thread printed a traceback and `mkdocs build` exited 0 with a site
    whose search did not work."""
    root = copy_project(tmp_path).parent
    assert run(root, "build").returncode == 0
    records = root / "build" / RECORDS
    records.write_bytes(records.read_bytes()[:-200] + b"\n")  # its last line cut short
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", CI="", READINGLIST_HOOK="off")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=root, capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    last = len(records.read_bytes().splitlines())
    assert (f"ERROR   -  readinglist: search index not written: {records}:{last}: not the records the generator "
            "wrote (build again): ") in proc.stderr
