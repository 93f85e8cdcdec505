"""The size warning: past `extra.readinglist.size_warning_mb` a build says how big the site is, by part."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.config import load_config
from generator.errors import ConfigError
from generator.site.size import part_of, size_by_part
from tests.conftest import copy_project

pytestmark = pytest.mark.slow


def test_a_site_past_the_threshold_gets_a_warning_by_part_and_strict_fails(tmp_path: Path) -> None:
    config = copy_project(tmp_path)
    text = config.read_text("utf-8")
    assert "    seeds: seeds\n" in text
    config.write_text(text.replace("    seeds: seeds\n", "    seeds: seeds\n    size_warning_mb: 0.5\n"), "utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("READINGLIST_HOOK", None)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    # --strict (the Pages workflow) stops on the warning; the site is written all the same.
    assert proc.returncode == 1, proc.stderr
    line = next(x for x in proc.stderr.splitlines() if "readinglist: the built site is" in x)
    assert line.startswith("WARNING")
    total = sum(p.stat().st_size for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert f"the built site is {total / 1e6:.1f} MB, past 0.5 MB (extra.readinglist.size_warning_mb)" in line
    listed = line.split("By part: ", 1)[1].split(". What you can switch off", 1)[0]
    parts = dict(re.fullmatch(r"(.+) ([0-9.]+) MB", part).groups() for part in listed.split(", "))  # type: ignore[union-attr]
    pages = sum(p.stat().st_size for p in (tmp_path / "site" / "papers").rglob("*") if p.is_file())
    assert parts["paper pages"] == f"{pages / 1e6:.1f}"
    assert {"papers.json", "references.json", "references.ris", "search index", "tags/ pages"} <= parts.keys()
    assert "docs/user-guide/publishing.md" in line


def test_parts_of_a_site() -> None:
    assert part_of("papers/some-paper/index.html") == "paper pages"
    assert part_of("tags/reasoning.bib") == "tags/ downloads"
    assert part_of("tags/reasoning/index.html") == "tags/ pages"
    assert part_of("digests/000-abc.bib") == "digests/ downloads"
    assert part_of("feed-reasoning.xml") == "feeds"
    assert part_of("pagefind/pagefind-entry.json") == "search index"
    assert part_of("references.ris") == "references.ris"
    assert part_of("assets/javascripts/bundle.js") == "other"


def test_size_by_part_adds_every_file(tmp_path: Path) -> None:
    (tmp_path / "papers" / "a").mkdir(parents=True)
    (tmp_path / "papers" / "a" / "index.html").write_bytes(b"x" * 700)
    (tmp_path / "papers.json").write_bytes(b"[]" * 10)
    assert size_by_part(tmp_path) == {"paper pages": 700, "papers.json": 20}


def test_threshold_must_be_a_number(tmp_path: Path) -> None:
    config = copy_project(tmp_path)
    config.write_text(config.read_text("utf-8").replace("    seeds: seeds\n",
                                                        "    seeds: seeds\n    size_warning_mb: lots\n"), "utf-8")
    with pytest.raises(ConfigError, match=r"extra\.readinglist\.size_warning_mb: expected a number of megabytes"):
        load_config(config)
