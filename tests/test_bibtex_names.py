"""Author names split into BibTeX parts, written `von Last, First`, and read back the same by pybtex."""

from __future__ import annotations

import pytest
from pybtex.database import Person

from generator.enrich.bibnames import split_name, to_person
from generator.enrich.bibtex import _LatexWriter


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
])
def test_split_name(display: str, bibtex: str) -> None:
    assert split_name(display).bibtex() == bibtex


def test_family_name_excludes_particles() -> None:
    assert split_name("Alfonso de Jesús Navas Gómez").family == "Navas Gómez"
    assert split_name("Johannes Diderik van der Waals").family == "Waals"
    assert split_name("ORZALESI").family == "ORZALESI"


def _written(person: Person) -> str:
    return _LatexWriter()._format_name(None, person)


def test_person_parts_and_pybtex_round_trip() -> None:
    person = to_person("Alfonso de Jesús Navas Gómez")
    assert person.first_names == ["Alfonso"]
    assert person.middle_names == ["de", "Jesús"]
    assert person.prelast_names == []
    assert person.last_names == ["Navas", "Gómez"]
    assert _written(person) == "Navas Gómez, Alfonso de Jesús"
    back = Person(_written(person))
    assert (back.first_names, back.middle_names, back.prelast_names, back.last_names) == (
        ["Alfonso"], ["de", "Jesús"], [], ["Navas", "Gómez"])

    waals = to_person("Johannes Diderik van der Waals")
    assert waals.prelast_names == ["van", "der"]
    assert waals.last_names == ["Waals"]
    assert Person(_written(waals)).prelast_names == ["van", "der"]


def test_one_word_name_is_last_only() -> None:
    person = to_person("ORZALESI")
    assert person.last_names == ["ORZALESI"]
    assert person.first_names == [] and person.middle_names == []


def test_compound_family_name_starting_with_non_ascii_is_braced() -> None:
    # bibtex would take `Özdemir` (first ASCII letter `z`, lowercase) for a von part.
    person = to_person("María de los Ángeles Özdemir Çelik")
    assert _written(person) == "{Özdemir Çelik}, María de los Ángeles"
    assert Person(_written(person)).last_names == ["{Özdemir Çelik}"]


def test_names_that_would_split_into_several_people_stay_whole() -> None:
    assert _written(to_person("Research and Development Team")) == "{Research and Development Team}"
    assert _written(to_person("A & B Lab")) == r"Lab, A \& B"
