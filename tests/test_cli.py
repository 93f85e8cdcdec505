"""The `readinglist` command line: exit codes, the one-line summary, path:line warnings."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.config import Config


def run(config: Config, *args: str, ci: bool = False) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "CI": "true" if ci else ""}
    return subprocess.run([sys.executable, "-m", "generator", "-f", str(config.root / "mkdocs.yml"), *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_build_prints_summary_and_warnings(project: Callable[..., Config]) -> None:
    config = project()
    proc = run(config, "build")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("readinglist: 41 papers from 2 digests, ")
    assert proc.stdout.strip().endswith(", 2 warnings")
    assert ("seeds/001_68714a788c6fb328.txt:204: warning: record has no title line (the line after the "
            "subject is the author list); using a placeholder title") in proc.stderr
    assert (config.build_dir / "papers.json").is_file()
    again = run(config, "build")
    assert ", 0 files written, " in again.stdout


@pytest.mark.parametrize("args,ci", [(("check", "--strict"), False), (("build",), True)])
def test_warnings_fail_in_strict_and_ci_mode(project: Callable[..., Config], args: tuple[str, ...],
                                             ci: bool) -> None:
    proc = run(project(), *args, ci=ci)
    assert proc.returncode == 1
    assert "2 warnings" in proc.stdout


def test_check_writes_nothing(project: Callable[..., Config]) -> None:
    config = project()
    proc = run(config, "check")
    assert proc.returncode == 0
    assert "41 papers from 2 digests" in proc.stdout
    assert sorted(p.name for p in config.build_dir.iterdir()) == [".gitignore"]


def test_errors_exit_non_zero_but_other_files_build(project: Callable[..., Config]) -> None:
    config = project()
    (config.seeds_dir / "notes-to-self.txt").write_text("Buy milk.\nCall Bob.\n", encoding="utf-8")
    proc = run(config, "build")
    assert proc.returncode == 1
    assert ("seeds/notes-to-self.txt:1: error: not a digest format I know (expected a TMLR digest e-mail, text "
            "copied from a paper-listing page, an arXiv mailing-list e-mail, an arXiv feed or a .bib file); "
            "skipped") in proc.stderr
    assert "41 papers from 2 digests" in proc.stdout


def test_help_lists_the_commands() -> None:
    proc = subprocess.run([sys.executable, "-m", "generator", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    for command in ("build", "check", "serve"):
        assert command in proc.stdout


def test_bad_config_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nextra:\n  readinglist:\n    related:\n      count: many\n")
    proc = subprocess.run([sys.executable, "-m", "generator", "-f", str(tmp_path / "mkdocs.yml"), "build"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("readinglist: error: mkdocs.yml: extra.readinglist.related.count: expected "
                                   "a whole number, got 'many'")
