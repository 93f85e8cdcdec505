"""The numpy TF-IDF and top-k of related papers against the plain definitions they stand for."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from itertools import pairwise

import numpy as np
import pytest
import scipy.sparse as sp

from generator.enrich.related import TERMS_IN_WHY, Settings, related_papers, shared_terms, text_model, top_k
from generator.enrich.related.terms import STOP_SET, count_terms, tfidf, words
from generator.model import Paper, SourceRef

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


def _counted(texts: list[str], **kwargs: int) -> Counter[tuple[int, str]]:
    """count_terms' matrix as (text number, term) -> count."""
    counts, names = count_terms(texts, min_df=1, max_df=1.0, **kwargs)
    return Counter({(int(r), str(names[int(c)])): int(v) for r, c, v in zip(*sp.find(counts), strict=True)})


def _terms_by_definition(texts: list[str]) -> Counter[tuple[int, str]]:
    """Each text's words (the token pattern, stop words and one-letter words dropped) and each
    pair of neighbours among those words, counted."""
    out: Counter[tuple[int, str]] = Counter()
    for row, text in enumerate(texts):
        kept = [w for w in TOKEN.findall(text.lower()) if w not in STOP_SET]
        out.update((row, term) for term in [*kept, *(f"{a} {b}" for a, b in pairwise(kept))])
    return out


@pytest.mark.parametrize("vocabulary", [40, 47_000])
def test_counts_are_each_texts_words_and_word_pairs_however_the_texts_are_blocked(vocabulary: int) -> None:
    """The bigrams of all blocks are numbered together: a bigram in several blocks (and several
    times in one) is one column with the count of each text. 47,000 words: bigram keys (word *
    vocabulary + word) beyond 31 bits."""
    rng = np.random.default_rng(vocabulary)
    pool = [f"w{i}x" for i in range(vocabulary)]
    every = rng.permutation(pool).tolist()  # every word used, so the vocabulary is this large
    texts = []
    for n in range(90):
        own = every[n * len(every) // 90:(n + 1) * len(every) // 90]
        drawn = rng.choice(pool[:30], 40).tolist()  # the same few words, in pairs across texts
        text = " ".join(rng.permutation(own + drawn).tolist())
        texts.append(f"Graph neural network of the graph NEURAL network. {text} graph neural")
    texts[7] = ""
    want = _terms_by_definition(texts)
    assert want[(0, "graph neural")] == 3 and want[(0, "network graph")] == 1  # "of the" dropped first
    assert sum(1 for row, term in want if term == "graph neural") == 89
    for block in (1, 4, 25, 1000):
        assert _counted(texts, block=block) == want, block


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


def _paper(n: int, title: str, abstract: str, tags: tuple[str, ...] = ()) -> Paper:
    return Paper(id=f"p{n}", title=title, authors=("A B",), abstract=abstract, origin=SourceRef("x.txt", n), tags=tags)


def test_a_small_library_links_its_papers_with_their_shared_topics_and_terms() -> None:
    papers = [
        _paper(0, "Policy distillation for student policies",
               "A teacher policy is distilled into a student policy by policy distillation on replay data.",
               ("Reinforcement learning", "Knowledge distillation")),
        _paper(1, "On-policy distillation of language models",
               "The student samples its own outputs and the teacher scores them: on-policy distillation "
               "for language models.", ("Knowledge distillation", "Language models")),
        _paper(2, "Graph neural networks for molecules",
               "Message passing graph neural networks predict molecule properties from graphs.",
               ("Graph learning",)),
        _paper(3, "Graph neural networks for proteins",
               "Graph neural networks over protein contact graphs predict protein function.",
               ("Graph learning",)),
        _paper(4, "Regret bounds for contextual bandits",
               "We prove regret bounds for contextual bandits with linear rewards.", ()),
        _paper(5, "Contextual bandits with linear rewards",
               "Linear contextual bandits: an algorithm with low regret.", ()),
        _paper(6, "Neural graph translation", "Translation with neural networks over a graph of words.",
               ("Language models",)),
    ]
    got = {pid: [(r.id, r.why) for r in links] for pid, links in related_papers(papers, Settings(count=2)).items()}
    distillation = "shared topics: Knowledge distillation; shared terms: policy, distillation, student"
    graphs = "shared topics: Graph learning; shared terms: graph neural, networks, predict"
    # A term whose words were shown already is left out: "policy distillation" after "policy" and
    # "distillation" (a tie, the single word first); "neural networks", "graph", "graphs" after
    # "graph neural" (rarer than its words, so weighed more). A term of one paper is never shared.
    assert got == {
        "p0": [("p1", distillation)],
        "p1": [("p0", distillation), ("p6", "shared topics: Language models")],
        "p2": [("p3", graphs), ("p6", "shared terms: graph, neural, networks")],
        "p3": [("p2", graphs), ("p6", "shared terms: graph, neural, networks")],
        "p4": [("p5", "shared terms: contextual, bandits, regret")],
        "p5": [("p4", "shared terms: contextual, bandits, regret")],
        "p6": [("p2", "shared terms: graph, neural, networks"), ("p3", "shared terms: graph, neural, networks")],
    }


# Words with others of the same stem (policy, policies): a reason names each stem once.
CLUSTERS = [
    "policy policies distillation distilled distil student students teacher teachers replay".split(),
    "graph graphs neural network networks message messages molecule molecules protein".split(),
    "bandit bandits regret regrets contextual linear reward rewards bound bounds".split(),
]


def _greedy_terms(product: np.ndarray, names: object, limit: int) -> list[str]:
    """The definition: the shared columns by product descending (ties by column), each taken
    when none of its word stems was taken before, up to `limit`."""
    from generator.enrich.topics.taxonomy import stem

    order = sorted(np.flatnonzero(product > 0).tolist(), key=lambda c: (-product[c], c))
    want: list[str] = []
    used: set[str] = set()
    for c in order:
        term = str(names[c])  # type: ignore[index]
        stems = {stem(w) for w in term.split()}
        if not stems & used and len(want) < limit:
            want.append(term)
            used |= stems
    return want


@pytest.mark.parametrize("seed", [0, 1])
def test_the_terms_a_reason_shows_are_each_pairs_strongest_shared_terms_one_per_stem(seed: int) -> None:
    """Every link's reason, over enough papers that their pairs' terms are found in more than one
    batch, and `shared_terms` with other limits: the greedy pick of the definition."""
    rng = np.random.default_rng(seed)
    papers = []
    for n in range(1500):
        words_ = CLUSTERS[n % 3]
        # Few words, drawn with repeats: equal weights (ties between columns) are common.
        title = " ".join(rng.choice(words_, 3).tolist())
        abstract = " ".join(rng.choice(words_, int(rng.integers(4, 12))).tolist())
        papers.append(_paper(n, title, abstract))
    links = related_papers(papers, Settings(count=5))
    model = text_model(papers)
    text, names = model.text, model.terms
    dense = text.toarray()
    index = {p.id: i for i, p in enumerate(papers)}
    pairs = {(min(index[pid], index[r.id]), max(index[pid], index[r.id])) for pid, rs in links.items() for r in rs}
    assert len(pairs) > 4096  # more than one batch of pairs
    for pid, rs in links.items():
        for r in rs:
            i, j = index[pid], index[r.id]
            product = dense[i] * dense[j]
            terms = _greedy_terms(product, names, TERMS_IN_WHY)
            assert r.why == ("shared terms: " + ", ".join(terms) if terms else "similar wording"), (i, j)
    for i, j in sorted(pairs)[::40]:
        product = dense[i] * dense[j]
        for limit in (1, 2, 5, 8):
            assert shared_terms(text, names, i, j, limit) == _greedy_terms(product, names, limit), (i, j, limit)
