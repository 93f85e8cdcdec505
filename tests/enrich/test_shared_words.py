"""Related papers count their terms from the words topic matching numbered (wordids.shared_word_ids):
the same word ids, words per text and vocabulary as splitting every paper's text again."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.enrich.related import paper_text, text_model
from generator.enrich.related.terms import WORD_CHARS
from generator.enrich.topics import match as topic_match
from generator.enrich.topics import paper_tag_lists
from generator.enrich.topics.taxonomy import Taxonomy, Topic
from generator.enrich.wordids import Numbered, can_share_words, shared_word_ids, word_ids
from generator.model import Paper, SourceRef

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
# Words, separators, underscores, TeX that plain_title takes apart, and text that is not ASCII.
_PARTS = ["a", "ab", "Policy", "policy", "POLICY", "LoRA", "x_y", "_", "2x", "3.14", " ", "  ", "-", ",", ".",
          "\\mathsf{VISTA}", "$x^2$", "\\", "$", "Ünïcode", "naïve", "\u212a", "東京", "İstanbul", "’", "–", "\u00a0"]
_TEXT = st.lists(st.sampled_from(_PARTS), max_size=12).map("".join)
_PAPERS = st.lists(st.tuples(_TEXT, _TEXT, st.booleans()), min_size=1, max_size=9)
_TAXONOMY = Taxonomy([Topic("Policy", phrases=("policy", "LoRA"))])


def _papers(drawn: list[tuple[str, str, bool]]) -> list[Paper]:
    return [Paper(id=f"p{n}", title=title, authors=(), abstract=abstract, origin=SourceRef("seeds/x.txt", n + 1),
                  title_missing=missing) for n, (title, abstract, missing) in enumerate(drawn)]


def _numbered(papers: list[Paper], block: int, monkeypatch: pytest.MonkeyPatch) -> list[Numbered]:
    """The words topic matching numbered, `block` texts (half as many papers) at a time."""
    numbered: list[Numbered] = []
    monkeypatch.setattr(topic_match, "BLOCK", block)
    paper_tag_lists(papers, _TAXONOMY, None, numbered)
    return numbered


def _split_again(papers: list[Paper]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    return word_ids([paper_text(p).lower() for p in papers], WORD_CHARS, _TOKEN.findall)


@settings(max_examples=300, deadline=None)
@given(_PAPERS, st.sampled_from([2, 4, 6, 1000]))
def test_shared_words_are_the_words_of_each_papers_text(drawn: list[tuple[str, str, bool]], block: int) -> None:
    papers = _papers(drawn)
    with pytest.MonkeyPatch.context() as monkeypatch:
        numbered = _numbered(papers, block, monkeypatch)
    assert len(numbered) == -(-len(papers) // (block // 2))
    shared = [can_share_words("" if p.title_missing else p.title, p.abstract) for p in papers]
    got = shared_word_ids(numbered, shared, lambda k: paper_text(papers[k]).lower(), WORD_CHARS, _TOKEN.findall)
    want = _split_again(papers)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]) and got[2] == want[2]


def test_a_paper_whose_words_differ_from_its_topic_words_is_split_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """`x_y` is one word for related papers and two for topics; `\\mathsf{VISTA}` is VISTA in the
    related text; `Ünïcode` is lower-cased whole: none of those papers take their topic words."""
    papers = _papers([("Deep Policy", "Policy of x_y agents.", False), ("\\mathsf{VISTA} Policy", "Ünïcode", False),
                      ("Untitled paper by Ann", "LoRA policy", True), ("Plain Policy", "Plain words, PLAIN.", False)])
    assert [can_share_words("" if p.title_missing else p.title, p.abstract) for p in papers] == [
        False, False, True, True]
    numbered = _numbered(papers, 4, monkeypatch)
    shared = [can_share_words("" if p.title_missing else p.title, p.abstract) for p in papers]
    flat, lengths, vocab = shared_word_ids(numbered, shared, lambda k: paper_text(papers[k]).lower(), WORD_CHARS,
                                           _TOKEN.findall)
    assert lengths.tolist() == [8, 5, 2, 7]
    assert vocab[:6] == ["deep", "policy", "of", "x_y", "agents", "vista"]
    assert [vocab[i] for i in flat[-7:]] == ["plain", "policy", "plain", "policy", "plain", "words", "plain"]


def test_lower_case_makes_no_word_character_of_a_character_outside_ascii_that_is_none() -> None:
    """What lets a text with dashes and quotes outside ASCII take its topic words: lower case
    leaves such a character one that both splits blank out."""
    word = re.compile(r"\w")
    changed = [c for c in map(chr, range(0x80, 0x110000)) if not word.match(c) and c.lower() != c]
    assert changed  # (there are some: circled capitals, say)
    assert not [c for c in changed if any(word.match(x) or x.isascii() for x in c.lower())]
    assert can_share_words("Policy \u2013 \u201cgraphs\u201d", "Na\u00efve") is False
    assert can_share_words("Policy \u2013 \u201cgraphs\u201d", "Plain\u00a0words \u24b6") is True


def test_seed_text_model_is_the_same_from_shared_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed papers (TeX in titles, Unicode, underscores), in blocks of 3 papers: the same
    TF-IDF matrix, term for term and value for value, as from their texts split again."""
    from generator.errors import Problems
    from generator.sources import read_all
    from tests.conftest import ROOT

    papers = [p for raw in read_all(ROOT / "seeds", ROOT, Problems()) for p in raw.papers]
    assert len(papers) > 40 and not all(can_share_words(p.title, p.abstract) for p in papers)
    numbered = _numbered(papers, 6, monkeypatch)
    got, want = text_model(papers, numbered=numbered), text_model(papers)
    for a, b in ((got.text, want.text), (got.words, want.words)):
        assert a.shape == b.shape and a.nnz > 1000
        assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
        assert np.array_equal(a.data, b.data)
    assert [got.terms[c] for c in range(len(got.terms))] == [want.terms[c] for c in range(len(want.terms))]
