"""Topic matching over every title and abstract at once: `Taxonomy.hits` for many texts, in numpy.

`Taxonomy.hits` (taxonomy.py) is the definition: one text at a time, word by word. Ten thousand
papers are twenty thousand texts, and a Python step per word of each was most of the enrich
stage. Here the words of all texts are one array of word ids, and each rule of `hits` is an array
operation over it:

- a one-word phrase counts at every position of a word that matches it (once per topic);
- a longer phrase counts where its first word is, if the next words match the rest of it and the
  text does not end first; a topic counts once per start position, whichever of its phrases
  matched there;
- a pattern counts its matches (`findall`); a text without the pattern's longest literal cannot
  hold a match, so only the few texts that have it are searched.

The result is the same counts, text for text (tests/enrich/test_topics_match.py compares the two).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from ..wordids import BLOCK, word_ids
from .evidence import from_hits
from .taxonomy import _BLANK, _WORD, TITLE_WEIGHT, Key, Taxonomy

if TYPE_CHECKING:
    import numpy as np


# The characters of a word of ASCII text, as `Taxonomy.hits` splits it (`word_ids` takes them).
ASCII_WORD_CHARS = "".join(chr(c) for c in range(128) if chr(c).isalnum())


def tokens(text: str) -> list[str]:
    """The words of `text` as `Taxonomy.hits` splits them."""
    return text.translate(_BLANK).split() if text.isascii() else _WORD.findall(text)


def count_hits(taxonomy: Taxonomy, texts: Sequence[str], block: int = BLOCK) -> np.ndarray:
    """Matches per text and topic (rows: texts, columns: topics), as `taxonomy.hits` counts them.
    `block` texts at a time, as their words are numbered (wordids.BLOCK): all twenty thousand
    texts of 10,000 papers at once took 300 MB of new memory and twice the time."""
    import numpy as np

    width = len(taxonomy.topics)
    counts = np.zeros((len(texts), width), dtype=np.int64)
    if not texts or not width:
        return counts
    for start in range(0, len(texts), block):
        _count_block(taxonomy, texts[start:start + block], counts[start:start + block])
    return counts


def _count_block(taxonomy: Taxonomy, texts: Sequence[str], counts: np.ndarray,
                 words: tuple[np.ndarray, np.ndarray, list[str]] | None = None,
                 found: dict[re.Pattern[str], dict[int, int]] | None = None) -> None:
    """`count_hits` of some texts, added into `counts` (their rows); `words`: the texts' word
    ids when another taxonomy's count already made them; `found`: each pattern's matches in these
    texts, filled and reused (the evidence table holds the topics' own patterns)."""
    import numpy as np

    width = counts.shape[1]
    flat, lengths, vocab = words or word_ids(texts, ASCII_WORD_CHARS, _WORD.findall)
    taxonomy.learn(vocab)
    doc = np.repeat(np.arange(len(texts)), lengths)
    cells = [_single_cells(taxonomy, vocab, flat, doc, width)]
    cells.append(_phrase_cells(taxonomy, vocab, flat, doc, np.cumsum(lengths), width))
    both = np.concatenate(cells)
    counts += np.bincount(both, minlength=len(texts) * width).reshape(len(texts), width)
    found = {} if found is None else found
    for n, pattern in taxonomy.patterns:
        if pattern not in found:
            found[pattern] = _pattern_counts(pattern, texts)
        for row, times in found[pattern].items():
            counts[row, n] += times


def _ragged(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For runs of the given lengths laid end to end: each item's run, and its place in the run."""
    import numpy as np

    run = np.repeat(np.arange(len(lengths)), lengths)
    starts = np.cumsum(lengths) - lengths
    return run, np.arange(len(run)) - starts[run]


def _single_cells(taxonomy: Taxonomy, vocab: list[str], flat: np.ndarray, doc: np.ndarray,
                  width: int) -> np.ndarray:
    """doc * width + topic for every position and topic a one-word phrase matches there."""
    import numpy as np

    single = list(map(taxonomy.single_topics, vocab))
    size = np.fromiter(map(len, single), dtype=np.int64, count=len(vocab))
    table = np.fromiter(chain.from_iterable(single), dtype=np.int64, count=int(size.sum()))
    first = np.cumsum(size) - size
    per_position = size[flat]
    position, place = _ragged(per_position)
    topic = table[first[flat[position]] + place]
    return doc[position] * width + topic


def _phrase_cells(taxonomy: Taxonomy, vocab: list[str], flat: np.ndarray, doc: np.ndarray,
                  ends: np.ndarray, width: int) -> np.ndarray:
    """doc * width + topic, once per start position and topic, where a longer phrase matches."""
    import numpy as np

    starts = list(map(taxonomy.phrase_starts, vocab))
    size = np.fromiter(map(len, starts), dtype=np.int64, count=len(vocab))
    if not size.any():
        return np.zeros(0, dtype=np.int64)
    # Every distinct rest of a phrase, and every key such a rest asks for, numbered.
    rests: dict[tuple[Key, ...], int] = {}
    key_ids: dict[Key, int] = {}
    entry_rest, entry_topic = [], []
    for rest, topic in chain.from_iterable(starts):
        entry_rest.append(rests.setdefault(rest, len(rests)))
        entry_topic.append(topic)
        for key in rest:
            key_ids.setdefault(key, len(key_ids))
    longest = max(map(len, rests))
    # rest id -> its key ids, -1 past its end; and which vocabulary word has which key.
    rest_keys = np.full((len(rests), longest), -1, dtype=np.int64)
    for rest, r in rests.items():
        rest_keys[r, : len(rest)] = [key_ids[k] for k in rest]
    rest_len = (rest_keys >= 0).sum(axis=1)
    has = np.zeros((len(vocab), len(key_ids)), dtype=bool)
    for v, word in enumerate(vocab):
        for key in taxonomy.word_keys(word):
            k = key_ids.get(key)
            if k is not None:
                has[v, k] = True
    first = np.cumsum(size) - size
    position, place = _ragged(size[flat])
    entry = first[flat[position]] + place
    rest = np.asarray(entry_rest, dtype=np.int64)[entry]
    topic = np.asarray(entry_topic, dtype=np.int64)[entry]
    # The phrase must end inside the text it starts in.
    ok = position + rest_len[rest] < ends[doc[position]]
    position, rest, topic = position[ok], rest[ok], topic[ok]
    for j in range(longest):
        need = rest_keys[rest, j]
        check = need >= 0
        ok = np.ones(len(position), dtype=bool)
        ok[check] = has[flat[position[check] + 1 + j], need[check]]
        position, rest, topic = position[ok], rest[ok], topic[ok]
    # A topic counts once per start position, however many of its phrases start there.
    cell = np.unique(position * width + topic)
    return doc[cell // width] * width + cell % width


def _pattern_counts(pattern: re.Pattern[str], texts: Sequence[str]) -> dict[int, int]:
    """Row -> number of matches, for the texts where `pattern` matches at all."""
    maybe = required_literal(pattern)
    found: dict[int, int] = {}
    for row, text in enumerate(texts):
        if maybe is not None and not maybe(text):
            continue
        times = len(pattern.findall(text))
        if times:
            found[row] = times
    return found


def required_literal(pattern: re.Pattern[str]) -> Callable[[str], bool] | None:
    """A quick test that every text with a match of `pattern` passes (None when there is none):
    the longest run of plain characters every match must contain."""
    try:
        from re import _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # an internal module: without it, every text is searched
        return None
    runs: list[str] = []
    current: list[str] = []

    def walk(items: Any) -> None:
        for op, av in items:
            if op is _parser.LITERAL:
                current.append(chr(av))
            elif op is _parser.SUBPATTERN and not av[1] and not av[2]:
                walk(av[3])  # a group without flags of its own: its characters are in line
            else:
                runs.append("".join(current))
                current.clear()

    walk(parsed)
    runs.append("".join(current))
    literal = max(runs, key=len)
    if not literal:
        return None
    if not pattern.flags & re.IGNORECASE:
        return lambda text: literal in text
    if not literal.isascii():
        return None
    # Ignoring case, a letter of ASCII text matches another ASCII letter only as its other case;
    # other text (the Kelvin sign matches `k`) is always searched.
    low = literal.lower()
    return lambda text: not text.isascii() or low in text.lower()


def match_many(taxonomy: Taxonomy, titles: Sequence[str], abstracts: Sequence[str],
               categories: Sequence[Sequence[str]] | None = None) -> list[list[str]]:
    """`taxonomy.match(title, abstract, categories)` for each paper."""
    import numpy as np

    n = len(titles)
    if not taxonomy.topics:
        return [[] for _ in range(n)]
    cats = categories or [()] * n
    table = taxonomy.evidence_table()
    width = len(taxonomy.topics)
    score = np.zeros((n, width), dtype=np.int64)
    allowed = np.zeros((n, width), dtype=bool)
    echoed = np.zeros((n, width), dtype=bool)
    # The topics and the evidence (evidence.py) are counted over the same words: number each
    # block's words once (half the cost of a count) and count both taxonomies over them.
    step = BLOCK // 2
    for start in range(0, n, step):
        stop = min(n, start + step)
        size = stop - start
        texts = [*titles[start:stop], *abstracts[start:stop]]
        words = word_ids(texts, ASCII_WORD_CHARS, _WORD.findall)
        matches: dict[re.Pattern[str], dict[int, int]] = {}
        hits = np.zeros((2 * size, width), dtype=np.int64)
        _count_block(taxonomy, texts, hits, words, matches)
        found = np.zeros((2 * size, len(table.owner)), dtype=np.int64)
        _count_block(table.taxonomy, texts, found, words, matches)
        score[start:stop] = TITLE_WEIGHT * hits[:size] + hits[size:]
        evidence = from_hits(taxonomy, found, cats[start:stop])
        allowed[start:stop] = evidence.allows(taxonomy)
        if evidence.echoed is not None:
            echoed[start:stop] = evidence.echoed
    minimum = np.array([t.min_hits for t in taxonomy.topics], dtype=np.int64)
    # Rule 3 of evidence.py: a title's echo of a matched phrase stands for the missing hits.
    rows, cols = np.nonzero(((score >= minimum) | echoed) & allowed)
    # Strongest first, ties in the taxonomy's order (np.nonzero gives columns ascending per row).
    order = np.lexsort((cols, -score[rows, cols], rows))
    rows, cols = rows[order], cols[order]
    names = taxonomy.names
    out: list[list[str]] = [[] for _ in range(n)]
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        out[row].append(names[col])
    return out
