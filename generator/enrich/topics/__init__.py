"""Topic tags: the curator's taxonomy (`content/topics.yml`) matched over title and abstract.

Phrases match whole words after light stemming (Snowball), so `router` also finds `routers` and a
hyphen counts as a space. A phrase word with two or more capitals is an acronym (`FL`, `OPD`,
`LoRA`) and only matches that exact spelling (plural `s` allowed), so `fl` in running text never
counts. Subject classes (`cs.CL`) become tags with readable names too.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from pathlib import Path
from typing import Any

import snowballstemmer
import yaml

from ...errors import Problems
from ...model import Paper, evolve
from ...sources.subjects import CLASS_NAMES, class_name
from .evidence import LEARNING_CATEGORIES, LEARNING_PHRASES, EvidenceTable, evidence_table, parse_learning

_WORD = re.compile(r"[^\W_]+")
# In ASCII text `_WORD` finds the runs of letters and digits: blank out the rest and split (str.translate
# has a fast path for ASCII), three times faster over ten thousand abstracts.
_BLANK = str.maketrans({c: " " for c in range(128) if not chr(c).isalnum()})
_STEMMER = snowballstemmer.stemmer("english")
# Title words say more about a paper than abstract words.
TITLE_WEIGHT = 2
# A tag name ends up in YAML front matter, an HTML comment directive and a file name: keep it tame.
_BAD_NAME = re.compile(r"[\x00-\x1f<>\[\]{}\"`|#]|-->")

Key = tuple[str, str]


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

    def by_name(self) -> dict[str, Topic]:
        return {t.name: t for t in self.topics}

    def _learn(self, token: str) -> None:
        keys = text_keys(token)
        self._keys[token] = keys
        starts = [c for k in sorted(keys) for c in self._index.get(k, ())]
        single = tuple(dict.fromkeys(topic for rest, topic in starts if not rest))
        self._single[token] = single
        self._multi[token] = tuple((rest, topic) for rest, topic in starts if rest and topic not in single)

    # For topicmatch.py, which matches all texts at once from the same tables.
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
        learning_words = sum(f for f, o in zip(found, table.owner, strict=True) if o < 0)
        about_learning = learning_words >= 2 or any(c in self.learning_categories for c in categories)
        scored = []
        for n, topic in enumerate(self.topics):
            score = TITLE_WEIGHT * title_hits[n] + body_hits[n]
            mine = [(f, s, t) for f, s, t, o in zip(found, table.specific, in_title, table.owner, strict=True)
                    if o == n]
            enough = sum(f for f, _, _ in mine) >= 2 or any(f and (s or t) for f, s, t in mine)
            if score >= topic.min_hits and enough and (about_learning or not topic.learning):
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


@lru_cache(maxsize=200_000)
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


def subject_tag(code: str) -> str:
    """The tag for an arXiv class: `Computation and Language (cs.CL)`."""
    name = class_name(code)
    return f"{name} ({code})" if name != code else code


def valid_tag_name(name: str) -> bool:
    return bool(name.strip()) and name == name.strip() and not _BAD_NAME.search(name) and len(name) <= 80


# -- reading topics.yml ------------------------------------------------------------------------


def load_taxonomy(path: Path, problems: Problems, shown: str | None = None) -> Taxonomy:
    """The taxonomy in `path`; a missing file is an empty taxonomy, a bad entry a warning."""
    where = shown or str(path)
    if not path.is_file():
        return Taxonomy([], where)
    try:
        text = path.read_text(encoding="utf-8")
        try:
            # libyaml's parser when there is one (fifteen times faster); a file it refuses is
            # parsed again by PyYAML's own, whose message the warning quotes.
            root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            root = yaml.compose(text)
    except (OSError, UnicodeDecodeError) as exc:
        problems.warn(where, 0, f"cannot read the topic taxonomy: {exc}")
        return Taxonomy([], where)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problems.warn(where, mark.line + 1 if mark else 0, f"topics file is not valid YAML: {exc}")
        return Taxonomy([], where)
    return parse_taxonomy(root, where, problems)


def parse_taxonomy(root: yaml.Node | None, where: str, problems: Problems) -> Taxonomy:
    if root is None:
        return Taxonomy([], where)
    items = _mapping_value(root, "topics")
    if not isinstance(items, yaml.SequenceNode):
        problems.warn(where, root.start_mark.line + 1, "expected `topics:` with a list of topics")
        return Taxonomy([], where)
    topics: list[Topic] = []
    names: set[str] = set()
    categories, phrases = parse_learning(_mapping_value(root, "learning"), where, problems)
    for node in items.value:
        topic = _topic(node, where, problems)
        if topic is None:
            continue
        if topic.name.lower() in names:
            problems.warn(where, topic.line, f"topic {topic.name!r} is defined twice; the first one counts")
            continue
        names.add(topic.name.lower())
        topics.append(topic)
    return Taxonomy(topics, where, categories, phrases)


def _mapping_value(node: yaml.Node, key: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def _topic(node: yaml.Node, where: str, problems: Problems) -> Topic | None:
    line = node.start_mark.line + 1
    data: Any = (yaml.constructor.SafeConstructor().construct_document(node)
                 if isinstance(node, yaml.MappingNode) else None)
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        problems.warn(where, line, "a topic needs a `name:`; entry skipped")
        return None
    name = " ".join(data["name"].split())
    if not valid_tag_name(name):
        problems.warn(where, line, f"topic name {name!r} has characters a tag cannot hold; entry skipped")
        return None
    phrases = data.get("phrases") or []
    if not isinstance(phrases, list) or not all(isinstance(p, str | int | float) for p in phrases):
        problems.warn(where, line, f"topic {name!r}: `phrases` must be a list of words or phrases")
        phrases = []
    patterns: list[re.Pattern[str]] = []
    for raw in data.get("patterns") or []:
        try:
            patterns.append(re.compile(str(raw)))
        except re.error as exc:
            problems.warn(where, line, f"topic {name!r}: pattern {raw!r} is not a valid regular expression: {exc}")
    min_hits = data.get("min_hits", 1)
    if not isinstance(min_hits, int) or isinstance(min_hits, bool) or min_hits < 1:
        problems.warn(where, line, f"topic {name!r}: `min_hits` must be a whole number >= 1; using 1")
        min_hits = 1
    learning = data.get("learning", False)
    if not isinstance(learning, bool):
        problems.warn(where, line, f"topic {name!r}: `learning` must be true or false; using false")
        learning = False
    usable = tuple(str(p) for p in phrases if phrase_keys(str(p)))
    if not usable and not patterns:
        problems.warn(where, line, f"topic {name!r} has no phrases or patterns, so no paper can match it")
    return Topic(name, str(data.get("description") or ""), usable, tuple(patterns), min_hits, line, learning)


# -- tags for papers ---------------------------------------------------------------------------

TagChanges = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


def apply_changes(tags: Sequence[str], add: Iterable[str], remove: Iterable[str]) -> tuple[str, ...]:
    """A note's additions go first (the curator knows best what a paper is about). A name that
    could not be a tag (see `valid_tag_name`) is never added."""
    dropped = {r.lower() for r in remove}
    merged = [*(a for a in add if valid_tag_name(a)), *tags]
    return tuple(t for t in dict.fromkeys(merged) if t.lower() not in dropped)


def tag_papers(papers: list[Paper], taxonomy: Taxonomy, tag_changes: TagChanges | None = None) -> list[Paper]:
    return [evolve(p, tags=tags) for p, tags in zip(papers, paper_tag_lists(papers, taxonomy, tag_changes),
                                                   strict=True)]


def paper_tag_lists(papers: list[Paper], taxonomy: Taxonomy,
                    tag_changes: TagChanges | None = None) -> list[tuple[str, ...]]:
    """Each paper's matched topics (strongest first), then its subject classes, with the notes'
    changes applied. The topics of all papers are matched at once (topicmatch.py)."""
    from .match import match_many

    changes = tag_changes or {}
    out = []
    # A placeholder title ("Untitled paper by ...") quotes the abstract; do not count it twice.
    matched = match_many(taxonomy, ["" if p.title_missing else p.title for p in papers],
                         [p.abstract for p in papers], [p.categories for p in papers])
    for paper, topics in zip(papers, matched, strict=True):
        tags = tuple(dict.fromkeys([*topics, *(subject_tag(c) for c in paper.categories)]))
        if paper.id in changes:
            add, remove = changes[paper.id]
            tags = apply_changes(tags, add, remove)
        out.append(tags)
    return out


def main_topic(paper: Paper, taxonomy: Taxonomy) -> str | None:
    """The first of the paper's tags that is a taxonomy topic (subjects only as a fallback)."""
    known = set(taxonomy.names)
    for tag in paper.tags:
        if tag in known:
            return tag
    return paper.tags[0] if paper.tags else None


# How alike (difflib's ratio, lower case) a new tag of the curator's and an existing tag must be
# for the new one to look like a typo of the other: 'Knowlege distillation' against 'Knowledge
# distillation' is 0.98, 'thin networks' against 'Graph neural networks' 0.65.
NEAR_MISS = 0.85


def resolve_note_tags(names: Iterable[Any], taxonomy: Taxonomy, path: str, line: int,
                      problems: Problems, subjects: Iterable[str] | None = None, *,
                      own: dict[str, str] | None = None) -> tuple[str, ...]:
    """Tag names from a note's front matter, spelled as the taxonomy spells them.

    Names match topics (or subject tags such as `cs.CL` / `Computation and Language (cs.CL)`)
    case-insensitively. With `own` (the tags a note adds), any other name becomes a tag of the
    curator's own, spelled as first written in any note of the build (`own`: lower case ->
    spelling, shared by the notes); a new name close to an existing tag is still applied, with a
    `path:line` warning naming the tag it may have meant. Without `own` (the tags a note
    removes), an unknown name is reported and left out. The note itself is untouched.
    """
    known: dict[str, str] = {n.lower(): n for n in taxonomy.names}
    for code in CLASS_NAMES if subjects is None else subjects:
        tag = subject_tag(code)
        known[tag.lower()] = tag
        known[code.lower()] = tag
    out: list[str] = []
    for raw in names:
        name = " ".join(str(raw).split())
        hit = known.get(name.lower()) or (own or {}).get(name.lower())
        if hit is None and own is not None and valid_tag_name(name):
            near = difflib.get_close_matches(name.lower(), [*known, *own], n=1, cutoff=NEAR_MISS)
            if near:
                meant = known.get(near[0]) or own[near[0]]
                problems.warn(path, line, f"new tag {name!r} is applied as a tag of your own; "
                              f"did you mean {meant!r}?")
            hit = own[name.lower()] = name
        if hit is None and own is not None:
            problems.warn(path, line, f"{name!r} in the note's tags cannot be a tag name (ignored)")
            continue
        if hit is None:
            problems.warn(path, line, f"unknown topic {name!r} in the note's tags (ignored); "
                          f"topics are defined in {taxonomy.path or 'content/topics.yml'}")
            continue
        out.append(hit)
    return tuple(dict.fromkeys(out))
