"""Related papers: TF-IDF over title and abstract, boosted by shared topic tags.

Each paper is one sparse row: the TF-IDF vector of its text (unigrams and bigrams, English stop
words, sublinear tf) and an IDF-weighted vector of its tags, both unit length and mixed by
`topic_weight`, so the dot product of two rows is a score in [0, 1]. Scores are computed a chunk
of rows at a time against all rows (sparse product), and only the top k per row are kept: memory
grows with N * chunk, never N * N.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer
from sklearn.preprocessing import normalize

from ..model import Paper, Related
from .text import plain_title
from .topics import stem

TOPIC_WEIGHT = 0.35
CHUNK = 512
TERMS_IN_WHY = 3
TOPICS_IN_WHY = 3
# Words every abstract uses; as "shared terms" they would explain nothing.
ABSTRACT_WORDS = frozenset("""
    approach approaches based demonstrate demonstrates existing improve improved improves improving
    method methods novel paper performance propose proposed provide provides result results show
    shows study studies using work achieve achieves outperforms outperforming significantly state art
    framework new recent recently effective effectively efficient address key challenge challenges
    compared furthermore moreover finally specifically introduce present experiments
""".split())
STOP_WORDS = sorted(ENGLISH_STOP_WORDS | ABSTRACT_WORDS)


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


def _text_matrix(texts: Sequence[str]) -> tuple[sp.csr_matrix, np.ndarray]:
    n = len(texts)
    vectorizer = TfidfVectorizer(
        ngram_range=(1, 2), stop_words=STOP_WORDS, sublinear_tf=True, dtype=np.float32,
        # A term in one paper only cannot be shared, and one in most papers says nothing.
        min_df=2 if n >= 3 else 1, max_df=0.5 if n >= 10 else 1.0,
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # nothing left after stop words and df limits (tiny or empty corpus)
        return sp.csr_matrix((n, 0), dtype=np.float32), np.array([], dtype=object)
    return sp.csr_matrix(matrix), vectorizer.get_feature_names_out()


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
    joint = sp.csr_matrix(sp.hstack([text * math.sqrt(1 - w), tags * math.sqrt(w)], format="csr"))
    joint_t = sp.csr_matrix(joint.T)
    k = min(cfg.count, n - 1)
    for start in range(0, n, cfg.chunk):
        stop = min(start + cfg.chunk, n)
        scores = (joint[start:stop] @ joint_t).toarray()
        scores[np.arange(stop - start), np.arange(start, stop)] = -1.0  # never related to itself
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < n else np.argsort(-scores, axis=1)
        for r in range(stop - start):
            i = start + r
            # Best first; equal scores in input order, so builds are reproducible.
            cands = sorted(((float(scores[r, j]), int(j)) for j in top[r]), key=lambda sj: (-sj[0], sj[1]))
            links = []
            for score, j in cands:
                if score < cfg.min_score:
                    continue
                why = explain(papers[i], papers[j], text, terms, i, j, tag_df, n)
                links.append(Related(papers[j].id, round(score, 4), why))
            out[papers[i].id] = tuple(links)
    return out


def shared_terms(text: sp.csr_matrix, terms: np.ndarray, i: int, j: int, limit: int = TERMS_IN_WHY) -> list[str]:
    """The terms that add most to the text similarity of papers i and j."""
    a = slice(text.indptr[i], text.indptr[i + 1])
    b = slice(text.indptr[j], text.indptr[j + 1])
    common, ia, ib = np.intersect1d(text.indices[a], text.indices[b], assume_unique=True, return_indices=True)
    if not len(common):
        return []
    weight = text.data[a][ia] * text.data[b][ib]
    order = sorted(range(len(common)), key=lambda x: (-float(weight[x]), int(common[x])))
    picked: list[str] = []
    for x in order:
        term = str(terms[common[x]])
        # `policy distillation` already says `distillation`: no word twice in the reason.
        stems = {stem(w) for w in term.split()}
        if any(stems & {stem(w) for w in p.split()} for p in picked):
            continue
        picked.append(term)
        if len(picked) == limit:
            break
    return picked


def shared_topics(a: Paper, b: Paper, tag_df: Counter[str], n: int, limit: int = TOPICS_IN_WHY) -> list[str]:
    other = set(b.tags)
    common = [t for t in a.tags if t in other]
    # A tag most papers carry (say cs.LG) explains nothing.
    telling = [t for t in common if n < 5 or tag_df[t] <= n / 2]
    return telling[:limit]


def explain(a: Paper, b: Paper, text: sp.csr_matrix, terms: np.ndarray, i: int, j: int,
            tag_df: Counter[str], n: int) -> str:
    parts = []
    topics = shared_topics(a, b, tag_df, n)
    if topics:
        parts.append("shared topics: " + ", ".join(topics))
    words = shared_terms(text, terms, i, j)
    if words:
        parts.append("shared terms: " + ", ".join(words))
    return "; ".join(parts) or "similar wording"


def with_related(papers: list[Paper], settings: Settings | None = None) -> list[Paper]:
    from dataclasses import replace

    links = related_papers(papers, settings)
    return [replace(p, related=links[p.id]) for p in papers]
