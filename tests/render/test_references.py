"""Formatted references (render/references.py): golden APA and IEEE text for a few seed papers (the
accented, the anonymous, the untitled, the particle and the math ones), the style's own "et al."
for a truncated list, no TeX anywhere, and the persistent cache: pages with the cache equal
pages without it, and a warm cache formats nothing. Regenerate the golden files: `make golden`."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

from generator.build import BuildResult, build
from generator.config import load_config
from generator.errors import ConfigError
from generator.model import evolve
from generator.render import references
from generator.render.csl import csl_item
from generator.render.references import References, cite_tabs, format_reference
from tests.conftest import as_terminal, copy_project

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "references"
UPDATE = os.environ.get("READINGLIST_UPDATE_GOLDEN") == "1"
# Accented (Kujanpää), anonymous, untitled (and accented: Grünefeld, Højer), particles
# (Alfonso de Jesús Navas Gómez), math in the title ($\mathsf{VISTA}$), TMLR accepted.
KEYS = ["kujanpaa2025efficient", "anonymous2025deepseekr1", "grunefeld2026untitled",
        "decelle2026distributional", "nodehi2026vista", "maron2025oneshot"]
_BLOCKS = re.compile(r'<div class="tabbed-block"><div class="highlight"><pre><span></span><code>(.*?)</code>', re.S)
_LABELS = re.compile(r'<label for="__tabbed_1_\d">([^<]*)</label>')


def shown(page: str) -> dict[str, str]:
    """The page's tabs: label -> the text of its block, as a reader copies it."""
    return dict(zip(_LABELS.findall(page), (html.unescape(b) for b in _BLOCKS.findall(page)), strict=True))


def test_golden_formatted_references(seed_build: BuildResult) -> None:
    by_key = {p.key: p for p in seed_build.library.papers}
    for key in KEYS:
        tabs = shown(seed_build.files[f"papers/{by_key[key].slug}/index.md"])
        assert list(tabs) == ["BibTeX", "APA", "IEEE"]
        text = "".join(f"{label}: {tabs[label]}\n" for label in ("APA", "IEEE"))
        path = GOLDEN / f"{key}.txt"
        if UPDATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no golden file {path}; run `make golden`"
        assert text == path.read_text(encoding="utf-8"), f"{key}: formatted references differ from the golden file"


def test_every_seed_reference_is_plain_text(seed_build: BuildResult) -> None:
    for paper in seed_build.library.papers:
        tabs = shown(seed_build.files[f"papers/{paper.slug}/index.md"])
        for label in ("APA", "IEEE"):
            text = tabs[label]
            assert not re.search(r"[\\${}]", text), (paper.key, text)
            assert not text.startswith("["), (paper.key, text)  # IEEE's "[1]" dropped: one paper per page
            assert "  " not in text and text == text.strip()
            assert ".-." not in text and " ." not in text, (paper.key, text)  # no broken initials
        assert tabs["BibTeX"] == paper.bibtex.rstrip("\n") or tabs["BibTeX"].startswith("@")


def test_a_truncated_author_list_gets_the_style_s_et_al(seed_build: BuildResult) -> None:
    paper = next(p for p in seed_build.library.papers if p.key == "maron2025oneshot")
    item = csl_item(evolve(paper, authors_complete=False), abstract=False)
    assert format_reference(item, "apa").startswith("Maron, C., Fresse, V., ORZALESI, et al. (2025). One-Shot")
    assert format_reference(item, "ieee").startswith("C. Maron, V. Fresse, ORZALESI, et al., “One-Shot")
    one = csl_item(evolve(paper, authors=("Cedric Maron",), authors_complete=False), abstract=False)
    assert format_reference(one, "apa").startswith("Maron, C. et al. (2025).")
    assert format_reference(one, "ieee").startswith("C. Maron et al., “One-Shot")
    # Complete lists as the style shortens them itself (IEEE: more than six names).
    many = csl_item(evolve(paper, authors=tuple(f"Author Number{i}" for i in range(8))), abstract=False)
    assert format_reference(many, "ieee").startswith("A. Number0 et al., ")
    assert "Number7" in format_reference(many, "apa")


def test_pages_with_the_cache_equal_pages_without_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(copy_project(tmp_path))
    monkeypatch.setenv("READINGLIST_CACHE", "off")
    monkeypatch.setenv("READINGLIST_REFERENCE_CACHE", "off")
    off = build(config).files
    assert not (tmp_path / ".readinglist-cache").exists()
    monkeypatch.setenv("READINGLIST_CACHE", "on")
    monkeypatch.setenv("READINGLIST_REFERENCE_CACHE", "on")
    # `check` writes nothing, the reference cache included; a build keeps it.
    build(config, write=False)
    assert not (tmp_path / ".readinglist-cache").exists()
    cold = build(config).files
    cache = tmp_path / ".readinglist-cache" / references.CACHE_FILE
    assert cache.is_file()

    def refuse(item: object, style: str) -> str:
        raise AssertionError("a warm cache formats nothing")

    monkeypatch.setattr(references, "format_reference", refuse)
    warm = build(config, write=False).files
    papers = [path for path in off if path.startswith("papers/")]
    assert len(papers) == 41
    for path in papers:
        assert cold[path] == off[path] == warm[path], path
    # Only what a build used is kept: a changed title formats that paper again, and its old text goes.
    monkeypatch.undo()
    refs = References(("apa", "ieee"), cache)
    assert len(refs.stored) == 2 * 41
    paper = build(config, write=False).library.papers[0]
    changed = evolve(paper, title="A New Title")
    assert refs.of(changed)[0][1] != refs.of(paper)[0][1]
    assert refs.formatted == 2  # the new title in both styles; the old one came from the cache


def test_styles_are_a_setting(tmp_path: Path) -> None:
    mkdocs_yml = copy_project(tmp_path)
    text = mkdocs_yml.read_text(encoding="utf-8")
    mkdocs_yml.write_text(text.replace("citation_styles: [apa, ieee]", "citation_styles: [chicago-author-date]"))
    files = build(load_config(mkdocs_yml), write=False).files
    path = next(path for path in files if path.startswith("papers/"))
    assert list(shown(files[path])) == ["BibTeX", "Chicago"]
    mkdocs_yml.write_text(text.replace("citation_styles: [apa, ieee]", "citation_styles: []"))
    page = build(load_config(mkdocs_yml), write=False).files[path]
    assert "tabbed-set" not in page and '<h2 id="bibtex">' in page
    mkdocs_yml.write_text(text.replace("citation_styles: [apa, ieee]", "citation_styles: [no-such-style]"))
    with pytest.raises(ConfigError, match="no-such-style"):
        build(load_config(mkdocs_yml), write=False)


def test_tabs_are_material_s_markup() -> None:
    tabs = cite_tabs('<div class="highlight"><pre><span></span><code>@misc{x}</code></pre></div>', [("APA", "A & B.")])
    # `#bibtex` (the section's old anchor) still lands on the tabs.
    assert tabs.startswith('<div id="bibtex"></div>\n<div class="tabbed-set tabbed-alternate rl-refs" data-tabs="1:2">'
                           '<input checked id="__tabbed_1_1" name="__tabbed_1" type="radio">')
    assert '<div class="tabbed-labels"><label for="__tabbed_1_1">BibTeX</label><label for="__tabbed_1_2">APA' in tabs
    assert "<code>A &amp; B.</code>" in tabs


def test_references_formatted_in_worker_processes_equal_the_serial_ones(
        seed_build: BuildResult, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle for runtime/parallel.py: the first build of a big list formats its references in
    worker processes; they must be the very texts one process makes."""
    papers = list(seed_build.library.papers)
    monkeypatch.setenv("READINGLIST_WORKERS", "1")
    serial = References(("apa", "ieee"), None)
    serial.prepare(papers)
    assert serial.formatted == 2 * len(papers) == 82

    monkeypatch.setenv("READINGLIST_WORKERS", "2")
    monkeypatch.setattr(references, "_MIN_PER_WORKER", 10)  # 82 references: enough for two workers

    def refuse(item: object, style: str) -> str:
        raise AssertionError("formatted in this process, not in a worker")

    monkeypatch.setattr(references, "format_reference", refuse)  # the workers import the module afresh
    spread = References(("apa", "ieee"), None)
    spread.prepare(papers)
    assert spread.used == serial.used
    assert [spread.of(p) for p in papers] == [serial.of(p) for p in papers]
    by_key = {p.key: p for p in papers}
    assert spread.of(by_key["maron2025oneshot"])[0][1].startswith("Maron, C., Fresse, V., & ORZALESI. (2025). One-Shot")


def test_hyphenated_given_names_get_hyphenated_initials() -> None:
    """citeproc-py made `E.-. ji .` of `Eun-ji`; Korean and French given names are common."""
    def names(*given: str) -> dict[str, object]:
        return {"id": "li2025title", "type": "article", "title": "A Title", "publisher": "arXiv", "genre": "Preprint",
                "author": [{"family": "Li", "given": g} for g in given], "issued": {"date-parts": [[2025]]}}

    item = names("Eun-ji", "Jean-Pierre", "Hyun-Woo", "Anne-Marie Louise")
    assert format_reference(item, "apa") == ("Li, E.-J., Li, J.-P., Li, H.-W., & Li, A.-M. L. (2025). "
                                             "A Title [Preprint]. arXiv.")
    assert format_reference(item, "ieee") == "E.-J. Li, J.-P. Li, H.-W. Li, and A.-M. L. Li, “A Title,” 2025, arXiv."
    assert item["author"][0] == {"family": "Li", "given": "Eun-ji"}  # the item itself is left as it was


def test_the_first_build_counts_its_references_on_a_terminal(
        seed_build: BuildResult, monkeypatch: pytest.MonkeyPatch) -> None:
    """Formatting a big list's references takes a minute: a terminal is shown how far it is."""
    monkeypatch.setenv("READINGLIST_WORKERS", "1")
    terminal = as_terminal(monkeypatch)
    refs = References(("apa", "ieee"), None)
    refs.prepare(list(seed_build.library.papers))
    assert "readinglist: formatting references 82/82" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\x1b[K")
    terminal.seek(0)
    terminal.truncate()
    refs.prepare(list(seed_build.library.papers))  # nothing left to format: no line
    assert terminal.getvalue() == ""
