"""`readinglist build --engine zensical` leaves the theme's own files out of the site, and only them
(generator/site/zensical.py); the whole build is checked in tests/site/browser/test_links_three_builds.py."""

from __future__ import annotations

from pathlib import Path

from generator.config import load_config
from generator.site.zensical import remove_theme_files, site_dir
from tests.conftest import ROOT


def test_only_the_theme_s_own_copies_are_removed(tmp_path: Path) -> None:
    site = tmp_path / "public"
    site.mkdir()
    theme = ROOT / "generator" / "theme"
    (site / "__init__.py").write_bytes((theme / "__init__.py").read_bytes())
    (site / "mkdocs_theme.yml").write_text("# the list's own file of that name\n", encoding="utf-8")
    (site / "index.html").write_text("<p>page</p>", encoding="utf-8")
    assert remove_theme_files(site) == ["__init__.py"]
    assert sorted(p.name for p in site.iterdir()) == ["index.html", "mkdocs_theme.yml"]


def test_the_site_folder_is_mkdocs_yml_s(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nsite_url: !ENV [SITE_URL, 'http://127.0.0.1:8000/']\nsite_dir: public\n",
                      encoding="utf-8")
    assert site_dir(load_config(config)) == (tmp_path / "public").resolve()
    config.write_text("site_name: x\n", encoding="utf-8")
    assert site_dir(load_config(config)) == (tmp_path / "site").resolve()


def test_the_theme_module_s_byte_code_is_removed_and_a_folder_of_the_list_s_own_stays(tmp_path: Path) -> None:
    import py_compile

    theme = ROOT / "generator" / "theme"
    compiled = Path(py_compile.compile(str(theme / "__init__.py"), doraise=True))  # as an installed wheel has it
    site = tmp_path / "site"
    (site / "__pycache__").mkdir(parents=True)
    (site / "__pycache__" / compiled.name).write_bytes(compiled.read_bytes())
    assert remove_theme_files(site) == ["__pycache__"]
    assert not (site / "__pycache__").exists()
    (site / "__pycache__").mkdir()
    (site / "__pycache__" / "mine.txt").write_text("the list's own\n", encoding="utf-8")
    assert remove_theme_files(site) == []
    assert (site / "__pycache__" / "mine.txt").is_file()
