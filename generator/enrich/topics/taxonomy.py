"""A taxonomy's topics and how one text matches them: the definition (`Taxonomy.hits`,
`Taxonomy.match`) that match.py computes for all papers at once, and the evidence table that
evidence.py's rule reads (each phrase of each topic a topic of its own), with the rule's default
learning categories and phrases (a taxonomy's own, unless topics.yml gives others).

Reading topics.yml into a `Taxonomy` and tagging papers with it is the package's (__init__.py).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress

import snowballstemmer

_WORD = re.compile(r"[^\W_]+")
# In ASCII text `_WORD` finds the runs of letters and digits: blank out the rest and split (str.translate
# has a fast path for ASCII), three times faster over ten thousand abstracts.
_BLANK = str.maketrans({c: " " for c in range(128) if not chr(c).isalnum()})
_STEMMER = snowballstemmer.stemmer("english")
# Title words say more about a paper than abstract words.
TITLE_WEIGHT = 2

Key = tuple[str, str]

# A paper is about learning when one of these is among its arXiv categories...
LEARNING_CATEGORIES = ("cs.LG", "stat.ML", "cs.AI", "cs.CL", "cs.CV", "cs.NE", "cs.IR", "cs.RO", "cs.MA")
# ...or when two or more of these phrases (distinct stems) are in its title and abstract.
LEARNING_PHRASES = (
    "machine learning", "deep learning", "neural network", "deep network", "learn", "train",
    "pretrained", "fine tuning", "supervised", "unsupervised", "reinforcement learning",
    "imitation learning", "active learning", "federated learning", "adversarial training",
    "language model", "LLM", "reasoning model", "transformer", "dataset", "classifier",
    "generative model", "foundation model", "artificial intelligence", "AI",
)


@dataclass(frozen=True)
class Topic:
    name: str
    description: str = ""
    phrases: tuple[str, ...] = ()
    patterns: tuple[re.Pattern[str], ...] = ()
    min_hits: int = 1
    line: int = 0
    # A topic of machine learning: only papers about learning get it (evidence.py).
    learning: bool = False


@dataclass
class Taxonomy:
    topics: list[Topic] = field(default_factory=list)
    path: str = ""
    learning_categories: frozenset[str] = frozenset(LEARNING_CATEGORIES)
    learning_phrases: tuple[str, ...] = LEARNING_PHRASES

    def __post_init__(self) -> None:
        self._index: dict[Key, list[tuple[tuple[Key, ...], int]]] = {}
        for n, topic in enumerate(self.topics):
            for phrase in topic.phrases:
                keys = phrase_keys(phrase)
                if keys:
                    self._index.setdefault(keys[0], []).append((keys[1:], n))
        # Per distinct word of the input: what it can match, and which phrases can start at it.
        self._keys: dict[str, frozenset[Key]] = {}
        # Topics a one-word phrase of the word matches, and the longer phrases starting with it.
        self._single: dict[str, tuple[int, ...]] = {}
        self._multi: dict[str, tuple[tuple[tuple[Key, ...], int], ...]] = {}
        self._patterns = [(n, p) for n, t in enumerate(self.topics) for p in t.patterns]
        self._evidence: EvidenceTable | None = None

    def evidence_table(self) -> EvidenceTable:
        """Each phrase of each topic as a topic of its own, for the evidence rule (evidence.py)."""
        if self._evidence is None:
            self._evidence = evidence_table(self)
        return self._evidence

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.topics]

    def _learn(self, token: str) -> None:
        keys = text_keys(token)
        self._keys[token] = keys
        starts = [c for k in sorted(keys) for c in self._index.get(k, ())]
        single = tuple(dict.fromkeys(topic for rest, topic in starts if not rest))
        self._single[token] = single
        self._multi[token] = tuple((rest, topic) for rest, topic in starts if rest and topic not in single)

    # For match.py, which matches all texts at once from the same tables.
    def learn(self, tokens: Iterable[str]) -> None:
        for token in tokens:
            if token not in self._single:
                self._learn(token)

    def single_topics(self, token: str) -> tuple[int, ...]:
        return self._single[token]

    def phrase_starts(self, token: str) -> tuple[tuple[tuple[Key, ...], int], ...]:
        return self._multi[token]

    def word_keys(self, token: str) -> frozenset[Key]:
        return self._keys[token]

    @property
    def patterns(self) -> list[tuple[int, re.Pattern[str]]]:
        return self._patterns

    def hits(self, text: str) -> list[int]:
        """Matches per topic in `text` (each start position counts once per topic)."""
        counts = [0] * len(self.topics)
        tokens = text.translate(_BLANK).split() if text.isascii() else _WORD.findall(text)
        # Thousands of abstracts share one vocabulary: look words up in C (map), learn new ones once.
        if not all(map(self._single.__contains__, tokens)):
            for token in set(tokens).difference(self._single):
                self._learn(token)
        # A topic counts once per start position. One-word phrases always match: count them per
        # distinct word (Counter counts in C), longer ones where they start (compress, in C too).
        single = self._single
        for token, times in Counter(tokens).items():
            for topic in single[token]:
                counts[topic] += times
        starts = list(map(self._multi.__getitem__, tokens))
        keys = self._keys
        last = len(tokens) - 1
        for i in compress(range(len(starts)), starts):
            seen: set[int] = set()
            for rest, topic in starts[i]:
                if topic in seen or i + len(rest) > last or not _follows(rest, tokens, i + 1, keys):
                    continue
                seen.add(topic)
                counts[topic] += 1
        for n, pattern in self._patterns:
            counts[n] += len(pattern.findall(text))
        return counts

    def match(self, title: str, abstract: str, categories: Sequence[str] = ()) -> list[str]:
        """Topic names for a paper, strongest first (ties keep the taxonomy's order): those whose
        score reaches `min_hits` and whose evidence is enough (evidence.py). One text at a time,
        the definition that `match.match_many` computes for all papers at once."""
        title_hits = self.hits(title)
        body_hits = self.hits(abstract)
        table = self.evidence_table()
        in_title = [a > 0 for a in table.taxonomy.hits(title)]
        found = [a or b > 0 for a, b in zip(in_title, table.taxonomy.hits(abstract), strict=True)]
        learning_words = sum(f for f, o in zip(found, table.owner, strict=True) if o == -1)
        about_learning = learning_words >= 2 or any(c in self.learning_categories for c in categories)
        scored = []
        for n, topic in enumerate(self.topics):
            score = TITLE_WEIGHT * title_hits[n] + body_hits[n]
            mine = [(f, s, t) for f, s, t, o in zip(found, table.specific, in_title, table.owner, strict=True)
                    if o == n]
            enough = sum(f for f, _, _ in mine) >= 2 or any(f and (s or t) for f, s, t in mine)
            echoed = any(found[c] and any(in_title[w] for w in words) for c, words in table.echoes.items()
                         if table.owner[c] == n)
            if (score >= topic.min_hits or echoed) and enough and (about_learning or not topic.learning):
                scored.append((-score, n, topic.name))
        return [name for _, _, name in sorted(scored)]


def _follows(rest: tuple[Key, ...], tokens: list[str], start: int, keys: dict[str, frozenset[Key]]) -> bool:
    """Whether the words from `start` on match the rest of a phrase, word by word."""
    for j, key in enumerate(rest, start):
        if key not in keys[tokens[j]]:
            return False
    return True


def _is_acronym(word: str) -> bool:
    return sum(ch.isupper() for ch in word) >= 2


def stem(word: str) -> str:
    return str(_STEMMER.stemWord(word.lower()))


def phrase_keys(phrase: str) -> tuple[Key, ...]:
    """How a taxonomy phrase matches, word by word: exact acronyms or stems."""
    return tuple(("A", w) if _is_acronym(w) else ("w", stem(w)) for w in _WORD.findall(phrase))


def text_keys(token: str) -> frozenset[Key]:
    """What one word of a title or abstract can match. Lower-case text never matches an acronym."""
    keys: set[Key] = {("w", stem(token))}
    if _is_acronym(token):
        keys.add(("A", token))
        if token.endswith("s") and _is_acronym(token[:-1]):
            keys.add(("A", token[:-1]))
    return frozenset(keys)


@dataclass
class EvidenceTable:
    """One column per distinct phrase (or pattern) of each topic, then one per learning phrase:
    `owner` is the column's topic (-1 for a learning phrase), `specific` whether it is more than
    one common word."""

    taxonomy: Taxonomy
    owner: list[int]
    specific: list[bool]
    # The title-echo rule (evidence.py, rule 3): for each column of a phrase of two or more words,
    # the columns of its telling words (owner ECHO), which count in a title only.
    echoes: dict[int, list[int]] = field(default_factory=dict)


# Owner of a column that holds one word of a topic's phrase, for the title-echo rule.
ECHO = -2
# Words of a phrase too general to say, in a title, what the paper is about (stems).
GENERAL_WORDS = frozenset(stem(w) for w in (
    "model", "models", "learning", "network", "networks", "data", "based", "deep", "neural", "training",
    "method", "methods", "task", "tasks", "language", "large", "system", "systems", "efficient", "fine",
    "tuning", "low", "high", "rank", "error", "graph", "set", "sets", "space"))


def evidence_table(taxonomy: Taxonomy) -> EvidenceTable:
    """Each phrase of each topic a topic of its own, so that `match.count_hits` says which matched.
    Phrases with the same stems (`routing`, `route`) are one column: one piece of evidence."""
    columns: list[Topic] = []
    owner: list[int] = []
    specific: list[bool] = []
    multiword: list[tuple[int, tuple[Key, ...]]] = []

    def add(phrases: Sequence[str], n: int) -> None:
        seen: set[tuple[Key, ...]] = set()
        for phrase in phrases:
            keys = phrase_keys(phrase)
            if keys and keys not in seen:
                seen.add(keys)
                columns.append(Topic(phrase, phrases=(phrase,)))
                owner.append(n)
                # Two or more words, or an acronym (matched case-sensitively): specific.
                specific.append(n >= 0 and (len(keys) > 1 or keys[0][0] == "A"))
                if n >= 0 and len(keys) > 1:
                    multiword.append((len(columns) - 1, keys))

    for n, topic in enumerate(taxonomy.topics):
        add(topic.phrases, n)
        for pattern in topic.patterns:
            columns.append(Topic(pattern.pattern, patterns=(pattern,)))
            owner.append(n)
            specific.append(True)
    add(taxonomy.learning_phrases, -1)
    # One column per telling word of the phrases of two or more words (`confidence` of
    # `verbalized confidence`), each phrase pointing to its words' columns.
    word_column: dict[Key, int] = {}
    echoes: dict[int, list[int]] = {}
    for column, keys in multiword:
        for key in keys:
            if key[0] != "w" or key[1] in GENERAL_WORDS or len(key[1]) < 3:
                continue
            if key not in word_column:
                word_column[key] = len(columns)
                columns.append(Topic(key[1], phrases=(key[1],)))
                owner.append(ECHO)
                specific.append(False)
            echoes.setdefault(column, []).append(word_column[key])
    return EvidenceTable(Taxonomy(columns, taxonomy.path, frozenset(), ()), owner, specific, echoes)
