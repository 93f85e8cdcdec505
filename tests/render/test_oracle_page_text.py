"""Fast paths of the paper page give exactly what the library functions they replace give."""

from __future__ import annotations

import dataclasses
import re
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.model import Paper, SourceRef
from generator.render.paper import description, quote_plus


@given(st.text() | st.lists(st.sampled_from(["a", " ", "~", "-", ".", "_", "+", "%", "&", "é", "𝔼", "/", ":"]))
       .map("".join))
def test_quote_plus_is_urllibs(text: str) -> None:
    try:
        expected = urllib.parse.quote_plus(text)
    except UnicodeEncodeError:  # a lone surrogate: both refuse it
        with pytest.raises(UnicodeEncodeError):
            quote_plus(text)
        return
    assert quote_plus(text) == expected


SENTENCE_PIECES = ["A", "b", ".", "!", "?", " ", "  ", "\t", "\n", "\u00a0", "e.g.", "Z", "1", "x" * 150]


@given(st.lists(st.sampled_from(SENTENCE_PIECES)).map("".join))
def test_description_is_the_first_sentence_as_the_split_defines_it(abstract: str) -> None:
    expected = re.split(r"(?<=[.!?])\s+(?=[A-Z])", abstract.strip(), maxsplit=1)[0][:300]
    assert description(_paper(abstract)) == expected


def _paper(abstract: str) -> Paper:
    base = Paper(id="p", title="T", authors=(), abstract="", origin=SourceRef("seeds/a.txt", 1))
    return dataclasses.replace(base, abstract=abstract)
