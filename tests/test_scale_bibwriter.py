"""The fast BibTeX writer writes exactly what pybtex's own writer writes."""

from __future__ import annotations

import codecs

import pytest
from pybtex.bibtex.exceptions import BibTeXError
from pybtex.database import BibliographyData, Entry, Person
from pybtex.database.output.bibtex import Writer

from generator.enrich import bibtex
from generator.enrich.bibwriter import FastWriter, encode, to_bibtex

SAMPLES = [
    "Plain title", "100% of {GPU} time & more_stuff ~ #1", "Müller, Ajanović and Kujanpää",
    "naïve — dash – en", "a--b ``q'' \\emph{x}", "α-β {VISTA}", "tab\tand\nnewline", "", "~", "{}",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_encode_matches_latexcodec(text: str) -> None:
    assert encode(text, "UTF-8") == codecs.encode(text, "ulatex+UTF-8")
    assert encode(text, "ascii") == codecs.encode(text, "ulatex+ascii")


def test_every_printable_ascii_character_is_encoded_like_latexcodec() -> None:
    for code in range(0x20, 0x7F):
        assert encode(chr(code), "UTF-8") == codecs.encode(chr(code), "ulatex+UTF-8"), chr(code)


def test_seed_bibliography_is_byte_for_byte_pybtex(seed_build) -> None:  # type: ignore[no-untyped-def]
    papers = seed_build.library.papers
    data = BibliographyData(entries={p.key: bibtex.make_entry(p) for p in papers})
    expected = Writer().to_string(data)
    assert to_bibtex(data) == expected
    assert to_bibtex(data) == expected  # a second time, from the entry cache
    assert "@article{casper2025defending," in expected


def test_entries_with_awkward_fields_match_pybtex() -> None:
    entry = Entry("misc", fields={"title": "{Braces {inside} and 50% & _x_}", "note": "Ünïcode ~ test"},
                  persons={"author": [Person("Maria de la Cruz"), Person("others")]})
    data = BibliographyData(entries={"cruz2025braces": entry})
    assert FastWriter().to_string(data) == Writer().to_string(data)


def test_unmatched_braces_still_raise_like_pybtex() -> None:
    data = BibliographyData(entries={"k": Entry("misc", fields={"title": "{unclosed"})})
    with pytest.raises(BibTeXError, match="unmatched braces"):
        Writer().to_string(data)
    with pytest.raises(BibTeXError, match="unmatched braces"):
        to_bibtex(data)


def test_utf8_fast_path_matches_latexcodec_on_mixed_text() -> None:
    import random

    rng = random.Random(3)
    pool = "abcXYZ #%&_~{}\\$^ äöüßéèñçøåłğšžčřőű—–‘’“”…€αβγ中文한\u00a0\u2009\u200b\U0001F600ﬁ\n\t\x01"
    for _ in range(2000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 20)))
        assert encode(text, "UTF-8") == codecs.encode(text, "ulatex+UTF-8"), text
