"""Related papers: TF-IDF over title and abstract, boosted by shared topic tags.

Each paper is one sparse row: the TF-IDF vector of its text (unigrams and bigrams, English stop
words, sublinear tf) and an IDF-weighted vector of its tags, both unit length and mixed by
`topic_weight`, so the dot product of two rows is a score in [0, 1]. Scores are computed a chunk
of rows at a time against its own and the later rows (scores.py), and only each row's best
candidates are kept: memory grows with N * chunk, never N * N.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise, repeat
from typing import TYPE_CHECKING

from ...model import Paper, Related
from ..text import plain_title
from ..topics.taxonomy import stem
from ..wordids import BLOCK, MadeWhenRead
from .scores import (
    Scoring,
    best_candidates,
    bounds,
    candidates,
    chunk_starts,
    float32_at_least,
    top_k,
)
from .terms import STOP_SET, TermNames, count_terms, normalize_rows, tfidf

if TYPE_CHECKING:
    import numpy as np
    import scipy.sparse as sp

__all__ = ["STOP_SET", "Settings", "TagModel", "TermNames", "TextModel", "related_papers", "shared_terms",
           "tag_model", "text_model", "top_k"]

TOPIC_WEIGHT = 0.35
# Rows scored at a time. Their scores against the later columns are dense (256 x 10,000 float32,
# 10 MB, at 10,000 papers), and so are the products they are made of: with 512 the build's process
# held 24 MB more at once for the same CPU time (measured), and new memory costs kernel time here.
CHUNK = 256
TERMS_IN_WHY = 3
TOPICS_IN_WHY = 3
# Terms per paper that take part in the similarity product: a paper's strongest terms carry its
# subject, while its weakest (common words, low IDF) are most of the cost of the product.
MAX_TERMS = 64


@dataclass(frozen=True)
class Settings:
    count: int = 5
    min_score: float = 0.08
    topic_weight: float = TOPIC_WEIGHT
    chunk: int = CHUNK


def paper_text(paper: Paper) -> str:
    # The title twice: its words say more about the subject than the abstract's.
    title = plain_title(paper.title) if not paper.title_missing else ""
    return f"{title}. {title}. {paper.abstract}"


def _text_matrix(texts: Sequence[str], block: int = BLOCK) -> tuple[sp.csr_matrix, TermNames]:
    import numpy as np
    import scipy.sparse as sp

    n = len(texts)
    # A term in one paper only cannot be shared, and one in most papers says nothing.
    counts, names = count_terms(texts, min_df=2 if n >= 3 else 1, max_df=0.5 if n >= 10 else 1.0, block=block)
    if counts.shape[1] == 0:
        return sp.csr_matrix((n, 0), dtype=np.float32), names
    return tfidf(counts), names


def _tag_matrix(tag_lists: Sequence[Sequence[str]]) -> tuple[sp.csr_matrix, list[str], Counter[str]]:
    import numpy as np
    import scipy.sparse as sp

    df: Counter[str] = Counter(t for tags in tag_lists for t in set(tags))
    names = sorted(df)
    col = {t: i for i, t in enumerate(names)}
    n = len(tag_lists)
    rows, cols, vals = [], [], []
    for r, tags in enumerate(tag_lists):
        for t in dict.fromkeys(tags):
            rows.append(r)
            cols.append(col[t])
            vals.append(math.log((1 + n) / (1 + df[t])) + 1.0)
    matrix = sp.csr_matrix((np.array(vals, dtype=np.float32), (rows, cols)), shape=(n, len(names)))
    if not names:
        return matrix, names, df
    return normalize_rows(matrix), names, df


@dataclass
class TextModel:
    """The text side of the score: TF-IDF rows, their column names, and the weighted rows of each
    paper's strongest terms (with their transpose) that the products use."""

    text: sp.csr_matrix
    terms: TermNames
    words: sp.csr_matrix
    words_t: sp.csr_matrix


def text_model(papers: Sequence[Paper], settings: Settings | None = None) -> TextModel:
    """What the score takes from titles and abstracts alone."""
    import numpy as np
    import scipy.sparse as sp

    # Each paper's text made when its block is read: a list of all of them was 16 MB at 10,000 papers.
    text, terms = _text_matrix(MadeWhenRead(papers, paper_text))
    w = _topic_weight(settings or Settings())
    words = sp.csr_matrix(strongest(text, MAX_TERMS) * np.float32(math.sqrt(1 - w)))
    return TextModel(text, terms, words, sp.csr_matrix(words.T))


def _topic_weight(cfg: Settings) -> float:
    return min(max(cfg.topic_weight, 0.0), 1.0)


@dataclass
class TagModel:
    """The tag side of the score: the weighted tag rows, a dense tags x papers copy of them, and
    how many papers carry each tag."""

    topics: sp.csr_matrix
    topics_t: np.ndarray
    df: Counter[str]


def tag_model(tag_lists: Sequence[Sequence[str]], settings: Settings | None = None) -> TagModel:
    """What the score takes from the tags alone."""
    import numpy as np
    import scipy.sparse as sp

    tags, _, df = _tag_matrix(tag_lists)
    # Words: a sparse product; tags: against a dense copy, as a tag most papers carry (cs.LG)
    # makes that part dense anyway. Not BLAS (a dense @ dense): its threads would spin on both
    # cores for little gain. How the pairs are scored: scores.py.
    topics = sp.csr_matrix(tags * np.float32(math.sqrt(_topic_weight(settings or Settings()))))
    return TagModel(topics, np.ascontiguousarray(topics.toarray().T), df)


def related_papers(papers: Sequence[Paper], settings: Settings | None = None,
                   model: TextModel | None = None, tags: TagModel | None = None,
                   tag_lists: Sequence[Sequence[str]] | None = None) -> dict[str, tuple[Related, ...]]:
    """Best-first related papers for every paper id (papers with none map to `()`).
    `model` is `text_model(papers, settings)` and `tags` is `tag_model` of the papers' tags
    when the caller made them already; `tag_lists`: the papers' tags, if not theirs yet."""
    import numpy as np

    cfg = settings or Settings()
    n = len(papers)
    out: dict[str, tuple[Related, ...]] = {p.id: () for p in papers}
    if n < 2 or cfg.count <= 0:
        return out
    tag_lists = [p.tags for p in papers] if tag_lists is None else tag_lists
    words = model if model is not None else text_model(papers, cfg)
    tagged = tags if tags is not None else tag_model(tag_lists, cfg)
    tag_df = tagged.df
    scoring = Scoring(words.words, words.words_t, tagged.topics, tagged.topics_t,
                      min(cfg.count, n - 1), float32_at_least(cfg.min_score), cfg.chunk)
    starts = chunk_starts(scoring)
    ci, cj, cs = candidates(scoring, starts, bounds(scoring, []))
    pi, pj, ps = best_candidates(ci, cj, cs, scoring.k)
    ids = [p.id for p in papers]
    why = _reasons(tag_lists, words.text, words.terms, tag_df, pi, pj)
    links = list(map(Related, map(ids.__getitem__, pj.tolist()), map(round, ps.tolist(), repeat(4)), why))
    # Rows come in order: each row's links are a run of the arrays.
    rows = pi.tolist()
    edges = [0, *(np.flatnonzero(np.diff(pi)) + 1).tolist(), len(rows)]
    for a, b in pairwise(edges):
        if a < b:
            out[ids[rows[a]]] = tuple(links[a:b])
    return out


def strongest(matrix: sp.csr_matrix, limit: int) -> sp.csr_matrix:
    """Each row's `limit` largest entries (ties: lower column first); the rest dropped."""
    import numpy as np
    import scipy.sparse as sp

    rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    # One stable sort: by row, then by weight descending (data is in (0, 1]); CSR keeps columns
    # ascending within a row, so ties stay in column order.
    order = np.argsort(rows + (1.0 - matrix.data.astype(np.float64)) * 0.5, kind="stable")
    rank = np.arange(len(order)) - matrix.indptr[rows[order]]
    keep = np.sort(order[rank < limit])
    return sp.csr_matrix((matrix.data[keep], (rows[keep], matrix.indices[keep])), shape=matrix.shape)


def _reasons(tag_lists: Sequence[Sequence[str]], text: sp.csr_matrix, terms: TermNames, tag_df: Counter[str],
             pi: np.ndarray, pj: np.ndarray) -> list[str]:
    """The reason shown for each pair (pi[x], pj[x]) of papers with these tags."""
    import numpy as np

    n = len(tag_lists)
    # Shared terms do not depend on the direction of a pair: each pair's once.
    lo, hi = np.minimum(pi, pj), np.maximum(pi, pj)
    pairs, which = np.unique(lo.astype(np.int64) * n + hi, return_inverse=True)
    shared = _shared_terms_many(text, terms, (pairs // n).tolist(), (pairs % n).tolist())
    # A tag most papers carry (say cs.LG) explains nothing.
    telling = [[t for t in tags if n < 5 or tag_df[t] <= n / 2] for tags in tag_lists]
    tag_sets = [set(tags) for tags in tag_lists]
    # "shared topics: ...; shared terms: ...", either part alone, or "similar wording"; the terms
    # part written once per pair.
    said = ["shared terms: " + ", ".join(words) if words else "" for words in shared]
    out = []
    for i, j, x in zip(pi.tolist(), pj.tolist(), which.tolist(), strict=True):
        other = tag_sets[j]
        topics = [t for t in telling[i] if t in other][:TOPICS_IN_WHY]
        terms_part = said[x]
        if topics:
            topics_part = "shared topics: " + ", ".join(topics)
            out.append(f"{topics_part}; {terms_part}" if terms_part else topics_part)
        else:
            out.append(terms_part or "similar wording")
    return out


def _shared_terms_many(text: sp.csr_matrix, terms: TermNames | np.ndarray, rows_a: list[int], rows_b: list[int],
                       limit: int = TERMS_IN_WHY, batch: int = 4096) -> list[list[str]]:
    """For each pair (a, b): the terms adding most to their text similarity."""
    import numpy as np
    import scipy.sparse as sp

    if not rows_a or text.shape[1] == 0:
        return [[] for _ in rows_a]
    named: dict[int, tuple[str, set[str]]] = {}
    out: list[list[str]] = []
    # In batches, so the elementwise products of all pairs are never in memory at once (4096 pairs:
    # 26 MB at the most at 10,000 papers, 47 MB with 8192, in the same time).
    for first in range(0, len(rows_a), batch):
        a, b = rows_a[first:first + batch], rows_b[first:first + batch]
        product = sp.csr_matrix(text[a].multiply(text[b]))
        product.sort_indices()
        rows = np.repeat(np.arange(len(a)), np.diff(product.indptr))
        positive = product.data > 0
        rows, cols, weight = rows[positive], product.indices[positive], product.data[positive]
        # Strongest first, ties by column; only the first few can make it into the reason, so
        # each pair's first `limit * 4` go to Python (all of them when those are not enough).
        rows, cols = _by_weight(rows, cols, weight, len(a), text.shape[1])
        bounds = np.searchsorted(rows, np.arange(len(a) + 1))
        rank = np.arange(len(rows)) - bounds[rows]
        head = rank < limit * 4
        short = np.searchsorted(rows[head], np.arange(len(a) + 1)).tolist()
        first_columns = cols[head].tolist()
        full = np.diff(bounds) > limit * 4
        easy = _first_terms_if_distinct(cols, bounds, terms, named, limit)
        for r, known in enumerate(easy):
            if known is not None:
                out.append(known)
                continue
            picked = _pick_terms(first_columns[short[r]:short[r + 1]], terms, named, limit)
            if len(picked) < limit and full[r]:
                picked = _pick_terms(cols[bounds[r]:bounds[r + 1]].tolist(), terms, named, limit)
            out.append(picked)
    return out


def _first_terms_if_distinct(cols: np.ndarray, bounds: np.ndarray, terms: TermNames | np.ndarray,
                             named: dict[int, tuple[str, set[str]]], limit: int) -> list[list[str] | None]:
    """Per pair: its first `limit` terms when no two of them share a word stem (so `_pick_terms`
    would take exactly those), else None. Most pairs, decided in numpy."""
    import numpy as np

    height = len(bounds) - 1
    out: list[list[str] | None] = [None] * height
    enough = np.flatnonzero(np.diff(bounds) >= limit)
    if limit < 1 or not len(enough):
        return out
    first = cols[bounds[enough][:, None] + np.arange(limit)]  # (pairs, limit) columns, best first
    needed = np.unique(first).tolist()
    for column in needed:
        if column not in named:
            term = str(terms[column])
            named[column] = (term, {stem(w) for w in term.split()})
    stem_ids: dict[str, int] = {}
    width = max(len(named[c][1]) for c in needed)
    table = np.full((len(needed), width), -1, dtype=np.int64)
    for k, column in enumerate(needed):
        for j, word in enumerate(sorted(named[column][1])):
            table[k, j] = stem_ids.setdefault(word, len(stem_ids))
    stems = table[np.searchsorted(needed, first)]  # (pairs, limit, width), -1 = no stem
    clash = np.zeros(len(enough), dtype=bool)
    for j in range(1, limit):
        for i in range(j):
            same = (stems[:, j, :, None] == stems[:, i, None, :]) & (stems[:, j, :, None] >= 0)
            clash |= same.any(axis=(1, 2))
    names = {c: named[c][0] for c in needed}
    for r, columns in zip(enough[~clash].tolist(), first[~clash].tolist(), strict=True):
        out[r] = [names[c] for c in columns]
    return out


def _by_weight(rows: np.ndarray, cols: np.ndarray, weight: np.ndarray, height: int,
               width: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) in order of row, then weight (positive float32) descending, then column."""
    import numpy as np

    row_bits, col_bits = max(height - 1, 1).bit_length(), max(width - 1, 1).bit_length()
    if row_bits + 31 + col_bits > 63:
        # (np.lexsort is slower than two stable sorts; CSR columns come sorted within a row.)
        order = np.argsort(-weight, kind="stable")
        order = order[np.argsort(rows[order], kind="stable")]
        return rows[order], cols[order]
    # One sort of one integer per entry: the bits of a positive float32 order like its value,
    # so row, the weight's bits turned over, and column side by side sort in the wanted order.
    flipped = np.int64(0x7FFFFFFF) - weight.astype(np.float32).view(np.int32).astype(np.int64)
    keys = (rows.astype(np.int64) << (31 + col_bits)) | (flipped << col_bits) | cols.astype(np.int64)
    keys.sort()
    return keys >> (31 + col_bits), keys & ((1 << col_bits) - 1)


def _pick_terms(columns: Iterable[int], terms: TermNames | np.ndarray,
                named: dict[int, tuple[str, set[str]]], limit: int) -> list[str]:
    picked: list[str] = []
    used: set[str] = set()
    for column in columns:
        entry = named.get(column)
        if entry is None:
            term = str(terms[column])
            entry = named[column] = (term, {stem(w) for w in term.split()})
        term, stems = entry
        # `policy distillation` already says `distillation`: no word twice in the reason.
        if stems & used:
            continue
        picked.append(term)
        used |= stems
        if len(picked) == limit:
            break
    return picked


def shared_terms(text: sp.csr_matrix, terms: TermNames | np.ndarray, i: int, j: int,
                 limit: int = TERMS_IN_WHY) -> list[str]:
    """The terms that add most to the text similarity of papers i and j."""
    return _shared_terms_many(text, terms, [i], [j], limit)[0]

