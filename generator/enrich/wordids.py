"""The words of many texts as one array of word ids, numbered in order of first use.

Topic matching and the TF-IDF of related papers both start by splitting every title and abstract
into words and numbering them: an ASCII text is split into its runs of word characters
(`str.translate` and `str.split`), any other text by the caller's regular expression, and the
words are numbered with a dict. A block of texts at a time, so that the words of ten thousand
papers are never all held as Python strings at once. Each splits its own texts: topic matching
the titles and abstracts as they are, related papers their lower-cased texts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

Split = Callable[[str], list[str]]
_SEPARATORS = re.compile(r"[^\w\x00-\x7f]+")
# Texts numbered at once: a block's words are held as Python strings only while it is numbered,
# so the word model of 10,000 papers never holds all of them.
BLOCK = 1000


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
    plain = [t.isascii() for t in texts]
    if not all(plain):
        # Most text outside ASCII is ASCII words with a few curly quotes or dashes: with those
        # blanked out (they are not word characters) it is split as ASCII text.
        texts = [t if a else _SEPARATORS.sub(" ", t) for t, a in zip(texts, plain, strict=True)]
        plain = [t.isascii() for t in texts]
    blank = str.maketrans({c: " " for c in range(128) if chr(c) not in word_chars})
    return plain_word_ids([t.translate(blank).split() if a else fallback(t) for t, a in zip(texts, plain, strict=True)])

