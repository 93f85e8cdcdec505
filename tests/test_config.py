"""mkdocs.yml as the generator reads it: `!ENV` values come from the environment, as in MkDocs."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config, load_config
from generator.errors import ConfigError
from tests.conftest import ROOT, SEEDS


def test_site_url_comes_from_site_url_in_the_environment_else_the_default(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    assert load_config(ROOT / "mkdocs.yml").site_url == "http://127.0.0.1:8000/"
    monkeypatch.setenv("SITE_URL", "https://lab.github.io/reading-list/")
    assert load_config(ROOT / "mkdocs.yml").site_url == "https://lab.github.io/reading-list/"
    # The first variable that is set wins; other tags (Material's !!python/name:) stay readable.
    (tmp_path / "mkdocs.yml").write_text(
        "site_url: !ENV [RL_TEST_UNSET, SITE_URL, 'http://x/']\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        encoding="utf-8")
    assert load_config(tmp_path / "mkdocs.yml").site_url == "https://lab.github.io/reading-list/"


# --- the mistakes of a first hour (issue 41) ----------------------------------------------------

def _cli(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=root, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "CI": "", "NO_MKDOCS_2_WARNING": "1"},
                          input=stdin, timeout=300)


def _edit(config: Config, old: str, new: str) -> None:
    path = config.root / "mkdocs.yml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line(config: Config, text: str) -> int:
    lines = (config.root / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line == text)


def test_a_seeds_folder_that_does_not_exist_is_an_error_naming_the_setting(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    _edit(config, "    seeds: seeds\n", "    seeds: seed\n")
    line = _line(config, "    seeds: seed")
    message = (f"readinglist: error: mkdocs.yml:{line}: extra.readinglist.seeds: the folder seed/ does not exist; "
               "correct the setting, or create the folder\n")
    for command in (["check", "--strict"], ["build"], ["add", str(SEEDS / "000_1b8355006bbdabc6.txt")]):
        proc = _cli(config.root, *command)
        assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", message), command
    # `add` made no folder of the misspelt name, and nothing was built.
    assert not (config.root / "seed").exists()
    assert [p.name for p in (config.root / "build").iterdir()] == [".gitignore"]
    with pytest.raises(ConfigError, match=r"extra\.readinglist\.seeds: the folder seed/ does not exist"):
        build(load_config(config.root / "mkdocs.yml"), write=False)


def test_without_the_setting_add_makes_the_default_seeds_folder_and_build_names_it(
        project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    _edit(config, "    seeds: seeds\n", "")
    (config.root / "seeds").rmdir()
    proc = _cli(config.root, "check")
    assert (proc.returncode, proc.stderr) == (2, (
        "readinglist: error: mkdocs.yml: the seeds folder seeds/ does not exist (extra.readinglist.seeds, by "
        "default seeds); create it (mkdir seeds), or set extra.readinglist.seeds\n"))
    proc = _cli(config.root, "add", str(SEEDS / "000_1b8355006bbdabc6.txt"))
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in (config.root / "seeds").iterdir()] == ["2025-08-08-000_1b8355006bbdabc6.txt"]


def test_unknown_keys_warn_with_the_line_and_the_closest_known_key(project: Callable[..., Config]) -> None:
    config = project()
    _edit(config, "    related:\n", "    relatd:\n")
    _edit(config, "extra:\n", "extras:\n  analytics: x\nextra:\n")
    _edit(config, "      min_score: 0.08\n", "      min_score: 0.08\n      cuont: 3\n")
    relatd, extras = _line(config, "    relatd:"), _line(config, "extras:")
    # On every load (the plugin's builds too): the keys under extra.readinglist.
    loaded = load_config(config.root / "mkdocs.yml")
    assert [str(p) for p in loaded.problems] == [
        f"mkdocs.yml:{relatd}: warning: unknown setting `relatd` under extra.readinglist, ignored (did you "
        "mean `related`?)"]
    # The command line checks MkDocs' own settings too; --strict fails on them.
    proc = _cli(config.root, "check", "--strict")
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[:2] == [
        f"mkdocs.yml:{extras}: warning: unknown setting `extras`, ignored (did you mean `extra`?)",
        f"mkdocs.yml:{relatd}: warning: unknown setting `relatd` under extra.readinglist, ignored (did you "
        "mean `related`?)"]
    assert proc.stdout.endswith(", 2 warnings\n")
    # `cuont` is under `relatd`, which is not read at all: one warning for it is enough.
    assert "cuont" not in proc.stderr


def test_an_unknown_key_far_from_any_lists_the_known_ones(tmp_path: Path) -> None:
    (tmp_path / "seeds").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nextra:\n  readinglist:\n    zebra: red\n"
                                         "    related:\n      best: 2\n", encoding="utf-8")
    assert [str(p) for p in load_config(tmp_path / "mkdocs.yml").problems] == [
        "mkdocs.yml:4: warning: unknown setting `zebra` under extra.readinglist, ignored (known: seeds, content, "
        "registry, related, page_size, feed_entries, keep_replacements, citation_styles, edit_url, contact, keep, "
        "tag_feeds, tag_downloads, size_warning_mb)",
        "mkdocs.yml:6: warning: unknown setting `best` under extra.readinglist.related, ignored (known: count, "
        "min_score)"]


@pytest.mark.parametrize(("old", "new", "what"), [
    ("  - readinglist\n", "  - readinglst\n", "plugin `readinglst` is not installed (did you mean `readinglist`?); "
                                              "installed plugins: "),
    ("  name: readinglist\n", "  name: readinglst\n", "theme `readinglst` is not installed (did you mean "
                                                      "`readinglist`?); installed themes: "),
])
def test_a_misspelt_plugin_or_theme_is_named_with_what_is_installed(project: Callable[..., Config], old: str,
                                                                      new: str, what: str) -> None:
    config = project()
    _edit(config, old, new)
    line = _line(config, new.rstrip("\n"))
    proc = _cli(config.root, "check")
    assert proc.returncode == 1
    [message] = proc.stderr.splitlines()
    assert message.startswith(f"mkdocs.yml:{line}: error: {what}")
    installed = message.split(": ")[-1].split(", ")
    kind = "plugins" if "plugin" in what else "themes"
    assert "readinglist" in installed and ("material/search" in installed if kind == "plugins" else
                                           "material" in installed)
    assert proc.stdout.endswith(", 0 warnings, 1 error\n")
    # serve says it at once, and does not start (it used to build, then seem stuck).
    proc = _cli(config.root, "serve", "--port", "0")
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [
        message, "readinglist: error: not serving until mkdocs.yml is corrected (above)"])
    assert [p.name for p in (config.root / "build").iterdir()] == [".gitignore"]


PLAIN = "site_name: My docs\nnav:\n  - index.md\n"


@pytest.mark.parametrize("command", [["add", str(SEEDS / "000_1b8355006bbdabc6.txt")], ["build"], ["check"],
                                     ["serve", "--port", "0"], ["watch"], ["note", "x"]])
def test_a_plain_mkdocs_project_is_no_reading_list_and_nothing_is_written(tmp_path: Path,
                                                                            command: list[str]) -> None:
    (tmp_path / "mkdocs.yml").write_text(PLAIN, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Hello\n", encoding="utf-8")
    proc = _cli(tmp_path, *command)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("readinglist: error: mkdocs.yml uses no readinglist plugin, theme or settings: it is a "
                           "plain MkDocs project, not a reading list; nothing was written. Start a list in a new "
                           "folder: readinglist init my-list\n")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["docs", "index.md", "mkdocs.yml"]
