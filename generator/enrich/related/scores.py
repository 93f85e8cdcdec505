"""Similarity scores of every pair of papers, and each paper's best links.

The score of papers i and j is the dot product of their weighted rows: words (a sparse product)
plus topic tags (a sparse row against a dense copy of the few tag columns), added in float32.
It is symmetric to the bit: score(i, j) sums the same products, the shared columns ascending, as
score(j, i), and a float sum does not depend on the order of its two terms. So each chunk of rows
is scored against its own and the later columns only (half the products), and hands the later
rows, as candidates, the scores it computed for them:

- every row's own part (columns from its chunk on) gives its best k there (`top_k`);
- a row's earlier columns were scored by the earlier chunks; of those, only the scores that reach
  a lower bound of its final k-th best can matter: its k-th best in its own part. The chunks are
  scored last first, so a chunk's rows have their bounds (from `top_k` of its own block) before
  any earlier chunk needs them (`bounds` makes the same lower bound for rows whose chunks are
  not scored, from their own chunk's columns alone);
- each row's best k are the best of its candidates (`best_candidates`), in `top_k`'s order.

`tests/enrich/test_related_terms.py` compares this with scoring every row against every column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import scipy.sparse as sp

Triples = tuple["np.ndarray", "np.ndarray", "np.ndarray"]


@dataclass
class Scoring:
    """The weighted rows the score is made of, and how many links each paper gets."""

    words: sp.csr_matrix  # strongest terms, weighted
    words_t: sp.csr_matrix
    topics: sp.csr_matrix  # tags, weighted
    topics_t: np.ndarray  # dense, tags x papers
    k: int
    floor: np.float32
    chunk: int

    @property
    def size(self) -> int:
        return int(self.words.shape[0])

    def block(self, start: int, stop: int, first: int, last: int) -> np.ndarray:
        """Scores of rows start..stop-1 against columns first..last-1, the diagonal at -1."""
        import numpy as np

        # A few columns: the transpose of their rows, rather than a slice of all of words_t
        # (scipy reads every row of it for that); the products are the same, summed alike.
        narrow = (last - first) * 5 < self.size
        right = self.words[first:last].T if narrow else self.words_t[:, first:last]
        scores = (self.words[start:stop] @ right).toarray()
        scores += self.topics[start:stop] @ self.topics_t[:, first:last]
        own = np.arange(max(start, first), min(stop, last))
        scores[own - start, own - first] = -1.0  # never related to itself
        return scores


def bounds(m: Scoring, starts: Sequence[int] | None = None) -> np.ndarray:
    """Per row, a score its k-th best link has at least: the k-th best among its own chunk's
    columns (or `floor`, whichever is higher). Only for the rows of the chunks at `starts` (all
    by default); other rows get `floor`."""
    import numpy as np

    out = np.full(m.size, m.floor, dtype=np.float32)
    for start in chunk_starts(m) if starts is None else starts:
        stop = min(start + m.chunk, m.size)
        _own_bounds(m, m.block(start, stop, start, stop), start, out)
    return out


def _own_bounds(m: Scoring, scores: np.ndarray, start: int, out: np.ndarray) -> None:
    """`bounds` of the rows of the chunk at `start` into `out`, from their scores against the
    columns from `start` on (the first columns are the chunk's own)."""
    import numpy as np

    width = min(start + m.chunk, m.size) - start
    if width > m.k:
        kth = np.partition(scores[:, :width], width - m.k, axis=1)[:, width - m.k]
        out[start:start + width] = np.maximum(kth, m.floor)


def _part_bounds(m: Scoring, rows: np.ndarray, values: np.ndarray, start: int, out: np.ndarray) -> None:
    """Raise `out` for the rows of the chunk at `start` to the k-th best score of each among the
    columns from `start` on (`top_k`'s rows and values for them), where it found k."""
    import numpy as np

    if m.k < 1 or not len(rows):
        return
    last = np.flatnonzero(np.diff(rows, append=rows[-1] + 1))  # each row's last entry (its k-th)
    full = np.diff(np.concatenate([[-1], last])) == m.k
    at = rows[last[full]] + start
    out[at] = np.maximum(out[at], values[last[full]])


def chunk_starts(m: Scoring) -> list[int]:
    return list(range(0, m.size, m.chunk))


def candidates(m: Scoring, starts: Sequence[int], floor_of: np.ndarray) -> Triples:
    """(row, column, score) candidates from the chunks beginning at `starts`: each row's best
    k among the columns from its chunk on, and the later rows' scores that reach `bounds`.

    The chunks are scored last first: each one's best k give its rows' bounds on the way (at
    least those `bounds` makes from the same products), so `floor_of` (`bounds` or an array of the
    same shape) is only read for the rows after the last of `starts`."""
    import numpy as np

    found = [(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32))]
    n = m.size
    floor_of = floor_of.copy()
    for start in sorted(starts, reverse=True):
        stop = min(start + m.chunk, n)
        scores = m.block(start, stop, start, n)
        rows, cols, values = top_k(scores, m.k, m.floor)
        _part_bounds(m, rows, values, start, floor_of)
        found.append((rows + start, cols + start, values))
        if stop < n:
            later = scores[:, stop - start:]
            # (np.nonzero of a 2-d mask is several times slower than flatnonzero and divmod.)
            mine, theirs = np.divmod(np.flatnonzero(later >= floor_of[stop:]), later.shape[1])
            found.append((theirs + stop, mine + start, later[mine, theirs]))
    rows, cols, values = (np.concatenate(parts) for parts in zip(*found, strict=True))
    return rows, cols, values


def best_candidates(rows: np.ndarray, cols: np.ndarray, values: np.ndarray, k: int) -> Triples:
    """Each row's k best of (row, column, score) candidates, in `top_k`'s order: by row, best
    first, equal scores by column."""
    import numpy as np

    packed = _link_keys(rows, cols, values)
    if packed is None:
        rows, cols, values = in_link_order(rows, cols, values)
        first = np.searchsorted(rows, rows, side="left")
        keep = np.arange(len(rows)) - first < k
        return rows[keep], cols[keep], values[keep]
    # A million candidates at 10,000 papers: the first k of each row's run of sorted keys are
    # picked by the runs' bounds, and only those keys are taken apart (each array the size of
    # all candidates is new memory, which costs kernel time here).
    keys, col_bits = packed
    row_of = keys >> (31 + col_bits)
    starts = np.flatnonzero(np.concatenate([[True], row_of[1:] != row_of[:-1]]))
    del row_of
    ends = np.append(starts[1:], len(keys))
    picked = starts[:, None] + np.arange(max(k, 0))
    picked = picked[picked < ends[:, None]]
    return _unpacked(keys[picked], col_bits)


def in_link_order(rows: np.ndarray, cols: np.ndarray, values: np.ndarray) -> Triples:
    """The triples sorted by row, then score descending, then column."""
    import numpy as np

    packed = _link_keys(rows, cols, values)
    if packed is None:
        order = np.lexsort((cols, -values, rows))
        return rows[order], cols[order], values[order]
    return _unpacked(*packed)


def _link_keys(rows: np.ndarray, cols: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, int] | None:
    """The triples as one sorted int64 each, and the bits of the column part; None when they do
    not fit (or a score is below zero). The bits of a float32 >= 0 order like its value, so row,
    the score's bits turned over, and column side by side sort in the wanted order. Made in
    place: one array the size of the triples, and one more for a moment."""
    import numpy as np

    row_bits = max(int(rows.max(initial=0)), 1).bit_length()
    col_bits = max(int(cols.max(initial=0)), 1).bit_length()
    if row_bits + 31 + col_bits > 63 or bool(np.signbit(values).any()):
        return None
    keys = rows.astype(np.int64)
    keys <<= 31
    bits = values.astype(np.float32, copy=False).view(np.int32).astype(np.int64)
    np.subtract(0x7FFFFFFF, bits, out=bits)
    keys |= bits
    del bits
    keys <<= col_bits
    keys |= cols
    keys.sort()
    return keys, col_bits


def _unpacked(keys: np.ndarray, col_bits: int) -> Triples:
    """(rows, cols, scores) of sorted `_link_keys`."""
    import numpy as np

    flipped = (keys >> col_bits) & 0x7FFFFFFF
    return (keys >> (31 + col_bits), keys & ((1 << col_bits) - 1),
            (0x7FFFFFFF - flipped).astype(np.int32).view(np.float32))


def float32_at_least(value: float) -> np.float32:
    """The least float32 >= `value`: `score >= it` in float32 is `float(score) >= value`."""
    import numpy as np

    f = np.float32(value)
    return f if float(f) >= value else np.nextafter(f, np.float32(np.inf))


def top_k(scores: np.ndarray, k: int, floor: np.float32, block: int = 128) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's k best columns with a score >= `floor`, as (row, column, score) arrays sorted by
    row, then best first, equal scores by column (so builds are reproducible)."""
    import numpy as np

    height, width = scores.shape
    # Partitioning every row is costly. The k-th largest of a row's block maxima is a lower bound
    # of its k-th largest score, and only the few blocks whose maximum reaches it hold candidates.
    maxima = np.maximum.reduceat(scores, np.arange(0, width, block), axis=1)
    bound = np.full(height, floor, dtype=scores.dtype)
    if maxima.shape[1] > k:
        bound = np.maximum(np.partition(maxima, maxima.shape[1] - k, axis=1)[:, maxima.shape[1] - k], bound)
    rows, blocks = np.nonzero(maxima >= bound[:, None])
    cols = blocks[:, None] * block + np.arange(block)
    inside = cols < width
    cols = np.minimum(cols, width - 1)
    hit = inside & (scores[rows[:, None], cols] >= bound[rows][:, None])
    rows, cols = np.broadcast_to(rows[:, None], cols.shape)[hit], cols[hit]
    values = scores[rows, cols]
    order = np.lexsort((cols, -values, rows))
    rows, cols, values = rows[order], cols[order], values[order]
    per_row = np.bincount(rows, minlength=height)
    rank = np.arange(len(rows)) - (np.cumsum(per_row) - per_row)[rows]
    keep = rank < k
    return rows[keep], cols[keep], values[keep]


