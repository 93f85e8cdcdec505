"""The numpy TF-IDF and top-k of related papers against the plain definitions they stand for."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from generator.enrich.related import top_k
from generator.enrich.related.terms import STOP_SET, count_terms, tfidf, words

TOKEN = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's token pattern, the reference

SAMPLES = [
    "Graph-based routing (GNN) for LLMs: a 2x speed-up, e.g. at k=3; x_i and y_{ij}.",
    "Ünïcode wörds: Grünefeld's naïve café — résumé, İstanbul, ß, 東京 and a_b c.",
    "  tabs\tand\nnewlines, under_scores__ and 'quotes' \"too\" [x] {y} 3.14 ",
    "",
]


def test_words_are_the_token_pattern_less_one_letter_words() -> None:
    for text in SAMPLES:
        assert [w for w in words(text) if len(w) > 1] == TOKEN.findall(text.lower()), text


def test_counts_drop_stop_words_before_pairing() -> None:
    texts = ["deep kernel of the deep kernel", "deep kernel learning", "kernel learning a b"]
    counts, names = count_terms(texts, min_df=1, max_df=1.0)
    got = {(r, names[c]): int(v) for r, c, v in zip(*sp.find(counts), strict=True)}
    assert got[(0, "deep kernel")] == 2 and got[(0, "kernel deep")] == 1  # "of the" removed first
    assert got[(2, "kernel learning")] == 1 and (2, "learning b") not in got
    assert all(w not in STOP_SET for _, term in got for w in term.split())


@pytest.mark.parametrize("high", [1000, 1 << 40])
def test_bigram_columns_are_the_distinct_keys_and_indexes_into_them(high: int) -> None:
    """Keys that fit in 31 bits (one sort of keys and positions) and keys that do not (numpy's way)."""
    from generator.enrich.related.terms import _bigram_columns

    rng = np.random.default_rng(high % 97)
    pool = rng.integers(0, high, 60)  # repeated keys, across blocks and within them
    blocks = [rng.choice(pool, size) for size in (0, 50, 7, 300)]
    keys, columns = _bigram_columns(blocks)
    want = np.unique(np.concatenate(blocks))
    assert np.array_equal(keys, want) and len(keys) <= 60
    assert len(columns) == len(blocks)
    for block, cols in zip(blocks, columns, strict=True):
        assert np.array_equal(want[cols], block)
    empty_keys, empty_columns = _bigram_columns([np.zeros(0, dtype=np.int32)] * 2)
    assert len(empty_keys) == 0 and [len(c) for c in empty_columns] == [0, 0]


def test_tfidf_is_sublinear_smoothed_and_unit_length() -> None:
    counts = sp.csr_matrix(np.array([[3, 0, 1], [1, 1, 0], [0, 0, 2]], dtype=np.float32))
    got = tfidf(counts).toarray()
    idf = np.log(4 / (1 + np.array([2, 1, 2]))) + 1
    tf = np.where(counts.toarray() > 0, 1 + np.log(np.maximum(counts.toarray(), 1)), 0)
    want = tf * idf
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    assert np.allclose(got, want, atol=1e-6)


def test_top_k_is_the_sorted_best_with_ties_by_column() -> None:
    rng = np.random.default_rng(7)
    # Few distinct values, so many ties; wide enough for the block bound to matter.
    scores = (rng.integers(0, 40, size=(37, 1000)) / 40).astype(np.float32)
    floor = np.float32(0.5)
    for k in (1, 5, 12):
        rows, cols, values = top_k(scores, k, floor, block=16)
        got = [(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]
        want = [(r, c) for r in range(37)
                for c in sorted(range(1000), key=lambda c, r=r: (-scores[r, c], c))[:k] if scores[r, c] >= floor]
        assert got == want
        assert np.array_equal(values, scores[rows, cols])


def test_importing_the_build_loads_no_numeric_library() -> None:
    # A no-change `mkdocs build` reuses the last build; it must not pay for scipy at start-up.
    code = "import sys, generator.build; print(sorted(m for m in ('scipy', 'sklearn') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("chunk", [1, 3, 7, 64])
def test_half_the_products_give_the_links_of_all_of_them(chunk: int) -> None:
    """scores.py scores each chunk against its own and later columns only; the links must be
    those of scoring every row against every column, ties and all."""
    import numpy as np
    import scipy.sparse as sp

    from generator.enrich.related.scores import Scoring, best_candidates, bounds, candidates, chunk_starts, top_k

    rng = np.random.default_rng(chunk)
    n = 61
    # Few distinct values, so that equal scores (ties broken by column) are common.
    words = sp.csr_matrix((rng.integers(0, 4, (n, 30)) * (rng.random((n, 30)) < 0.2)).astype(np.float32) / 4)
    topics = sp.csr_matrix((rng.random((n, 5)) < 0.3).astype(np.float32) / 2)
    for k, floor in ((3, np.float32(0.0)), (5, np.float32(0.3)), (1, np.float32(0.1))):
        m = Scoring(words, sp.csr_matrix(words.T), topics, np.ascontiguousarray(topics.toarray().T),
                    k, floor, chunk)
        full = m.block(0, n, 0, n)
        expected = top_k(full, k, floor)
        got = best_candidates(*candidates(m, chunk_starts(m), bounds(m)), k)
        assert len(expected[0]) >= n // 2  # most rows have links: the comparison is not of empty arrays
        for want, have in zip(expected, got, strict=True):
            assert np.array_equal(want, have)
        # Split as related_papers splits it between two processes: the later chunks with no bounds
        # given (they find their own), the first ones with the bounds of the later rows only.
        starts = chunk_starts(m)
        for split in (0, 1, len(starts) // 2, len(starts) - 1, len(starts)):
            later = candidates(m, starts[split:], np.full(n, floor, dtype=np.float32))
            first = candidates(m, starts[:split], bounds(m, starts[split:]))
            parts = [np.concatenate(pair) for pair in zip(first, later, strict=True)]
            for want, have in zip(expected, best_candidates(*parts, k), strict=True):
                assert np.array_equal(want, have)


def test_earlier_rows_hand_over_only_scores_that_reach_a_rows_kth_best_of_its_own_part() -> None:
    """A chunk's rows know their k best among all the columns from their chunk on (`top_k`); the
    earlier rows' scores for them that fall short of those k cannot be links, and are not handed
    over as candidates (the own chunk's k-th best alone let twice as many through at 10,000 papers)."""
    import numpy as np
    import scipy.sparse as sp

    from generator.enrich.related.scores import Scoring, candidates, chunk_starts

    rng = np.random.default_rng(3)
    n, chunk, k = 120, 8, 3
    words = sp.csr_matrix((rng.random((n, 40)) * (rng.random((n, 40)) < 0.25)).astype(np.float32))
    topics = sp.csr_matrix((n, 1), dtype=np.float32)
    m = Scoring(words, sp.csr_matrix(words.T), topics, np.zeros((1, n), dtype=np.float32), k,
                np.float32(0.0), chunk)
    full = m.block(0, n, 0, n)
    rows, cols, values = candidates(m, chunk_starts(m), np.full(n, m.floor, dtype=np.float32))
    handed = cols < (rows // chunk) * chunk  # from a row of an earlier chunk
    assert handed.sum() > n  # the check below is not of a handful
    for row, value in zip(rows[handed].tolist(), values[handed].tolist(), strict=True):
        own_part = np.sort(full[row, (row // chunk) * chunk:])[::-1]
        assert value >= own_part[k - 1]


def test_link_order_by_one_integer_sort_is_that_of_lexsort() -> None:
    import numpy as np

    from generator.enrich.related.scores import in_link_order

    rng = np.random.default_rng(1)
    rows = rng.integers(0, 50, 2000)
    cols = rng.integers(0, 300, 2000)
    for values in (rng.integers(0, 8, 2000).astype(np.float32) / 8,   # ties (and zeros)
                   rng.random(2000, dtype=np.float32) - np.float32(0.5)):  # below zero: lexsort
        order = np.lexsort((cols, -values, rows))
        got = in_link_order(rows, cols, values)
        for want, have in zip((rows[order], cols[order], values[order]), got, strict=True):
            assert np.array_equal(want, have)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shared_terms_of_many_pairs_are_the_greedy_pick_of_each(seed: int) -> None:
    """`_shared_terms_many` picks in numpy (first `limit * 4` columns of each pair, in batches);
    the definition: each pair's columns by product descending (ties by column), taken when none of
    their word stems was taken before, up to `limit`."""
    from generator.enrich.related import _shared_terms_many
    from generator.enrich.topics.taxonomy import stem

    rng = np.random.default_rng(seed)
    words_ = ["policy", "policies", "distillation", "distilled", "student", "teacher", "graph", "graphs"]
    names = np.array(words_ + [f"{a} {b}" for a in words_ for b in words_ if a != b], dtype=object)
    n, width = 30, len(names)
    # Few distinct weights: ties between columns are common.
    dense = (rng.integers(0, 4, (n, width)) * (rng.random((n, width)) < 0.4)).astype(np.float32) / 4
    text = sp.csr_matrix(dense)
    a = rng.integers(0, n, 200).tolist()
    b = rng.integers(0, n, 200).tolist()
    for limit in (1, 3, 5):
        got = _shared_terms_many(text, names, a, b, limit, batch=37)
        for i, j, have in zip(a, b, got, strict=True):
            product = dense[i] * dense[j]
            order = sorted(np.flatnonzero(product > 0).tolist(), key=lambda c, p=product: (-p[c], c))
            want, used = [], set()
            for c in order:
                stems = {stem(w) for w in str(names[c]).split()}
                if not stems & used and len(want) < limit:
                    want.append(str(names[c]))
                    used |= stems
            assert have == want, (i, j, limit)
