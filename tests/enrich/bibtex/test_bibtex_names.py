"""Author names split into BibTeX parts, written `von Last, First`, and read back the same by pybtex."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from pybtex.database import Person

from generator.build import BuildResult, build
from generator.config import load_config
from generator.enrich.bibtex.names import apply_name_overrides, load_name_overrides, split_name, to_person
from generator.enrich.keys import base_key
from generator.enrich.registry import Registry
from generator.errors import Problems
from generator.model import Paper, SourceRef
from generator.render.csl import csl_item
from generator.render.references import format_reference
from tests.conftest import FIXTURES, ROOT, copy_project
from tests.enrich.bibtex.pybtex_oracle import read_back, written_name

REAL = FIXTURES / "real"


@pytest.mark.parametrize(("display", "bibtex"), [
    # Seed names.
    ("Alfonso de Jesús Navas Gómez", "Navas Gómez, Alfonso de Jesús"),
    ("ORZALESI", "ORZALESI"),
    ("Cedric Maron", "Maron, Cedric"),
    ("İsmail İlkan Ceylan", "Ceylan, İsmail İlkan"),
    ("Dylan Hadfield-Menell", "Hadfield-Menell, Dylan"),
    ("James Z. Wang", "Wang, James Z."),
    ("Kalle Kujanpää", "Kujanpää, Kalle"),
    # Particles belong to the family name (pybtex's prelast part).
    ("Ludwig van Beethoven", "van Beethoven, Ludwig"),
    ("Johannes Diderik van der Waals", "van der Waals, Johannes Diderik"),
    ("Charles de Gaulle", "de Gaulle, Charles"),
    ("Juan Pablo de la Cruz", "de la Cruz, Juan Pablo"),
    ("Jean de La Fontaine", "de La Fontaine, Jean"),
    ("Aäron van den Oord", "van den Oord, Aäron"),
    # Iberian `de X` inside the given name, then a compound family name.
    ("María de los Ángeles Pérez López", "Pérez López, María de los Ángeles"),
    ("Maria da Conceição Silva Santos", "Silva Santos, Maria da Conceição"),
    ("José de Jesús de la Fuente Ruiz", "de la Fuente Ruiz, José de Jesús"),
    # Connector and lineage.
    ("José Ortega y Gasset", "Ortega y Gasset, José"),
    ("Martin Luther King Jr.", "King, Jr., Martin Luther"),
    # Capitalised particles belong to the family name, as reference managers write it.
    ("Adrian Del Maestro", "Del Maestro, Adrian"),
    ("A. Del Maestro", "Del Maestro, A."),
    ("Johan De Kleer", "De Kleer, Johan"),
    ("Gonzalo Di Stefano", "Di Stefano, Gonzalo"),
    ("Johannes Van Der Waals", "Van Der Waals, Johannes"),
    ("Anna Der Kiureghian", "Der Kiureghian, Anna"),
    # ... but not a Vietnamese middle name, nor a family name that is itself `Le`.
    ("Minh Van Nguyen", "Nguyen, Minh Van"),
    ("Quoc V. Le", "Le, Quoc V."),
])
def test_split_name(display: str, bibtex: str) -> None:
    assert split_name(display).bibtex() == bibtex


def test_family_name_excludes_particles() -> None:
    assert split_name("Alfonso de Jesús Navas Gómez").family == "Navas Gómez"
    assert split_name("Adrian Del Maestro").family == "Del Maestro"  # capitalised: part of the family name
    assert split_name("Johannes Diderik van der Waals").family == "Waals"
    assert split_name("ORZALESI").family == "ORZALESI"


def test_person_parts_and_pybtex_round_trip() -> None:
    person = to_person("Alfonso de Jesús Navas Gómez")
    assert person.first_names == ["Alfonso"]
    assert person.middle_names == ["de", "Jesús"]
    assert person.prelast_names == []
    assert person.last_names == ["Navas", "Gómez"]
    assert written_name(person) == "Navas Gómez, Alfonso de Jesús"
    back = Person(written_name(person))
    assert (back.first_names, back.middle_names, back.prelast_names, back.last_names) == (
        ["Alfonso"], ["de", "Jesús"], [], ["Navas", "Gómez"])

    waals = to_person("Johannes Diderik van der Waals")
    assert waals.prelast_names == ["van", "der"]
    assert waals.last_names == ["Waals"]
    assert Person(written_name(waals)).prelast_names == ["van", "der"]


def test_capitalised_particle_is_braced_with_the_family_name() -> None:
    person = to_person("Adrian Del Maestro")
    assert written_name(person) == "{Del Maestro}, Adrian"
    assert Person(written_name(person)).last_names == ["{Del Maestro}"]
    assert written_name(to_person("Ludwig van Beethoven")) == "van Beethoven, Ludwig"  # lower case: unchanged


def test_one_word_name_is_last_only() -> None:
    person = to_person("ORZALESI")
    assert person.last_names == ["ORZALESI"]
    assert person.first_names == [] and person.middle_names == []


def test_compound_family_name_starting_with_non_ascii_is_braced() -> None:
    # bibtex would take `Özdemir` (first ASCII letter `z`, lowercase) for a von part.
    person = to_person("María de los Ángeles Özdemir Çelik")
    assert written_name(person) == "{Özdemir Çelik}, María de los Ángeles"
    assert Person(written_name(person)).last_names == ["{Özdemir Çelik}"]


def test_names_that_would_split_into_several_people_stay_whole() -> None:
    assert written_name(to_person("Research and Development Team")) == "{Research and Development Team}"
    assert written_name(to_person("A & B Lab")) == r"Lab, A \& B"


# --- content/names.yml: the curator's spelling for names no rule can split --------------------

def test_name_overrides_are_read_and_bad_ones_reported(tmp_path: Path) -> None:
    path = tmp_path / "names.yml"
    path.write_text('# comment\n"Gabi Dreo Rodosek": "Dreo Rodosek, Gabi"\n"Bad One": "{Bad}, One"\n'
                    '"Two People": "A, B and C, D"\n"Empty": ""\n', encoding="utf-8")
    problems = Problems()
    names = load_name_overrides(path, "content/names.yml", problems)
    assert names == {"Gabi Dreo Rodosek": "Dreo Rodosek, Gabi"}
    assert [str(p) for p in problems] == [
        "content/names.yml:3: warning: 'Bad One': should be one name written `Family, Given` (no braces, "
        "no `and`, at most two commas); using the automatic split",
        "content/names.yml:4: warning: 'Two People': should be one name written `Family, Given` (no braces, "
        "no `and`, at most two commas); using the automatic split",
        "content/names.yml:5: warning: 'Empty': should be a name written `Family, Given`; using the automatic split",
    ]
    assert load_name_overrides(tmp_path / "missing.yml", "x", problems) == {}


def test_name_override_changes_entry_and_new_keys() -> None:
    paper = Paper(id="p", title="Graph Anomalies", authors=("Gabi Dreo Rodosek", "Robin Buchta"), abstract="",
                  origin=SourceRef("seeds/x.txt", 1), date=dt.date(2026, 1, 2))
    assert base_key(paper) == "rodosek2026graph"
    [spelled] = apply_name_overrides([paper], {"Gabi Dreo Rodosek": "Dreo Rodosek, Gabi"})
    assert spelled.bib_names == ("Dreo Rodosek, Gabi", "")
    assert [str(p) for p in read_back(spelled).persons["author"]] == ["Dreo Rodosek, Gabi", "Buchta, Robin"]
    assert base_key(spelled) == "dreorodosek2026graph"
    # The curator's spelling gets the same care as the automatic one: braces, escaping.
    assert written_name(to_person("x", "Özdemir Çelik, Ayşe & Co")) == r"{Özdemir Çelik}, Ayşe \& Co"
    assert written_name(to_person("x", "van der Berg, Jr., Jan")) == "van der Berg, Jr., Jan"


def test_shipped_names_file_reaches_the_seed_entries(seed_build: BuildResult) -> None:
    refs = seed_build.files["references.bib"]
    assert "Heine, Felix and Dreo Rodosek, Gabi}" in refs
    assert "Haghir Chehreghani, Morteza and Laine, Leo}" in refs
    # Read, never written.
    assert (ROOT / "content" / "names.yml").read_text(encoding="utf-8").startswith("# How to write")


# --- keys and references of papers with particles, from real arXiv API results ---------------------

def _luttinger(authors: tuple[str, ...]) -> Paper:
    return Paper(id="arxiv:1205.3437", title="Luttinger liquid behavior of helium in nanopores", authors=authors,
                 abstract="", origin=SourceRef("seeds/x.txt", 1), date=dt.date(2012, 5, 15))


def test_new_keys_use_the_family_name_with_its_particle_and_published_keys_stay() -> None:
    paper = _luttinger(("Adrian Del Maestro", "Ian Affleck"))
    assert base_key(paper) == "delmaestro2012luttinger"
    # A key handed out before (the registry, citekeys.yml) is kept; a new paper gets the new key.
    other = Paper(id="arxiv:1212.0001", title="Luttinger liquids again", authors=("Adrian Del Maestro",),
                  abstract="", origin=SourceRef("seeds/x.txt", 2), date=dt.date(2012, 12, 1))
    registry = Registry({"arxiv:1205.3437": {"key": "maestro2012luttinger", "slug": "luttinger-liquid-behavior"}})
    assigned = registry.assign([paper, other], {}, Problems())
    assert assigned["arxiv:1205.3437"] == ("maestro2012luttinger", "luttinger-liquid-behavior")
    assert assigned["arxiv:1212.0001"][0] == "delmaestro2012luttinger"


def test_first_author_with_particle_in_apa_and_ieee() -> None:
    item = csl_item(replace(_luttinger(("Adrian Del Maestro", "Ian Affleck")), key="delmaestro2012luttinger"))
    assert item["author"] == [{"family": "Del Maestro", "given": "Adrian"}, {"family": "Affleck", "given": "Ian"}]
    assert format_reference(item, "apa").startswith("Del Maestro, A., & Affleck, I. (2012). Luttinger liquid")
    assert format_reference(item, "ieee").startswith("A. Del Maestro and I. Affleck, “Luttinger liquid")


@pytest.fixture(scope="module")
def del_maestro_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The real API results for `au:"A. Del Maestro"` (tests/fixtures/real, five entries) built as a site."""
    dest = tmp_path_factory.mktemp("delmaestro")
    config = copy_project(dest, seeds=False)
    shutil.copy(REAL / "arxiv-api-del-maestro.xml", dest / "seeds")
    return build(load_config(config))


def test_real_api_results_entries_references_and_listing(del_maestro_build: BuildResult) -> None:
    result = del_maestro_build
    by_key = {p.key: p for p in result.library.papers}
    assert sorted(by_key) == ["herdman2014particle", "herdman2016entanglement", "kulchytskyy2013local",
                              "melko2006striped", "ohno2024efficient"]
    authors = [ln.strip() for ln in result.files["references.bib"].splitlines() if ln.strip().startswith("author")]
    assert sorted(authors) == ["author = {Herdman, C. M. and Roy, P.-N. and Melko, R. G. and {Del Maestro}, A.},",
                               "author = {Herdman, C. M. and {Del Maestro}, A.},",
                               "author = {Kulchytskyy, B. and Gervais, G. and {Del Maestro}, A.},",
                               "author = {Melko, R. G. and {Del Maestro}, A. and Burkov, A. A.},",
                               "author = {Ohno, Y. and {Del Maestro}, A. and Lakoba, T. I.},"]
    csl = {item["id"]: item["author"] for item in json.loads(result.files["references.json"])}
    assert csl["herdman2014particle"] == [{"family": "Herdman", "given": "C. M."},
                                          {"family": "Del Maestro", "given": "A."}]
    tabs = {key: re.findall(r"<code>([^<]*)</code>", result.files[f"papers/{p.slug}/index.md"])
            for key, p in by_key.items()}
    bib, apa, ieee = (html.unescape(t) for t in tabs["kulchytskyy2013local"][:3])
    assert "author = {Kulchytskyy, B. and Gervais, G. and {Del Maestro}, A.}" in bib
    assert apa.startswith("Kulchytskyy, B., Gervais, G., & Del Maestro, A. (2013). Local Superfluidity at the "
                          "Nanoscale")
    assert ieee.startswith("B. Kulchytskyy, G. Gervais, and A. Del Maestro, “Local Superfluidity at the Nanoscale,”")
    apa, ieee = (html.unescape(t) for t in tabs["herdman2014particle"][1:3])
    assert apa.startswith("Herdman, C. M., & Del Maestro, A. (2014). Particle partition entanglement")
    assert ieee.startswith("C. M. Herdman and A. Del Maestro, “Particle partition entanglement")
    apa, ieee = (html.unescape(t) for t in tabs["melko2006striped"][1:3])
    assert apa.startswith("Melko, R. G., Del Maestro, A., & Burkov, A. A. (2006). A striped supersolid phase")
    assert ieee.startswith("R. G. Melko, A. Del Maestro, and A. A. Burkov, “A striped supersolid phase")
    # Two authors are both named in lists; "et al." starts at three.
    rows = [ln for ln in result.files["all.md"].splitlines() if "Maestro" in ln or "Kulchytskyy" in ln]
    # (all.md's table is Markdown: render/links.py.)
    assert any("| C. M. Herdman and A. Del Maestro |" in r for r in rows)
    assert any("| B. Kulchytskyy et al. |" in r for r in rows)
