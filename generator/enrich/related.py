"""Related papers: TF-IDF over title and abstract, boosted by shared topic tags.

Each paper is one sparse row: the TF-IDF vector of its text (unigrams and bigrams, English stop
words, sublinear tf) and an IDF-weighted vector of its tags, both unit length and mixed by
`topic_weight`, so the dot product of two rows is a score in [0, 1]. Scores are computed a chunk
of rows at a time against all rows (sparse product), and only the top k per row are kept: memory
grows with N * chunk, never N * N.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfTransformer
from sklearn.preprocessing import normalize

from ..model import Paper, Related
from .text import plain_title
from .topics import stem

TOPIC_WEIGHT = 0.35
CHUNK = 512
TERMS_IN_WHY = 3
TOPICS_IN_WHY = 3
# Terms per paper that take part in the similarity product: a paper's strongest terms carry its
# subject, while its weakest (common words, low IDF) are most of the cost of the product.
MAX_TERMS = 64
# Words every abstract uses; as "shared terms" they would explain nothing.
ABSTRACT_WORDS = frozenset("""
    approach approaches based demonstrate demonstrates existing improve improved improves improving
    method methods novel paper performance propose proposed provide provides result results show
    shows study studies using work achieve achieves outperforms outperforming significantly state art
    framework new recent recently effective effectively efficient address key challenge challenges
    compared furthermore moreover finally specifically introduce present experiments
""".split())
STOP_SET = frozenset(ENGLISH_STOP_WORDS | ABSTRACT_WORDS)
_TOKEN = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's default token pattern


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


class TermNames:
    """Column -> term text, built on demand (only the terms shown in reasons are ever named)."""

    def __init__(self, words: list[str], keys: np.ndarray) -> None:
        self.words, self.keys, self.size = words, keys, len(words)

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, column: int) -> str:
        key = int(self.keys[column])
        if key < self.size:
            return self.words[key]
        first, second = divmod(key - self.size, self.size)
        return f"{self.words[first]} {self.words[second]}"


def count_terms(texts: Sequence[str], min_df: int, max_df: float) -> tuple[sp.csr_matrix, TermNames]:
    """Unigram + bigram counts, as scikit-learn's CountVectorizer(ngram_range=(1, 2)) makes them
    (same token pattern, stop words removed before pairing), but with the bigrams built in numpy:
    CountVectorizer spends most of its time on one Python step per n-gram."""
    stop = STOP_SET
    docs = [[w for w in _TOKEN.findall(text.lower()) if w not in stop] for text in texts]
    everything = [w for words in docs for w in words]
    # dict.fromkeys and map run in C: one pass for the vocabulary, one for the word ids.
    vocab = {w: i for i, w in enumerate(dict.fromkeys(everything))}
    flat = np.fromiter(map(vocab.__getitem__, everything), dtype=np.int64, count=len(everything))
    v = len(vocab)
    lengths = np.array([len(words) for words in docs], dtype=np.int64)
    doc = np.repeat(np.arange(len(texts)), lengths)
    same = doc[1:] == doc[:-1] if len(flat) > 1 else np.zeros(0, dtype=bool)
    bigrams = v + flat[:-1][same] * v + flat[1:][same]
    keys = np.concatenate([flat, bigrams])
    rows = np.concatenate([doc, doc[1:][same]])
    uniq, cols = np.unique(keys, return_inverse=True)
    counts = sp.csr_matrix((np.ones(len(keys), dtype=np.float32), (rows, cols)), shape=(len(texts), len(uniq)))
    counts.sum_duplicates()
    df = np.bincount(counts.indices, minlength=len(uniq))
    keep = np.flatnonzero((df >= min_df) & (df <= max_df * len(texts)))
    return sp.csr_matrix(counts[:, keep]), TermNames(list(vocab), uniq[keep])


def _text_matrix(texts: Sequence[str]) -> tuple[sp.csr_matrix, TermNames]:
    n = len(texts)
    # A term in one paper only cannot be shared, and one in most papers says nothing.
    counts, names = count_terms(texts, min_df=2 if n >= 3 else 1, max_df=0.5 if n >= 10 else 1.0)
    if counts.shape[1] == 0:
        return sp.csr_matrix((n, 0), dtype=np.float32), names
    weights = TfidfTransformer(sublinear_tf=True).fit_transform(counts)
    return sp.csr_matrix(weights, dtype=np.float32), names


def _tag_matrix(tag_lists: Sequence[Sequence[str]]) -> tuple[sp.csr_matrix, list[str], Counter[str]]:
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
    return sp.csr_matrix(normalize(matrix)), names, df


def related_papers(papers: Sequence[Paper], settings: Settings | None = None) -> dict[str, tuple[Related, ...]]:
    """Best-first related papers for every paper id (papers with none map to `()`)."""
    cfg = settings or Settings()
    n = len(papers)
    out: dict[str, tuple[Related, ...]] = {p.id: () for p in papers}
    if n < 2 or cfg.count <= 0:
        return out
    text, terms = _text_matrix([paper_text(p) for p in papers])
    tags, _, tag_df = _tag_matrix([p.tags for p in papers])
    w = min(max(cfg.topic_weight, 0.0), 1.0)
    joint = sp.csr_matrix(sp.hstack([strongest(text, MAX_TERMS) * math.sqrt(1 - w), tags * math.sqrt(w)],
                                    format="csr"))
    joint_t = sp.csr_matrix(joint.T)
    k = min(cfg.count, n - 1)
    for start in range(0, n, cfg.chunk):
        stop = min(start + cfg.chunk, n)
        scores = (joint[start:stop] @ joint_t).toarray()
        scores[np.arange(stop - start), np.arange(start, stop)] = -1.0  # never related to itself
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < n else np.argsort(-scores, axis=1)
        pairs: list[tuple[int, int, float]] = []
        for r in range(stop - start):
            # Best first; equal scores in input order, so builds are reproducible.
            cands = sorted(((float(scores[r, j]), int(j)) for j in top[r]), key=lambda sj: (-sj[0], sj[1]))
            pairs += [(start + r, j, score) for score, j in cands if score >= cfg.min_score]
        words = _shared_terms_many(text, terms, [i for i, _, _ in pairs], [j for _, j, _ in pairs])
        grouped: dict[int, list[Related]] = {}
        for (i, j, score), shared in zip(pairs, words, strict=True):
            why = explain(papers[i], papers[j], shared, tag_df, n)
            grouped.setdefault(i, []).append(Related(papers[j].id, round(score, 4), why))
        for i, links in grouped.items():
            out[papers[i].id] = tuple(links)
    return out


def strongest(matrix: sp.csr_matrix, limit: int) -> sp.csr_matrix:
    """Each row's `limit` largest entries (ties: lower column first); the rest dropped."""
    rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    # One stable sort: by row, then by weight descending (data is in (0, 1]); CSR keeps columns
    # ascending within a row, so ties stay in column order.
    order = np.argsort(rows + (1.0 - matrix.data.astype(np.float64)) * 0.5, kind="stable")
    rank = np.arange(len(order)) - matrix.indptr[rows[order]]
    keep = np.sort(order[rank < limit])
    return sp.csr_matrix((matrix.data[keep], (rows[keep], matrix.indices[keep])), shape=matrix.shape)


def _shared_terms_many(text: sp.csr_matrix, terms: TermNames | np.ndarray, rows_a: list[int], rows_b: list[int],
                       limit: int = TERMS_IN_WHY) -> list[list[str]]:
    """For each pair (a, b): the terms adding most to their text similarity (one sparse product)."""
    if not rows_a or text.shape[1] == 0:
        return [[] for _ in rows_a]
    product = sp.csr_matrix(text[rows_a].multiply(text[rows_b]))
    out = []
    for r in range(len(rows_a)):
        lo, hi = product.indptr[r], product.indptr[r + 1]
        idx, weight = product.indices[lo:hi], product.data[lo:hi]
        # Strongest first, ties by column; only the first few can make it into the reason.
        order = np.lexsort((idx, -weight))
        out.append(_pick_terms((terms[idx[x]] for x in order if weight[x] > 0), limit))
    return out


def _pick_terms(candidates: Iterable[str], limit: int) -> list[str]:
    picked: list[str] = []
    for term in candidates:
        # `policy distillation` already says `distillation`: no word twice in the reason.
        stems = {stem(w) for w in term.split()}
        if any(stems & {stem(w) for w in p.split()} for p in picked):
            continue
        picked.append(term)
        if len(picked) == limit:
            break
    return picked


def shared_terms(text: sp.csr_matrix, terms: TermNames | np.ndarray, i: int, j: int,
                 limit: int = TERMS_IN_WHY) -> list[str]:
    """The terms that add most to the text similarity of papers i and j."""
    return _shared_terms_many(text, terms, [i], [j], limit)[0]


def shared_topics(a: Paper, b: Paper, tag_df: Counter[str], n: int, limit: int = TOPICS_IN_WHY) -> list[str]:
    other = set(b.tags)
    common = [t for t in a.tags if t in other]
    # A tag most papers carry (say cs.LG) explains nothing.
    telling = [t for t in common if n < 5 or tag_df[t] <= n / 2]
    return telling[:limit]


def explain(a: Paper, b: Paper, words: list[str], tag_df: Counter[str], n: int) -> str:
    parts = []
    topics = shared_topics(a, b, tag_df, n)
    if topics:
        parts.append("shared topics: " + ", ".join(topics))
    if words:
        parts.append("shared terms: " + ", ".join(words))
    return "; ".join(parts) or "similar wording"


def with_related(papers: list[Paper], settings: Settings | None = None) -> list[Paper]:
    from dataclasses import replace

    links = related_papers(papers, settings)
    return [replace(p, related=links[p.id]) for p in papers]
