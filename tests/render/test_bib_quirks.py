"""Issue 45: the bibliographies researchers already have, read as BibTeX reads them, cited exactly.

Real inputs: two PhD theses' bibliographies (tests/fixtures/real/thesis-*.bib) and a NASA ADS
export (tests/fixtures/real/ads-cosmobib.bib; sources in that folder's README), built as a
curator would (`seeds/`). The inputs no real file here shows (an author list in one brace group,
`K. A. Olive et al.`, a trailing comma, a repeated field, an undefined macro, a translator and a
subtitle) are written below, after the examples the issue quotes. One test per class of the
issue; each fails on the code before it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import rispy
from pybtex.database import parse_string

from generator.build import BuildResult, build
from generator.config import load_config
from generator.enrich.bibtex import bib_name
from generator.enrich.keys import base_key
from generator.errors import Problems
from generator.model import Paper
from generator.render.citefiles import csl_items
from generator.render.venue import venue_line
from generator.sources import read_digest
from tests.conftest import FIXTURES, copy_project, require_tool

THESES = [FIXTURES / "real" / "thesis-trettin-refs.bib", FIXTURES / "real" / "thesis-lyttle-references.bib"]


def _build(dest: Path, files: list[Path]) -> BuildResult:
    config = copy_project(dest, seeds=False)
    for path in files:
        shutil.copy(path, dest / "seeds" / path.name)
    return build(load_config(config), write=False)


@pytest.fixture(scope="module")
def theses(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return _build(tmp_path_factory.mktemp("theses"), THESES)


def _papers(result: BuildResult) -> dict[str, Paper]:
    return {p.key: p for p in result.library.papers}


def _items(result: BuildResult) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in csl_items(result.library.papers).values()}


def _refs(result: BuildResult, key: str) -> dict[str, str]:
    assert result.references is not None
    return dict(result.references.of(_papers(result)[key]))


def _record(result: BuildResult, key: str) -> dict[str, Any]:
    return next(r for r in json.loads(result.files["papers.json"]) if r["key"] == key)


def _page(result: BuildResult, key: str) -> str:
    return result.files[_papers(result)[key].page + "index.md"]


# 1. Corporate authors ------------------------------------------------------------------------


def test_a_corporate_author_is_one_literal_name_everywhere(theses: BuildResult) -> None:
    items = _items(theses)
    assert items["LEP2006"]["author"] == [{"literal": "ALEPH Collaboration"}, {"literal": "others"}]
    assert items["AIRS"]["author"] == [{"literal": "Jet Propulsion Laboratory"}]
    assert items["AstropyCollaboration.Robitaille.ea2013"]["author"][:2] == [
        {"literal": "Astropy Collaboration"}, {"family": "Robitaille", "given": "Thomas P."}]
    assert _refs(theses, "AIRS") == {
        "APA": "Jet Propulsion Laboratory. (2014). AIRS/AMSU/HSB Version 6 Level 3 Product User Guide. Version 1.2.",
        "IEEE": "Jet Propulsion Laboratory, “AIRS/AMSU/HSB Version 6 Level 3 Product User Guide,” Version 1.2, "
                "Nov. 2014."}
    assert _refs(theses, "LEP2006")["APA"].startswith("ALEPH Collaboration et al. (2006). Precision electroweak")
    assert _refs(theses, "LEP2006")["IEEE"].startswith("ALEPH Collaboration et al., “Precision electroweak")
    ris = {r["id"]: r for r in rispy.loads(theses.files["references.ris"])}
    assert ris["LEP2006"]["authors"] == ["ALEPH Collaboration"]
    assert ris["AstropyCollaboration.Robitaille.ea2013"]["authors"][:2] == ["Astropy Collaboration",
                                                                           "Robitaille, Thomas P."]
    # The page, papers.json and the feed name it as one; the published entry keeps its braces.
    assert _record(theses, "AIRS")["authors"] == ["Jet Propulsion Laboratory"]
    assert "<name>Jet Propulsion Laboratory</name>" in theses.files["feed.xml"]
    [entry] = [e for k, e in parse_string(theses.files["references.bib"], "bibtex").entries.items() if k == "LEP2006"]
    assert [str(p) for p in entry.persons["author"]] == ["{ALEPH Collaboration}", "others"]
    # A key made for it (as for a paper of any other source) takes the whole name, not "Laboratory".
    assert base_key(_papers(theses)["AIRS"]) == "jetpropulsionlaboratory2014airsamsuhsb"
    assert bib_name("Jet Propulsion Laboratory", "{Jet Propulsion Laboratory}") == "{Jet Propulsion Laboratory}"



def test_an_accent_written_for_both_tex_modes_is_one_letter(theses: BuildResult) -> None:
    """Physical Review's exports write `Senjanovi\\ifmmode \\acute{c}\\else \\'{c}\\fi{}`: one
    letter (both branches came out: `Senjanovićć`, `ČČerenkov`)."""
    papers = _papers(theses)
    assert papers["PhysRev.52.378"].authors == ("P. A. Čerenkov",)
    assert papers["PhysRevLett.44.912"].authors == ("Rabindra N. Mohapatra", "Goran Senjanović")
    assert _refs(theses, "PhysRevLett.44.912")["APA"].startswith("Mohapatra, R. N., & Senjanović, G. (1980).")


AMBIGUOUS = """@misc{git,
  author = {{Hamano, Junio and Torvalds, Linus and others}},
  title = {Git},
  year = {2005},
}

@article{pdg,
  author = {K. A. Olive et al.},
  title = {Review of Particle Physics},
  journal = {Chin. Phys. C},
  year = {2014},
}

@inproceedings{niedoba,
  author = {Niedoba, Matthew, and Wood, Frank},
  title = {Nearest Neighbour Score Estimators for Diffusion Generative Models},
  booktitle = {Proceedings of the 41st International Conference on Machine Learning},
  year = {2024},
}
"""


def _pandoc_csl(path: Path) -> dict[str, dict[str, Any]]:
    proc = subprocess.run([require_tool("pandoc"), "-f", "biblatex", "-t", "csljson", str(path)],
                          capture_output=True, text=True, timeout=120, check=True)
    return {item["id"]: item for item in json.loads(proc.stdout)}


def test_ambiguous_author_lists_are_read_as_bibtex_reads_them_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "odd.bib"
    path.write_text(AMBIGUOUS, encoding="utf-8")
    problems = Problems()
    raw = read_digest(path, "seeds/odd.bib", problems)
    assert raw is not None
    assert [str(p) for p in problems] == [
        "seeds/odd.bib:1: warning: entry 'git': the author list is one brace group ({Hamano, Junio and Torvalds, "
        "Linus and others}), which BibTeX reads as one name; kept as one name (write the names without the outer "
        "braces, joined by `and`)",
        "seeds/odd.bib:7: warning: entry 'pdg': the author list has `K. A. Olive et al.`, which BibTeX reads as one "
        "person with the family name `al.`; kept so (write `and others` for a truncated list)",
        "seeds/odd.bib:14: warning: entry 'niedoba': the author list has `Niedoba, Matthew,`, whose trailing comma "
        "BibTeX reads as a name with no given name and `Matthew` as its `Jr` part; kept so (remove the comma)"]
    mine = {p.bib_key: {"authors": list(p.authors)} for p in raw.papers}
    assert mine["git"]["authors"] == ["Hamano, Junio and Torvalds, Linus and others"]
    items = {i["id"]: i for i in csl_items([replace(p, key=p.bib_key) for p in raw.papers]).values()}
    theirs = _pandoc_csl(path)
    # The CSL names are pandoc's reading of the same entries (its BibTeX reader splits as BibTeX
    # does), except that pandoc calls `et` a dropping particle: ours, as every `von` part, does not drop.
    assert items["git"]["author"] == theirs["git"]["author"] == [
        {"literal": "Hamano, Junio and Torvalds, Linus and others"}]
    assert items["niedoba"]["author"] == theirs["niedoba"]["author"] == [
        {"family": "Niedoba", "suffix": "Matthew"}, {"family": "Wood", "given": "Frank"}]
    assert items["pdg"]["author"] == [{"family": "al.", "given": "K. A. Olive", "non-dropping-particle": "et"}]
    assert theirs["pdg"]["author"] == [{"family": "al.", "given": "K. A. Olive", "dropping-particle": "et"}]


# 2. Entries BibTeX keeps -------------------------------------------------------------------------

KEPT = """@string{jml = {Journal of Machine Learning}}

@article{dup2009,
  author = {Smith, Jane},
  title = {Learning Twice},
  journal = jml,
  year = {2009},
  year = {2010},
  url_Link = {https://a.example/paper},
  url_Link = {https://b.example/paper},
}

@article{undef2011,
  author = {Doe, John},
  title = {Learning Once},
  journal = jmlr,
  year = {2011},
}

@article{broken,
  author = {Roe, Richard}
  title = {A Missing Comma},
}
"""


def test_an_entry_with_a_repeated_field_or_an_undefined_macro_is_kept_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "kept.bib"
    path.write_text(KEPT, encoding="utf-8")
    problems = Problems()
    raw = read_digest(path, "seeds/kept.bib", problems)
    assert raw is not None
    papers = {p.bib_key: p for p in raw.papers}
    assert list(papers) == ["dup2009", "undef2011"]  # the missing comma still costs its entry
    assert papers["dup2009"].year == 2009 and papers["dup2009"].venue == "Journal of Machine Learning"
    assert dict(papers["dup2009"].bib_fields)["url_link"] == "https://a.example/paper"
    assert papers["undef2011"].title == "Learning Once" and papers["undef2011"].venue == ""
    messages = [str(p) for p in problems]
    assert messages[:3] == [
        "seeds/kept.bib:8: warning: field 'year' is repeated in the entry that starts at line 3; the first value "
        "is kept, as BibTeX does",
        "seeds/kept.bib:10: warning: field 'url_Link' is repeated in the entry that starts at line 3; the first "
        "value is kept, as BibTeX does",
        "seeds/kept.bib:16: warning: @string macro 'jmlr' is not defined before the entry that starts at line 13; "
        "read as empty text, as BibTeX does"]
    assert len(messages) == 4 and messages[3].startswith("seeds/kept.bib:22: error: BibTeX syntax error")
    # An undefined macro in a `@string` is reported once, at the definition, not at every entry after it.
    path.write_text("@string{a = b # { Journal}}\n\n@article{x1, author = {A, B}, title = {T1}, journal = a}\n\n"
                    "@article{x2, author = {A, B}, title = {T2}, journal = a}\n", encoding="utf-8")
    problems = Problems()
    raw = read_digest(path, "seeds/kept.bib", problems)
    assert raw is not None and [p.venue for p in raw.papers] == ["Journal", "Journal"]
    assert [str(p) for p in problems] == [
        "seeds/kept.bib:1: warning: @string macro 'b' is not defined before the @string definition that starts at "
        "line 1; read as empty text, as BibTeX does"]


# 3. Journals written as ADS macros ----------------------------------------------------------------


def test_an_ads_journal_macro_reads_as_the_journal_s_full_name(theses: BuildResult) -> None:
    papers, items = _papers(theses), _items(theses)
    assert papers["ic_deepcore_16"].venue == "The Astrophysical Journal"
    assert items["ic_deepcore_16"]["container-title"] == "The Astrophysical Journal"
    assert items["icetop_19"]["container-title"] == "Physical Review D"
    assert items["Addison.Wright.ea2021"]["container-title"] == "Monthly Notices of the Royal Astronomical Society"
    assert items["AstropyCollaboration.Robitaille.ea2013"]["container-title"] == "Astronomy and Astrophysics"
    assert "The Astrophysical Journal, 816(2), 75. https://doi.org/10.3847/0004-637X/816/2/75" in _refs(
        theses, "ic_deepcore_16")["APA"]
    assert "The Astronomical Journal, vol. 156, p. 123" in _refs(theses, "AstropyCollaboration.Price-Whelan.ea2018")[
        "IEEE"]
    bib = theses.files["references.bib"]
    assert "journal = {The Astrophysical Journal}" in bib and "journal = {Physical Review D}" in bib
    assert not re.search(r"\\(?:apj|prd|mnras|aap|aj|apjs)\b", bib)


def _compiled_bbl(result: BuildResult, tmp_path: Path) -> str:
    """The build's references.bib compiled with pdflatex + bibtex (plain), every key cited: LaTeX
    stops at no error (bibtex may warn, about entries kept from the curator's file); the .bbl's text."""
    pdflatex, bibtex_bin = require_tool("pdflatex"), require_tool("bibtex")
    (tmp_path / "references.bib").write_text(result.files["references.bib"], encoding="utf-8")
    keys = ",".join(p.key for p in result.library.papers)
    (tmp_path / "t.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\begin{document}\n"
        f"\\nocite{{{keys}}}\n\\bibliographystyle{{plain}}\n\\bibliography{{references}}\n\\end{{document}}\n",
        encoding="utf-8")
    latex = [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "t.tex"]
    for cmd in (latex, [bibtex_bin, "t"], latex):
        proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert proc.returncode in (0, 1) if cmd[0] == bibtex_bin else proc.returncode == 0, proc.stdout[-2000:]
    log = (tmp_path / "t.log").read_text(encoding="utf-8", errors="replace")
    assert "Undefined control sequence" not in log and not re.findall(r"^! ", log, flags=re.M)
    return " ".join((tmp_path / "t.bbl").read_text(encoding="utf-8").split())


@pytest.mark.tex
def test_the_published_bibtex_of_ads_entries_compiles_without_aas_macros(theses: BuildResult,
                                                                          tmp_path: Path) -> None:
    """LaTeX stopped at each `\\apj` (undefined without aas_macros.sty). bibtex's own warnings on
    entries kept from the curator's file (an `@article` without a journal, ...) are the entries'."""
    bbl = _compiled_bbl(theses, tmp_path)
    assert "{\\em The Astrophysical Journal}, 816(2):75" in bbl


# 4. Formatted references --------------------------------------------------------------------------

BOOK = """@book{eco,
  author = {Eco, Umberto},
  translator = {Weaver, William},
  title = {The Name of the Rose},
  subtitle = {A Novel},
  publisher = {Harcourt Brace Jovanovich},
  year = {1983},
}
"""


def test_formatted_references_are_as_pandoc_prints_them(theses: BuildResult, tmp_path: Path) -> None:
    # "?" ends the title: no "?." after it.
    assert _refs(theses, "Diaz_2020")["APA"].startswith(
        "Diaz, A., Argüelles, C. A., Collin, G. H., Conrad, J. M., & Shaevitz, M. H. (2020). Where are we with "
        "light sterile neutrinos? Physics Reports, 884, 1–59.")
    assert "What Is Their Origin? Astronomy and Astrophysics, 576, L12." in _refs(
        theses, "Chiappini.Anders.ea2015")["APA"]
    # A thesis without a number has no "(Publication)".
    assert _refs(theses, "domeff_jake")["APA"] == (
        "Feintzeig, J. (2014). Searches for point-like sources of astrophysical neutrinos with the IceCube Neutrino "
        "Observatory [PhD thesis]. Wisconsin U., Madison.")
    # An eprint without an address: its arXiv page, as pandoc reads `eprint` + `archivePrefix`.
    assert _items(theses)["Abadi.Barham.ea2016"]["URL"] == "https://arxiv.org/abs/1605.08695"
    assert _refs(theses, "Abadi.Barham.ea2016")["APA"].endswith(
        "(2016). TensorFlow: A System for Large-Scale Machine Learning. arXiv E-prints. "
        "https://arxiv.org/abs/1605.08695")
    # A year-only entry keeps its year alone: papers.json too.
    assert _record(theses, "KDE")["date"] == "2007"
    assert _record(theses, "giunti-kim-neutrino")["date"] == "2007-03"
    assert _record(theses, "ic_deepcore_16")["date"] == "2016-01"
    # Translator and subtitle (pandoc prints the translator as "Tran.", a slip of its locale).
    (tmp_path / "eco.bib").write_text(BOOK, encoding="utf-8")
    (tmp_path / "b").mkdir()
    book = _build(tmp_path / "b", [tmp_path / "eco.bib"])
    item = _items(book)["eco"]
    assert item["title"] == "The Name of the Rose: A Novel"
    assert item["translator"] == [{"family": "Weaver", "given": "William"}]
    assert _refs(book, "eco")["APA"] == (
        "Eco, U. (1983). The Name of the Rose: A Novel (W. Weaver, Trans.). Harcourt Brace Jovanovich.")


def test_an_edited_book_is_cited_by_its_editors(theses: BuildResult) -> None:
    item = _items(theses)["Osaki.Shibahashi1990"]
    assert "author" not in item and [e["family"] for e in item["editor"]] == ["Osaki", "Shibahashi"]
    assert _refs(theses, "Osaki.Shibahashi1990")["IEEE"] == (
        "Y. Osaki and H. Shibahashi, Eds., Progress of Seismology of the Sun and Stars, vol. 367. in Lecture Notes in "
        "Physics, vol. 367. Heidelberg, Germany: Springer Berlin, 1990.")
    # citeproc-py names the editors again after the title (pandoc: `... Stars (Vol. 367).`): docs.
    assert _refs(theses, "Osaki.Shibahashi1990")["APA"].startswith(
        "Osaki, Y., & Shibahashi, H. (Eds.). (1990). Progress of Seismology of the Sun and Stars")
    assert not any("Osaki" in str(p) for p in theses.problems)  # no "has no author" warning


# 5. Labels ------------------------------------------------------------------------------------------


def test_books_theses_and_articles_read_as_what_they_are(theses: BuildResult) -> None:
    papers = _papers(theses)
    lines = {key: venue_line(papers[key]) for key in ("KDE", "Chandrasekhar1939", "domeff_nick", "domeff_jake",
                                                       "ic_deepcore_16", "Diaz_2020", "Abadi.Barham.ea2016")}
    assert lines == {
        "KDE": "Princeton University Press · book · 2007",
        "Chandrasekhar1939": "The University of Chicago Press · book · 1939",
        "domeff_nick": "University of Alberta · Master's thesis · 2019",
        "domeff_jake": "Wisconsin U., Madison · PhD thesis · 2014",
        "ic_deepcore_16": "The Astrophysical Journal · published · 2016",
        "Diaz_2020": "Physics Reports · published · 2020",
        "Abadi.Barham.ea2016": "cs.DC · preprint",  # `journal = {arXiv e-prints}`: a preprint
    }
    assert not any("preprint" in venue_line(p) for k, p in papers.items() if k != "Abadi.Barham.ea2016")
    record = _record(theses, "KDE")
    assert (record["venue"], record["status"], record["venue_line"]) == (
        "Princeton University Press", "accepted", "Princeton University Press · book · 2007")
    assert "Princeton University Press · book · 2007" in _page(theses, "KDE")


TRUNCATED = """@inproceedings{BAY-19a,
  title = {Efficient Probabilistic Inference in the Quest for Physics Beyond the Standard Model},
  author = {Baydin, Atilim Gunes and Heinrich, Lukas and Bhimji, Wahid and Gram-Hansen, Bradley and
            Louppe, Gilles and Shao, Lei and Cranmer, Kyle and Wood, Frank and others},
  booktitle = {Thirty-second Conference on Neural Information Processing Systems (NeurIPS)},
  year = {2019},
  archiveprefix = {arXiv},
  eprint = {1807.07706},
}
"""


def test_a_truncated_list_is_shortened_by_the_style_s_own_rule(tmp_path: Path) -> None:
    """A group's publication list writes `and others` after eight names: IEEE names one author
    and "et al." from seven names on, and a truncated list has more than it names (as pandoc)."""
    (tmp_path / "group.bib").write_text(TRUNCATED, encoding="utf-8")
    (tmp_path / "site").mkdir()
    result = _build(tmp_path / "site", [tmp_path / "group.bib"])
    refs = _refs(result, "BAY-19a")
    assert refs["IEEE"] == (
        "A. G. Baydin et al., “Efficient Probabilistic Inference in the Quest for Physics Beyond the Standard "
        "Model,” in Thirty-second Conference on Neural Information Processing Systems (NeurIPS), 2019. [Online]. "
        "Available: https://arxiv.org/abs/1807.07706")
    # APA names up to nineteen authors: the eight given, then "et al.".
    assert refs["APA"].startswith("Baydin, A. G., Heinrich, L., Bhimji, W., Gram-Hansen, B., Louppe, G., Shao, L., "
                                  "Cranmer, K., Wood, F., et al. (2019).")


def test_a_preprint_s_journal_as_exporters_write_it_reads_as_a_preprint() -> None:
    """Zotero writes an arXiv paper's journal as `arXiv:1406.1078 [cs, stat]`, ADS as `arXiv
    e-prints`: a preprint, not a published article."""
    problems = Problems()
    raw = read_digest(FIXTURES / "real" / "zotero-library.bib", "zotero-library.bib", problems)
    assert raw is not None
    cho = next(p for p in raw.papers if p.bib_key == "cho_learning_2014")
    assert (cho.venue, cho.status, venue_line(cho)) == ("arXiv", "preprint", "arXiv · preprint")


# 6. A NASA ADS export (tests/fixtures/real/ads-cosmobib.bib) ------------------------------------

ADS = FIXTURES / "real" / "ads-cosmobib.bib"


@pytest.fixture(scope="module")
def ads(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return _build(tmp_path_factory.mktemp("ads"), [ADS])


def test_aastex_dashes_in_an_ads_title_are_dashes(ads: BuildResult) -> None:
    """ADS writes `ELUCID{\\mdash}Exploring`: the macro was dropped (`ELUCIDExploring`), and the
    published BibTeX kept a macro only AASTeX defines."""
    papers = _papers(ads)
    assert papers["2014ApJ...794...94W"].title.startswith("ELUCID—Exploring the Local Universe with the Reconstructed")
    assert papers["2008JCAP...08..006M"].title == "A halo mass—concentration relation from weak lensing"
    assert _refs(ads, "2008JCAP...08..006M")["APA"] == (
        "Mandelbaum, R., Seljak, U., & Hirata, C. M. (2008). A halo mass—concentration relation from weak lensing. "
        "Journal of Cosmology and Astro-Particle Physics, 8, 6–+. https://doi.org/10.1088/1475-7516/2008/08/006")
    bib = ads.files["references.bib"]
    assert "title = {{ELUCID{---}Exploring the Local Universe" in bib and "\\mdash" not in bib


def test_a_proceedings_booktitle_is_the_book_itself_not_its_container(ads: BuildResult) -> None:
    """ADS's `@PROCEEDINGS` has a `booktitle` (the catalogue's line for the book); BibTeX and pandoc
    read `booktitle` only in an entry inside a book. It was cited as a chapter of itself, with the
    title in the authors' place."""
    item = _items(ads)["2000cils.conf.....L"]
    assert item["type"] == "book" and "container-title" not in item
    assert _refs(ads, "2000cils.conf.....L")["APA"].startswith(
        "Liddle, A. R., & Lyth, D. H. (Eds.). (2000). Cosmological inflation and large-scale structure")
    # An entry inside a book keeps its booktitle as its container.
    assert _items(ads)["2007AAS...21113210W"]["container-title"] == "Bulletin of the American Astronomical Society"


def test_a_given_name_ending_in_et_al_is_warned_about(ads: BuildResult) -> None:
    assert ("seeds/ads-cosmobib.bib:486: warning: entry 'Vlah2011': the author list has `{Vlah}, Z. et al.`, which "
            "BibTeX reads as one person with the given name `Z. et al.`; kept so (write `and others` for a "
            "truncated list)") in [str(p) for p in ads.problems]
    assert _items(ads)["Vlah2011"]["author"] == [{"family": "Vlah", "given": "Z. et al."}]
    # Formatted with the `et al.` after the initials (citeproc-py gave `Vlah, Z. et . al .`).
    assert _refs(ads, "Vlah2011") == {"APA": "Vlah, Z. et al. (2011). , in preparation.",
                                      "IEEE": "Z. et al. Vlah, , in preparation, 2011."}


@pytest.mark.tex
def test_the_published_bibtex_of_an_ads_export_compiles_without_aastex(ads: BuildResult, tmp_path: Path) -> None:
    bbl = _compiled_bbl(ads, tmp_path)
    assert "ELUCID{---}Exploring" in bbl


# 7. A research group's publication list (tests/fixtures/real/group-mystenlabs-papers.bib) ---------

GROUP = FIXTURES / "real" / "group-mystenlabs-papers.bib"


@pytest.fixture(scope="module")
def group(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return _build(tmp_path_factory.mktemp("group"), [GROUP])


def test_a_dblp_corr_entry_is_an_arxiv_preprint(group: BuildResult) -> None:
    """DBLP exports an arXiv paper as `journal = {CoRR}, volume = {abs/2310.18042}`: it was a
    published paper in a journal "CoRR", with no arXiv id, button or link."""
    sui = _papers(group)["blackshear2023sui"]
    assert (sui.arxiv_id, sui.venue, sui.status) == ("2310.18042", "arXiv", "preprint")
    record = _record(group, "DBLP:journals/corr/abs-2205-05181")
    assert (record["arxiv"], record["venue"], record["status"]) == ("2205.05181", "arXiv", "preprint")
    assert _refs(group, "DBLP:journals/corr/abs-2205-05181")["APA"] == (
        "Blackshear, S., Mitchell, J. C., Nowacki, T., & Qadeer, S. (2022). The Move Borrow Checker. CoRR, "
        "abs/2205.05181. https://arxiv.org/abs/2205.05181")
    # A paper DBLP lists in its proceedings stays published.
    block_stm = _papers(group)["DBLP:conf/ppopp/GelashviliSXDLM23"]
    assert (block_stm.arxiv_id, block_stm.status) == (None, "accepted")


def test_an_iacr_eprint_report_is_a_preprint(group: BuildResult) -> None:
    """DBLP writes the IACR Cryptology ePrint Archive as a journal (`IACR Cryptol. ePrint Arch.`):
    the report was labelled published ("accepted")."""
    record = _record(group, "DBLP:journals/iacr/MohnblattSGJ23")
    assert (record["venue"], record["status"]) == ("IACR Cryptol. ePrint Arch.", "preprint")
    # The same paper at NDSS, the list's first record of it, is published.
    assert _record(group, "DBLP:conf/ndss/MalvaiKSGOLL23")["status"] == "accepted"
