"""The words of many texts as one array of word ids, numbered in order of first use.

Topic matching and the TF-IDF of related papers both start by splitting every title and abstract
into words and numbering them. Done with `str.split` and a dict, that is a Python string and a
hash per word (two million of them at ten thousand papers) and took half a second each. Here the
ASCII texts are one byte array, and numpy finds the runs of word characters and numbers them:

- each word is read as 8-byte pieces (unaligned loads from the buffer) and hashed, and the hash
  (its top 40-odd bits) sorted together with the word's position in one 64-bit integer, so equal
  words end up side by side, first use first;
- words side by side with equal hashes are compared piece by piece; if two different words ever
  share a hash, or the input is too large for the packing, the plain dict numbering is used.

Texts with other characters are split by the caller's `fallback` (its regular expression) and
numbered together with the rest. The result is the one of `plain_word_ids` (tested).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from itertools import chain, compress
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

Split = Callable[[str], list[str]]
_SEPARATORS = re.compile(r"[^\w\x00-\x7f]+")
# Texts numbered at once: the arrays of a block (several per word) are held only while it is
# numbered, so the word model of 10,000 papers never holds the arrays of all of them.
BLOCK = 1000
# Positions take the low bits of each sort key, the hash the rest; with fewer hash bits than this
# (four billion words) words are numbered the plain way.
_HASH_BITS = 32


class WordIds(dict[str, int]):
    """Word -> id in order of first use: `map(ids.__getitem__, words)` numbers the words in C,
    and `list(ids)` is the vocabulary in that order."""

    def __missing__(self, word: str) -> int:
        self[word] = n = len(self)
        return n


def plain_word_ids(docs: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(word ids of all docs end to end, words per doc, vocabulary in order of first use)."""
    import numpy as np

    ids = WordIds()
    flat = np.fromiter(map(ids.__getitem__, chain.from_iterable(docs)), dtype=np.int64)
    lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    return flat, lengths, list(ids)


class MadeWhenRead(Sequence[str]):
    """`make(item)` of each item, made when read (one, or a slice at a time): `word_ids` reads a
    block of texts at a time, so that the texts are never all made at once."""

    def __init__(self, items: Sequence[Any], make: Callable[[Any], str]) -> None:
        self._items, self._make = items, make

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, at: Any) -> Any:
        if isinstance(at, slice):
            return list(map(self._make, self._items[at]))
        return self._make(self._items[at])


def word_ids(texts: Sequence[str], word_chars: str, fallback: Split,
             block: int = BLOCK) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """`plain_word_ids` of the texts split into words: an ASCII text into its maximal runs of
    `word_chars` (ASCII), any other text by `fallback` (a regular expression's findall for
    Unicode words). A text whose only characters outside ASCII are not word characters (`\\w`)
    is split as ASCII text with those characters blanked out: the words `fallback` finds there,
    when it finds maximal runs of word characters, one-letter runs included.

    `block` texts at a time: each block's words are numbered on their own, then renumbered by
    the vocabulary of the blocks before (a block's vocabulary is in order of first use, so its
    new words come in the order the whole text first uses them)."""
    import numpy as np

    if len(texts) <= block:
        # (A list: `_block_ids` reads the texts more than once, and they may be made when read.)
        return _block_ids(list(texts), word_chars, fallback)
    ids = WordIds()
    flats, lengths = [], []
    for start in range(0, len(texts), block):
        flat, sizes, vocab = _block_ids(texts[start:start + block], word_chars, fallback)
        # 32-bit ids: a vocabulary is far below 2**31 words, and the ids of every block are held.
        known = np.fromiter(map(ids.__getitem__, vocab), dtype=np.int32, count=len(vocab))
        flats.append(known[flat])
        lengths.append(sizes)
    return np.concatenate(flats), np.concatenate(lengths), list(ids)


def _block_ids(texts: Sequence[str], word_chars: str, fallback: Split) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """`word_ids` of texts numbered at once."""
    import numpy as np

    plain = [t.isascii() for t in texts]
    if not all(plain):
        # Most text outside ASCII is ASCII words with a few curly quotes or dashes: with those
        # blanked out (they are not word characters) it is split as ASCII text.
        texts = [t if a else _SEPARATORS.sub(" ", t) for t, a in zip(texts, plain, strict=True)]
        plain = [t.isascii() for t in texts]
    joined = " ".join(compress(texts, plain))
    found = _ascii_words(joined, word_chars)
    if found is None:
        blank = str.maketrans({c: " " for c in range(128) if chr(c) not in word_chars})
        return plain_word_ids([t.translate(blank).split() if a else fallback(t)
                               for t, a in zip(texts, plain, strict=True)])
    starts, ends, group, first = found
    # Words per ASCII text: each text's words start between its offset and the next one's.
    sizes = np.fromiter((len(t) + 1 for t in compress(texts, plain)), dtype=np.int64)
    bounds = np.searchsorted(starts, np.concatenate([[0], np.cumsum(sizes)]))
    vocab = [joined[s:e] for s, e in zip(starts[first].tolist(), ends[first].tolist(), strict=True)]
    if all(plain):
        # Groups are numbered by hash; renumber them in order of first use.
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return rank[group], np.diff(bounds), [vocab[g] for g in order.tolist()]
    # Other texts: their words numbered after the ASCII ones, and all of them renumbered by the
    # first use in text order.
    known = {w: g for g, w in enumerate(vocab)}
    parts, lengths, k = [], [], 0
    for text, ascii_text in zip(texts, plain, strict=True):
        if ascii_text:
            parts.append(group[bounds[k]:bounds[k + 1]])
            k += 1
        else:
            words = fallback(text)
            parts.append(np.fromiter((known.setdefault(w, len(known)) for w in words), dtype=np.int64,
                                     count=len(words)))
        lengths.append(len(parts[-1]))
    flat = np.concatenate([np.zeros(0, dtype=np.int64), *parts])
    words_all = list(known)
    seen = np.full(len(words_all), len(flat), dtype=np.int64)
    np.minimum.at(seen, flat, np.arange(len(flat)))
    order = np.argsort(seen, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[flat], np.asarray(lengths, dtype=np.int64), [words_all[g] for g in order.tolist()]


def _ascii_words(joined: str, word_chars: str) -> tuple[np.ndarray, ...] | None:
    """(start, end, group, first use of each group) of the runs of `word_chars` in `joined`;
    groups numbered by hash, not by first use. None when they cannot be told apart so."""
    import numpy as np

    # A blank before (so that a word at the very start has an edge) and after (room for the last
    # 8-byte load); positions below count from the blank before, and are shifted back at the end.
    raw = b" " + joined.encode("ascii") + b" " * 8
    word = bytes(1 if chr(c) in word_chars else 0 for c in range(256))
    flags = np.frombuffer(raw.translate(word), dtype=np.int8)
    starts = np.flatnonzero(flags[1:] > flags[:-1]) + 1
    ends = np.flatnonzero(flags[1:] < flags[:-1]) + 1
    count = len(starts)
    if count == 0:
        empty = np.zeros(0, dtype=np.int64)
        return starts, ends, empty, empty
    index_bits = max(count - 1, 1).bit_length()
    if 64 - index_bits < _HASH_BITS:
        return None
    lengths = (ends - starts).astype(np.uint64)
    # Every 8 bytes from each position, as one integer (the buffer read at a stride of 1).
    load = np.ndarray(shape=(len(raw) - 7,), dtype="<u8", buffer=raw, strides=(1,))
    masks = np.array([(1 << (8 * r)) - 1 for r in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
    head = load[starts] & masks[np.minimum(lengths, np.uint64(8)).astype(np.intp)]
    h = _mix(lengths * np.uint64(0x9E3779B97F4A7C15) ^ head)
    for q, at in _longer(lengths):
        h[at] = _mix(h[at] ^ _piece(load, masks, starts[at], lengths[at], q))
    keys = ((h >> np.uint64(index_bits)) << np.uint64(index_bits)) | np.arange(count, dtype=np.uint64)
    keys.sort()
    where = (keys & np.uint64((1 << index_bits) - 1)).astype(np.intp)
    hashes = keys >> np.uint64(index_bits)
    new = np.empty(count, dtype=bool)
    new[0] = True
    np.not_equal(hashes[1:], hashes[:-1], out=new[1:])
    group = np.empty(count, dtype=np.int64)
    group[where] = np.cumsum(new) - 1
    # Within a group positions ascend (they are the low bits of the sorted keys).
    first = where[new]
    # Equal hashes: the same word, or the hash cannot tell them apart. Each word is compared with
    # its group's first, looked up in arrays the size of the vocabulary (reading the words in hash
    # order instead would jump all over the buffer).
    if not (np.array_equal(lengths, lengths[first][group]) and np.array_equal(head, head[first][group])):
        return None
    for q, at in _longer(lengths):
        mine = _piece(load, masks, starts[at], lengths[at], q)
        theirs = group[at]
        if not np.array_equal(mine, _piece(load, masks, starts[first][theirs], lengths[at], q)):
            return None
    return starts - 1, ends - 1, group, first


def _mix(h: np.ndarray) -> np.ndarray:
    import numpy as np

    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(31)
    return h


def _longer(lengths: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(q, the words longer than 8 * q bytes) for q = 1, 2, ... while there are any."""
    import numpy as np

    at = np.flatnonzero(lengths > 8)
    q = 1
    while len(at):
        yield q, at
        q += 1
        at = at[lengths[at] > 8 * q]


def _piece(load: np.ndarray, masks: np.ndarray, starts: np.ndarray, lengths: np.ndarray, q: int) -> np.ndarray:
    """Bytes 8q..8q+7 of words longer than 8q bytes (fewer, zero-padded, at a word's end)."""
    import numpy as np

    rest = np.minimum(lengths - np.uint64(8 * q), np.uint64(8)).astype(np.intp)
    return load[starts + 8 * q] & masks[rest]


# -- the same one-integer sort for unique values ----------------------------------------------
# (numpy 2's np.unique without return_* hashes, and with return_inverse argsorts: both several
# times slower than sorting one int64 array.)


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """np.unique(values) for an integer array."""
    import numpy as np

    ordered = np.sort(values, axis=None)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def unique_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(values, return_inverse=True) for a 1-d array of integers."""
    import numpy as np

    count = len(values)
    if count == 0 or int(values.min()) < 0 or int(values.max()) >= 1 << 31 or count >= 1 << 32:
        found, inverse = np.unique(values, return_inverse=True)
        return found, inverse.reshape(-1)
    # Value and position in one int64: one sort orders both.
    keys = (values.astype(np.int64) << 32) | np.arange(count, dtype=np.int64)
    keys.sort()
    ordered = keys >> 32
    new = np.empty(count, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(count, dtype=np.int64)
    inverse[keys & 0xFFFFFFFF] = np.cumsum(new) - 1
    return ordered[new].astype(values.dtype), inverse
