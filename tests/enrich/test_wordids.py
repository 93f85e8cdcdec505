"""Word numbering (wordids.py): the words the splitters find, numbered in order of first use, in blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.enrich.related.terms import WORD_CHARS, words
from generator.enrich.topics.match import ASCII_WORD_CHARS, tokens
from generator.enrich.wordids import plain_word_ids, word_ids

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_WORD = re.compile(r"[^\W_]+")
# Short and long words (one and several 8-byte pieces, lengths on and off the piece edges),
# words that share their first pieces, separators, underscores and text that is not ASCII.
_PARTS = ["a", "ab", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghabcdefgh", "abcdefghabcdefghx",
          "abcdefghabcdefghabcdefghabcdefghz", "Policy", "policy", "POLICY", "x_y", "_", "__init__",
          "2x", "3.14", "k=3", " ", "  ", "\t", "\n", "-", ",", ".", "(", ")", "Ünïcode", "naïve", "\u212a",
          "東京", "ß", "İstanbul", "’", "“", "”", "–", "—", "…", "\u00a0", "×"]
_TEXTS = st.lists(st.lists(st.sampled_from(_PARTS), max_size=25).map("".join), max_size=12)


def _same(got: tuple[np.ndarray, np.ndarray, list[str]], want: tuple[np.ndarray, np.ndarray, list[str]]) -> None:
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]) and got[2] == want[2]


def _terms(texts: list[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    low = [t.lower() for t in texts]
    return word_ids(low, WORD_CHARS, _TOKEN.findall)


def _topics(texts: list[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    return word_ids(texts, ASCII_WORD_CHARS, _WORD.findall)


def _ascii_words_of(text: str) -> list[str]:
    """`words`, except that text whose only characters outside ASCII are not word characters
    is split as ASCII text (one-letter words kept), as word_ids does."""
    low = text.lower()
    blanked = re.sub(r"[^\w\x00-\x7f]", " ", low)
    return words(blanked) if blanked.isascii() else words(low)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_numbering_is_that_of_the_word_splitters(texts: list[str]) -> None:
    _same(_terms(texts), plain_word_ids([_ascii_words_of(t) for t in texts]))
    _same(_topics(texts), plain_word_ids([tokens(t) for t in texts]))


@settings(max_examples=200, deadline=None)
@given(_TEXTS)
def test_term_counts_are_those_of_the_plain_definition(texts: list[str]) -> None:
    """count_terms counts what CountVectorizer(ngram_range=(1, 2)) counts: scikit-learn's token
    pattern on the lower-cased text, stop words removed before pairing. Here in plain Python."""
    from collections import Counter
    from itertools import pairwise

    import scipy.sparse as sp

    from generator.enrich.related.terms import STOP_SET, count_terms

    counts, names = count_terms(texts, min_df=1, max_df=1.0)
    got = {(r, names[c]): int(v) for r, c, v in zip(*sp.find(counts), strict=True)}
    want: dict[tuple[int, str], int] = {}
    for row, text in enumerate(texts):
        kept = [w for w in _TOKEN.findall(text.lower()) if w not in STOP_SET]
        for term, n in Counter([*kept, *(f"{a} {b}" for a, b in pairwise(kept))]).items():
            want[(row, term)] = n
    assert got == want


@settings(max_examples=100, deadline=None)
@given(_TEXTS)
def test_ascii_texts_alone(texts: list[str]) -> None:
    plain = [t for t in texts if t.isascii()]
    _same(_topics(plain), plain_word_ids([tokens(t) for t in plain]))


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.integers(min_value=1, max_value=5))
def test_term_counts_are_scipys_canonical_matrix(texts: list[str], block: int) -> None:
    """count_terms' matrix is the one scipy makes of the plain counts (`csr_matrix((ones, (rows,
    cols)))` with duplicates summed): the same arrays, canonical (sorted, no duplicate), float32,
    for texts with no term and no text too."""
    from itertools import pairwise

    import scipy.sparse as sp

    from generator.enrich.related.terms import STOP_SET, count_terms

    counts, names = count_terms(texts, min_df=1, max_df=1.0, block=block)
    column = {names[c]: c for c in range(len(names))}
    rows, cols = [], []
    for row, text in enumerate(texts):
        kept = [w for w in _TOKEN.findall(text.lower()) if w not in STOP_SET]
        for term in [*kept, *(f"{a} {b}" for a, b in pairwise(kept))]:
            rows.append(row)
            cols.append(column[term])
    want = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(texts), len(names)))
    want.sum_duplicates()
    assert counts.shape == want.shape and counts.has_canonical_format and counts.dtype == want.dtype
    for a, b in ((counts.indptr, want.indptr), (counts.indices, want.indices), (counts.data, want.data)):
        assert np.array_equal(a, b)


# -- blocks: many texts are numbered and counted a block of texts at a time --------------------


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.integers(min_value=1, max_value=5))
def test_numbering_in_blocks_is_the_numbering_of_all_texts_at_once(texts: list[str], block: int) -> None:
    low = [t.lower() for t in texts]
    _same(word_ids(low, WORD_CHARS, _TOKEN.findall, block), plain_word_ids([_ascii_words_of(t) for t in texts]))
    _same(word_ids(texts, ASCII_WORD_CHARS, _WORD.findall, block), plain_word_ids([tokens(t) for t in texts]))


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.integers(min_value=1, max_value=5), st.sampled_from([(1, 1.0), (2, 0.5), (2, 1.0)]))
def test_term_counts_in_blocks_are_those_of_all_texts_at_once(texts: list[str], block: int,
                                                              limits: tuple[int, float]) -> None:
    from generator.enrich.related import terms

    got = terms.count_terms(texts, *limits, block=block)
    want = terms.count_terms(texts, *limits, block=len(texts) + 1)
    assert got[0].shape == want[0].shape and (got[0] != want[0]).nnz == 0
    assert got[0].has_canonical_format and got[0].dtype == np.float32
    assert [got[1][c] for c in range(len(got[1]))] == [want[1][c] for c in range(len(want[1]))]


class _Read(Sequence[str]):
    """Texts that note the size of every read: one text, or a slice of them."""

    def __init__(self, texts: list[str]) -> None:
        self.texts, self.reads = texts, []

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, at: Any) -> Any:
        self.reads.append(len(self.texts[at]) if isinstance(at, slice) else 1)
        return self.texts[at]


def test_seed_texts_are_numbered_and_counted_in_blocks() -> None:
    """The seed papers' texts in blocks of 7: the same word ids and term counts as in one block,
    and the texts are read a block at a time, never all at once (what keeps the word arrays of
    10,000 papers small: a block's words are Python strings only while it is numbered)."""
    from generator.enrich.related import terms
    from generator.errors import Problems
    from generator.sources import read_all
    from tests.conftest import ROOT

    papers = [p for raw in read_all(ROOT / "seeds", ROOT, Problems()) for p in raw.papers]
    texts = [f"{p.title}. {p.abstract}" for p in papers]
    assert len(texts) > 40
    read = _Read(texts)
    _same(word_ids(read, ASCII_WORD_CHARS, _WORD.findall, 7), word_ids(texts, ASCII_WORD_CHARS, _WORD.findall, 10_000))
    whole, rest = divmod(len(texts), 7)
    assert read.reads == [7] * whole + ([rest] if rest else [])
    got, want = terms.count_terms(texts, 2, 0.5, block=7), terms.count_terms(texts, 2, 0.5, block=10_000)
    assert got[0].nnz > 1000 and (got[0] != want[0]).nnz == 0
    assert [got[1][c] for c in range(len(got[1]))] == [want[1][c] for c in range(len(want[1]))]


def test_best_candidates_hold_little_besides_their_input() -> None:
    """Each row's best links from a million-scale candidate list take about two arrays of the
    candidates' size at once (their packed keys and rows), not a copy of every column."""
    import tracemalloc

    from generator.enrich.related.scores import best_candidates, in_link_order

    rng = np.random.default_rng(3)
    n = 300_000
    rows, cols = rng.integers(0, 5000, n), rng.integers(0, 5000, n)
    values = rng.random(n, dtype=np.float32)
    tracemalloc.start()
    try:
        got = best_candidates(rows, cols, values, 5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2.5 * 8 * n
    ordered = in_link_order(rows, cols, values)
    first = np.searchsorted(ordered[0], ordered[0], side="left")
    keep = np.arange(n) - first < 5
    assert all(np.array_equal(a, b[keep]) for a, b in zip(got, ordered, strict=True))
