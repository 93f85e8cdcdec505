"""The words of many texts as one array of word ids, numbered in order of first use.

Topic matching and the TF-IDF of related papers both start by splitting every title and abstract
into words and numbering them: an ASCII text is split into its runs of word characters
(`str.translate` and `str.split`), any other text by the caller's regular expression, and the
words are numbered with a dict. A block of texts at a time, so that the words of ten thousand
papers are never all held as Python strings at once.

Related papers number the same words again, lower-cased: `shared_word_ids` makes those from the
word ids topic matching made (a dict lookup per distinct word, not per word), and splits again
only the texts where the two splits differ.
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
_WORD_OUTSIDE_ASCII = re.compile(r"[^\W\x00-\x7f]")
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


# The word ids of one block of papers as topic matching numbered them (topics/match.py):
# (ids of the block's titles then its abstracts, end to end; words per text; the block's vocabulary).
Numbered = tuple["np.ndarray", "np.ndarray", list[str]]


def can_share_words(title: str, abstract: str) -> bool:
    """Whether a paper's related-papers words (`terms.count_terms` of `related.paper_text`, lower
    case) are its topic-matching words lower-cased: title and abstract with no `_` (a word
    character for one and not the other) and no word character outside ASCII (both splits blank
    out the other characters outside ASCII, dashes and quotes, and lower case turns none of those
    into a word character: tests/enrich/test_shared_words.py checks every code point), and a title
    with no TeX that `plain_title` takes apart (`\\`, `$`)."""
    return ("_" not in title and "_" not in abstract and "\\" not in title and "$" not in title
            and (title.isascii() or not _WORD_OUTSIDE_ASCII.search(title))
            and (abstract.isascii() or not _WORD_OUTSIDE_ASCII.search(abstract)))


def shared_word_ids(blocks: Sequence[Numbered], shared: Sequence[bool], own: Callable[[int], str],
                    word_chars: str, fallback: Split) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """`word_ids` of the papers' lower-cased texts (title, title again, abstract), made from the
    words topic matching numbered (`blocks`, papers in order) rather than by splitting every text
    again: for each paper that `can_share_words` (`shared`), its topic words lower-cased; for the
    others, their own text (`own(paper number)`, already lower case) split as `word_ids` splits it.
    Numbered in order of first use, as `word_ids` numbers them."""
    import numpy as np

    low = WordIds()
    seqs, sizes = [], []
    first_paper = 0
    for flat, lengths, vocab in blocks:
        m = len(lengths) // 2
        to_low = np.fromiter(map(low.__getitem__, map(str.lower, vocab)), dtype=np.int64, count=len(vocab))
        starts = np.cumsum(lengths) - lengths
        title, abstract = lengths[:m], lengths[m:]
        # Each paper's three runs (title, title, abstract) of the block's ids, gathered in order.
        run_len = np.stack([title, title, abstract], axis=1).ravel()
        run_start = np.stack([starts[:m], starts[:m], starts[m:]], axis=1).ravel()
        gather = np.repeat(run_start - (np.cumsum(run_len) - run_len), run_len) + np.arange(int(run_len.sum()))
        seq = to_low[flat[gather]]
        size = 2 * title + abstract
        others = [k for k in range(m) if not shared[first_paper + k]]
        if others:
            pieces = np.split(seq, np.cumsum(size)[:-1])
            for k in others:
                words_flat, _, words = _block_ids([own(first_paper + k)], word_chars, fallback)
                pieces[k] = np.fromiter(map(low.__getitem__, words), dtype=np.int64, count=len(words))[words_flat]
                size[k] = len(pieces[k])
            seq = np.concatenate(pieces) if pieces else seq
        seqs.append(seq)
        sizes.append(size)
        first_paper += m
    every = np.concatenate(seqs) if seqs else np.zeros(0, dtype=np.int64)
    # Renumbered by first use (a word of the topic vocabularies that no text here uses is left out).
    first = np.full(len(low), len(every), dtype=np.int64)
    np.minimum.at(first, every, np.arange(len(every), dtype=np.int64))
    order = np.argsort(first, kind="stable")[: int((first < len(every)).sum())]
    rank = np.empty(len(low), dtype=np.int64)
    rank[order] = np.arange(len(order))
    words = list(low)
    lengths_all = np.concatenate(sizes) if sizes else np.zeros(0, dtype=np.int64)
    return rank[every], lengths_all, [words[i] for i in order.tolist()]
