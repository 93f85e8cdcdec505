"""CSL-JSON and RIS exports (render/citefiles.py): pandoc's citeproc renders every CSL-JSON item and
every BibTeX entry of the seeds without a warning; rispy reads every RIS record back with the same
titles and authors; the types, names and fields follow the issue's mapping."""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from generator.build import BuildResult, build
from generator.config import load_config
from generator.model import Library
from generator.render.citefiles import csl_items, reference_files
from generator.render.csl import csl_item, title_text
from tests.conftest import copy_project, require_tool

NOCITE = "---\nnocite: '@*'\n---\n"


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = tmp_path_factory.mktemp("citefiles")
    return build(load_config(copy_project(root)), write=False)


def items(result: BuildResult, path: str = "references.json") -> list[dict[str, Any]]:
    return json.loads(result.files[path])  # type: ignore[no-any-return]


def citeproc(tmp_path: Path, name: str, text: str) -> tuple[str, str]:
    """pandoc --citeproc over every entry of a bibliography file: (HTML, stderr)."""
    pandoc = require_tool("pandoc")
    (tmp_path / name).write_text(text, encoding="utf-8")
    proc = subprocess.run([pandoc, "--citeproc", "--bibliography", name, "-f", "markdown", "-t", "html"],
                          input=NOCITE, capture_output=True, text=True, cwd=tmp_path, timeout=120, check=True)
    return proc.stdout, proc.stderr


@pytest.mark.parametrize("name", ["references.json", "references.bib"])
def test_pandoc_citeproc_renders_every_item_without_a_warning(seeds: BuildResult, tmp_path: Path,
                                                              name: str) -> None:
    html, errors = citeproc(tmp_path, name, seeds.files[name])
    assert errors == ""
    keys = {p.key for p in seeds.library.papers}
    assert set(re.findall(r'<div id="ref-([^"]+)" class="csl-entry"', html)) == keys
    assert "\\" not in html and "$" not in html  # no TeX markup in any reference


@pytest.mark.parametrize("name", ["references.json", "references.bib", "references.ris"])
def test_the_mixed_list_exports_cleanly(mixed_build: BuildResult, tmp_path: Path, name: str) -> None:
    """Papers from arXiv e-mails, feeds, API results and a .bib file (tests/fixtures/mixed): pandoc
    reads every CSL-JSON item and BibTeX entry without a warning; rispy every RIS record."""
    keys = {p.key for p in mixed_build.library.papers}
    if name == "references.ris":
        import rispy

        assert {r["id"] for r in rispy.loads(mixed_build.files[name])} == keys
        return
    html, errors = citeproc(tmp_path, name, mixed_build.files[name])
    assert errors == ""
    assert set(re.findall(r'<div id="ref-([^"]+)" class="csl-entry"', html)) == keys
    assert "\\" not in html and "$" not in html


def test_each_tag_and_digest_bib_has_its_papers_in_the_root_csl_json_and_ris(seeds: BuildResult) -> None:
    """A tag's and a digest's own download is its .bib; its papers' CSL-JSON items and RIS records
    are the whole list's, once (issue 46): no .json or .ris beside any tag's or digest's .bib."""
    root = [item["id"] for item in items(seeds)]
    ris = re.findall(r"^ID  - (.+)$", seeds.files["references.ris"], flags=re.M)
    assert root == ris == [p.key for p in seeds.library.papers]
    bibs = [path for path in seeds.files if path.endswith(".bib") and path != "references.bib"]
    assert len(bibs) > 10
    for bib in bibs:
        keys = re.findall(r"^@\w+\{([^,]+),", seeds.files[bib], flags=re.M)
        assert keys and set(keys) <= set(root), bib
        assert bib[:-4] + ".json" not in seeds.files and bib[:-4] + ".ris" not in seeds.files


def test_rispy_reads_back_every_record_with_the_same_titles_and_authors(seeds: BuildResult) -> None:
    import rispy

    records = rispy.loads(seeds.files["references.ris"])
    by_key = {p.key: p for p in seeds.library.papers}
    assert [r["id"] for r in records] == [p.key for p in seeds.library.papers]
    for record in records:
        paper = by_key[record["id"]]
        item = csl_item(paper)
        assert record.get("title") == item.get("title")
        assert record.get("title") == (None if paper.title_missing else title_text(paper.title))
        expected = [_ris_name(n) for n in item["author"]]
        assert record["authors"] == expected
        assert record["type_of_reference"] == ("JOUR" if item["type"] == "article-journal" else "UNPB")
        assert record.get("abstract") == (" ".join(paper.abstract.split()) or None)
        assert record.get("url") == ([paper.url] if paper.url else None) or record.get("urls") == [paper.url]


def _ris_name(name: dict[str, str]) -> str:
    if "literal" in name:
        return name["literal"]
    family = " ".join(filter(None, [name.get("non-dropping-particle"), name["family"]]))
    return ", ".join(filter(None, [family, name.get("given")]))


def test_types_and_fields_follow_the_venue_and_status(seeds: BuildResult) -> None:
    by_key = {item["id"]: item for item in items(seeds)}
    maron = by_key["maron2025oneshot"]
    assert maron["type"] == "article-journal"
    assert (maron["container-title"], maron["ISSN"]) == ("Transactions on Machine Learning Research", "2835-8856")
    assert maron["author"] == [{"family": "Maron", "given": "Cedric"}, {"family": "Fresse", "given": "Virginie"},
                               {"family": "ORZALESI"}]
    assert maron["issued"] == {"date-parts": [[2025, 8]]}
    assert maron["URL"] == "https://openreview.net/forum?id=ENdm5BM7aF" and maron["abstract"]
    anonymous = by_key["anonymous2025deepseekr1"]
    assert anonymous["type"] == "article"
    assert anonymous["author"] == [{"literal": "Anonymous"}]
    assert anonymous["genre"] == "Under review at Transactions on Machine Learning Research"
    assert anonymous["publisher"] == "OpenReview"
    untitled = by_key["grunefeld2026untitled"]
    assert "title" not in untitled  # the page's placeholder title is no title to cite
    assert untitled["author"][0] == {"family": "Grünefeld", "given": "Nils"}
    assert (untitled["type"], untitled["publisher"]) == ("article", "arXiv")
    assert by_key["nodehi2026vista"]["title"].startswith("VISTA: Decentralized")


def test_names_ids_and_truncated_lists(seeds: BuildResult) -> None:
    paper = seeds.library.papers[0]
    odd = replace(paper, authors=("Johannes Diderik van der Waals", "Alfonso de Jesús Navas Gómez",
                                 "Martin Luther King Jr.", "ORZALESI"), authors_complete=False,
                 arxiv_id="2501.01234", doi="10.48550/arXiv.2501.01234", venue="arXiv", status="preprint",
                 title="$\\alpha$-Divergence in $O(n^2)$ with \\emph{Style}")
    item = csl_item(odd)
    assert item["author"] == [
        {"family": "Waals", "given": "Johannes Diderik", "non-dropping-particle": "van der"},
        {"family": "Navas Gómez", "given": "Alfonso de Jesús"},
        {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
        {"family": "ORZALESI"}, {"literal": "others"}]
    assert item["title"] == "α-Divergence in O(n²) with Style"
    assert (item["type"], item["number"], item["DOI"]) == ("article", "2501.01234", "10.48550/arXiv.2501.01234")
    # The record references.ris holds for it, as a build of a list of that one paper writes it.
    library = Library(papers=[odd])
    ris = reference_files(library, csl_items(library.papers))["references.ris"]
    assert "AU  - van der Waals, Johannes Diderik\nAU  - Navas Gómez, Alfonso de Jesús\n" in ris
    assert "AU  - King, Martin Luther, Jr.\nAU  - ORZALESI\nPY  - " in ris  # RIS has no "et al."
    assert "TY  - UNPB" in ris and "AN  - 2501.01234" in ris and "DO  - 10.48550/arXiv.2501.01234" in ris
    # A curator's spelling (content/names.yml) wins, as in the BibTeX entry.
    spelled = replace(paper, authors=("Gabi Dreo Rodosek",), bib_names=("Dreo Rodosek, Gabi",))
    assert csl_item(spelled)["author"] == [{"family": "Dreo Rodosek", "given": "Gabi"}]


def test_home_tag_and_digest_pages_link_the_files(seeds: BuildResult) -> None:
    home = seeds.files["index.md"]
    assert "[references.json](references.json) (CSL-JSON)" in home
    assert "[references.ris](references.ris) (RIS)" in home
    # A tag's and a digest's own download is BibTeX; the other formats are the whole list's, once.
    tag = seeds.files["tags/reasoning/index.md"]
    assert 'href="../reasoning.bib">BibTeX of all ' in tag
    assert ('CSL-JSON and RIS of every paper: <a href="../../references.json">references.json</a>, '
            '<a href="../../references.ris">references.ris</a>') in tag
    digest = next(p for p in seeds.files if p.startswith("digests/0") and p.endswith(".md"))
    slug = digest[len("digests/"):-len("/index.md")]
    page = seeds.files[digest]
    assert f'<a href="../{slug}.bib">BibTeX</a>' in page
    assert ('CSL-JSON and RIS of every paper: <a href="../../references.json">references.json</a>, '
            '<a href="../../references.ris">references.ris</a>') in page
    assert not any(p.startswith(("tags/", "digests/")) and p.endswith((".json", ".ris")) for p in seeds.files)


def test_an_item_without_its_abstract_is_the_short_item(seeds: BuildResult) -> None:
    """The tag and digest files and the formatted references take the root file's item without
    its abstract (csl.short): the very item csl_item makes without one, in the same order."""
    from generator.render.citefiles import csl_items
    from generator.render.csl import short

    made_items = csl_items(seeds.library.papers)
    with_abstract = 0
    for paper in seeds.library.papers:
        made = csl_item(paper, abstract=False)
        assert list(short(made_items[paper.id]).items()) == list(made.items()), paper.key
        with_abstract += "abstract" in made_items[paper.id]
    assert with_abstract >= 40  # the seeds' papers all but one have abstracts


def test_root_files_hold_each_whole_item_and_record(seeds: BuildResult) -> None:
    """references.json|.ris hold every paper's whole item and record, abstract included."""
    from generator.render.citefiles import csl_items, csl_json, json_line
    from generator.render.ris import ris_from_item

    made = csl_items(seeds.library.papers)
    whole = [made[p.id] for p in seeds.library.papers]
    assert seeds.files["references.json"] == csl_json(json_line(item) for item in whole)
    assert seeds.files["references.ris"] == "".join(ris_from_item(item) for item in whole)
    assert sum('"abstract":' in line for line in seeds.files["references.json"].splitlines()) >= 40
