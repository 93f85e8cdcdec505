"""The text side of related papers: words, unigram + bigram counts and their TF-IDF weights.

This does what scikit-learn's `TfidfVectorizer(ngram_range=(1, 2), stop_words="english",
sublinear_tf=True)` does, in numpy: importing scikit-learn alone took two seconds of every build
(and of every `mkdocs` start, even when nothing had changed), and its vectorizer spends most of its
time on one Python step per n-gram. numpy and scipy are imported by the functions that use them,
so importing this module costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..wordids import BLOCK, MadeWhenRead, word_ids

if TYPE_CHECKING:
    import numpy as np
    import scipy.sparse as sp

# scikit-learn's ENGLISH_STOP_WORDS (BSD licence), copied so that it need not be imported.
ENGLISH_STOP_WORDS = frozenset("""
    a about above across after afterwards again against all almost alone along already also although
    always am among amongst amoungst amount an and another any anyhow anyone anything anyway
    anywhere are around as at back be became because become becomes becoming been before beforehand
    behind being below beside besides between beyond bill both bottom but by call can cannot cant co
    con could couldnt cry de describe detail do done down due during each eg eight either eleven
    else elsewhere empty enough etc even ever every everyone everything everywhere except few
    fifteen fifty fill find fire first five for former formerly forty found four from front full
    further get give go had has hasnt have he hence her here hereafter hereby herein hereupon hers
    herself him himself his how however hundred i ie if in inc indeed interest into is it its itself
    keep last latter latterly least less ltd made many may me meanwhile might mill mine more
    moreover most mostly move much must my myself name namely neither never nevertheless next nine
    no nobody none noone nor not nothing now nowhere of off often on once one only onto or other
    others otherwise our ours ourselves out over own part per perhaps please put rather re same see
    seem seemed seeming seems serious several she should show side since sincere six sixty so some
    somehow someone something sometime sometimes somewhere still such system take ten than that the
    their them themselves then thence there thereafter thereby therefore therein thereupon these
    they thick thin third this those though three through throughout thru thus to together too top
    toward towards twelve twenty two un under until up upon us very via was we well were what
    whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever
    whether which while whither who whoever whole whom whose why will with within without would yet
    you your yours yourself yourselves
""".split())
# Words every abstract uses; as "shared terms" they would explain nothing.
ABSTRACT_WORDS = frozenset("""
    approach approaches based demonstrate demonstrates existing improve improved improves improving
    method methods novel paper performance propose proposed provide provides result results show
    shows study studies using work achieve achieves outperforms outperforming significantly state art
    framework new recent recently effective effectively efficient address key challenge challenges
    compared furthermore moreover finally specifically introduce present experiments
""".split())
STOP_SET = frozenset(ENGLISH_STOP_WORDS | ABSTRACT_WORDS)
TOKEN = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's default token pattern
# In ASCII text that pattern finds the runs of [A-Za-z0-9_] two or more long: blank out every
# other character (str.translate has a fast path for ASCII) and split, three times faster.
WORD_CHARS = "".join(chr(c) for c in range(128) if chr(c).isalnum() or chr(c) == "_")
_BLANK = str.maketrans({c: " " for c in range(128) if chr(c) not in WORD_CHARS})


def words(text: str) -> list[str]:
    """The lower-cased words of `text`; in ASCII text one-letter words are still among them
    (`count_terms` drops them with the stop words, once per distinct word)."""
    low = text.lower()
    if low.isascii():
        return low.translate(_BLANK).split()
    return TOKEN.findall(low)


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


def count_terms(texts: Sequence[str], min_df: int, max_df: float,
                block: int = BLOCK) -> tuple[sp.csr_matrix, TermNames]:
    """Unigram + bigram counts, as CountVectorizer(ngram_range=(1, 2)) makes them (same token
    pattern, stop words removed before pairing), with the bigrams built in numpy. `block` texts
    at a time (see BLOCK): their pairs first, then, with every bigram numbered, their counts."""
    import numpy as np

    n = len(texts)
    # (One-letter words of ASCII text are among these: `kept` drops them with the stop words.)
    # Lower-cased a block at a time, as word_ids reads them, not all at once.
    numbered, lengths, seen = word_ids(MadeWhenRead(texts, str.lower), WORD_CHARS, TOKEN.findall, block)
    kept = np.fromiter((len(w) > 1 and w not in STOP_SET for w in seen), dtype=bool, count=len(seen))
    vocab_words = [w for w, k in zip(seen, kept, strict=True) if k]
    # Ids in order of first use among the kept words, as when stop words are dropped up front.
    # Word ids and text numbers in 32 bits (fewer than 2**31 of either): the arrays of every
    # block are held until all bigrams are numbered.
    renumber = (np.cumsum(kept) - 1).astype(np.int32)
    v = len(vocab_words)
    # Column keys: word id for a unigram, v + first * v + second for a bigram. Every kept word
    # is used somewhere, so the unigram keys are 0..v-1 and only the bigrams need sorting out
    # (in 32 bits while first * v + second fits: a faster sort).
    pair_type = np.int32 if v * v < 2**31 else np.int64
    ends = np.cumsum(lengths)
    spans = [(a, min(a + block, n)) for a in range(0, max(n, 1), block)]
    parts = []
    for a, b in spans:
        ids = numbered[(ends[a - 1] if a else 0):(ends[b - 1] if b else 0)]
        keep = kept[ids]
        flat, doc = renumber[ids[keep]], np.repeat(np.arange(b - a, dtype=np.int32), lengths[a:b])[keep]
        same = doc[1:] == doc[:-1] if len(flat) > 1 else np.zeros(0, dtype=bool)
        pairs = flat[:-1][same].astype(pair_type) * pair_type(v) + flat[1:][same].astype(pair_type)
        parts.append((flat, doc, pairs, doc[1:][same]))
    pair_keys, pair_cols = _bigram_columns([pairs for _, _, pairs, _ in parts])
    width = v + len(pair_keys)
    counted = []
    for (a, b), (flat, doc, _, pair_doc), cols in zip(spans, parts, pair_cols, strict=True):
        counted.append(_count_matrix(np.concatenate([doc, pair_doc]), np.concatenate([flat, v + cols]),
                                     (b - a, width)))
    parts.clear()
    df = np.zeros(width, dtype=np.int64)
    for counts in counted:
        df += np.bincount(counts.indices, minlength=width)
    columns = np.flatnonzero((df >= min_df) & (df <= max_df * n))
    uniq = np.concatenate([np.arange(v, dtype=np.int64), v + pair_keys.astype(np.int64)])
    return _keep_columns(counted, columns, width, n), TermNames(vocab_words, uniq[columns])


def _bigram_columns(blocks: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The distinct bigram keys of all blocks, ascending, and each block's bigrams as indexes into
    them (`np.unique` of every key: looking each one up in the sorted keys instead, `searchsorted`,
    a million lookups scattered over a few megabytes at 10,000 papers, took four times as long)."""
    import numpy as np

    every = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int64)
    keys, inverse = np.unique(every, return_inverse=True)
    ends = np.cumsum([len(pairs) for pairs in blocks]).tolist()
    return keys, [inverse[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def _keep_columns(blocks: list[sp.csr_matrix], columns: np.ndarray, width: int, height: int) -> sp.csr_matrix:
    """The blocks stacked, with only the given (ascending) columns, renumbered from 0: what
    `sp.csr_matrix(sp.vstack(blocks)[:, columns])` is, without scipy's copies of every index."""
    import numpy as np
    import scipy.sparse as sp

    new = np.full(width, -1, dtype=np.int32 if width < 2**31 else np.int64)
    new[columns] = np.arange(len(columns))
    data, indices, sizes = [], [], []
    for counts in blocks:
        moved = new[counts.indices]
        keep = moved >= 0
        rows = np.repeat(np.arange(counts.shape[0], dtype=np.int32), np.diff(counts.indptr))
        data.append(counts.data[keep])
        indices.append(moved[keep])
        sizes.append(np.bincount(rows[keep], minlength=counts.shape[0]))
    indptr = np.concatenate([[0], np.cumsum(np.concatenate(sizes))])
    return sp.csr_matrix((np.concatenate(data).astype(np.float32), np.concatenate(indices), indptr),
                         shape=(height, len(columns)))


def _count_matrix(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]) -> sp.csr_matrix:
    """How often each (row, column) occurs, as a CSR matrix in canonical form (what
    csr_matrix((ones, (rows, cols))) with duplicates summed is): one sort of row * width + column,
    faster than scipy's conversion and sort of the indices of every row."""
    import numpy as np
    import scipy.sparse as sp

    height, width = shape
    kind = np.int32 if height * width < 2**31 else np.int64
    keys = rows.astype(kind) * width + cols.astype(kind)
    keys.sort()
    if len(keys) == 0:
        return sp.csr_matrix(shape, dtype=np.float32)
    edge = np.empty(len(keys), dtype=bool)
    edge[0] = True
    np.not_equal(keys[1:], keys[:-1], out=edge[1:])
    first = np.flatnonzero(edge)
    cells = keys[first]
    data = np.diff(np.append(first, len(keys))).astype(np.float32)
    row, col = np.divmod(cells, width)
    indptr = np.searchsorted(row, np.arange(height + 1))
    return sp.csr_matrix((data, col, indptr), shape=shape)


def tfidf(counts: sp.csr_matrix) -> sp.csr_matrix:
    """TfidfTransformer(sublinear_tf=True): (1 + log tf) * smoothed idf, rows of unit length."""
    import numpy as np
    import scipy.sparse as sp

    n = counts.shape[0]
    df = np.bincount(counts.indices, minlength=counts.shape[1]).astype(np.float32)
    idf = (np.log(np.float32(n + 1) / (df + np.float32(1))) + np.float32(1)).astype(np.float32)
    data = (np.log(counts.data, dtype=np.float32) + np.float32(1)) * idf[counts.indices]
    weights = sp.csr_matrix((data, counts.indices, counts.indptr), shape=counts.shape)
    return normalize_rows(weights)


def normalize_rows(matrix: sp.csr_matrix) -> sp.csr_matrix:
    """Each row scaled to unit length (empty rows stay empty)."""
    import numpy as np
    import scipy.sparse as sp

    lengths = np.diff(matrix.indptr)
    rows = np.repeat(np.arange(matrix.shape[0]), lengths)
    squares = np.bincount(rows, weights=matrix.data.astype(np.float64) ** 2, minlength=matrix.shape[0])
    norms = np.sqrt(squares)
    norms[norms == 0] = 1.0
    data = (matrix.data / np.repeat(norms, lengths)).astype(np.float32)
    return sp.csr_matrix((data, matrix.indices, matrix.indptr), shape=matrix.shape)
