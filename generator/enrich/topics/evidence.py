"""The evidence rule: a topic's score alone does not make a tag.

A paper about the thermal melting of density waves says "routes"; one about a pyrochlore magnet
says "muon" and "Ising". Each is one word of a topic's list, and a score threshold cannot tell
it from a real signal. So a topic whose score reaches `min_hits` is a tag only when

1. its evidence is more than one common word in passing: two or more distinct phrases of the
   topic match (`router` and `model routing`; `routing` and `routes` are one stem, one phrase),
   or one specific phrase does (a phrase of two or more words, an acronym such as `LoRA`, or a
   pattern), or one of its phrases is in the title (what a paper is named for is what it is about);
2. and, for a topic marked `learning: true`, the paper is about learning: one of its arXiv
   categories is a learning category (cs.LG, stat.ML, ...) or its title and abstract hold two or
   more distinct learning phrases (`neural network`, `training`, ...).

3. The title echo: a topic whose score falls short of its `min_hits` still counts when one of its
   phrases of two or more words matched and a telling word of that phrase is in the title
   ("Beyond Confidence: ..." with `verbalized confidence` in its abstract is about confidence,
   so "Uncertainty and calibration"). General words (`model`, `learning`, `network`, ...,
   taxonomy.GENERAL_WORDS) do not echo. Rules 1 and 2 still apply: a physics paper gets no
   topic of learning by it.

A paper with no topic left keeps its arXiv subject tags and gets no topic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from ...errors import Problems
from .taxonomy import LEARNING_CATEGORIES, LEARNING_PHRASES, Taxonomy

if TYPE_CHECKING:
    import numpy as np

@dataclass(frozen=True)
class Evidence:
    """Per paper and topic (rows: papers, columns: topics): how many distinct phrases matched,
    whether a specific one did; per paper: whether it is about learning."""

    distinct: np.ndarray
    specific: np.ndarray
    titled: np.ndarray
    learning: np.ndarray
    echoed: np.ndarray | None = None  # rule 3: a phrase matched whose telling word is in the title

    def allows(self, taxonomy: Taxonomy) -> np.ndarray:
        """Papers x topics: where the rule lets a topic be a tag."""
        import numpy as np

        enough = (self.distinct >= 2) | self.specific | self.titled
        needs = np.array([t.learning for t in taxonomy.topics], dtype=bool)
        return enough & (~needs[None, :] | self.learning[:, None])


def from_hits(taxonomy: Taxonomy, found: np.ndarray, categories: Sequence[Sequence[str]]) -> Evidence:
    """The evidence of some papers from the counts of `taxonomy.evidence_table()` over their
    titles (the first half of `found`'s rows) and then their abstracts (match.match_many)."""
    import numpy as np

    table = taxonomy.evidence_table()
    size = len(categories)
    owner = np.asarray(table.owner, dtype=np.int64)  # column -> topic, -1 for a learning phrase, ECHO a word
    present = (found[:size] + found[size:]) > 0
    titled_columns = found[:size] > 0
    # A topic's columns summed once per paper (np.add.reduceat over the columns grouped by topic, in
    # C): matrix products with a column -> topic matrix cost a second per 10,000 papers.
    columns = np.nonzero(owner >= 0)[0]
    columns = columns[np.argsort(owner[columns], kind="stable")]
    topics, starts = np.unique(owner[columns], return_index=True)

    def per_topic(cells: np.ndarray) -> np.ndarray:
        out = np.zeros((size, len(taxonomy.topics)), dtype=np.int64)
        if len(columns):
            out[:, topics] = np.add.reduceat(cells[:, columns].astype(np.int64), starts, axis=1)
        return out

    distinct = per_topic(present)
    specific = per_topic(present & np.asarray(table.specific, dtype=bool)) > 0
    titled = per_topic(titled_columns) > 0
    echo = np.zeros(present.shape, dtype=bool)
    for column, words in table.echoes.items():
        echo[:, column] = present[:, column] & titled_columns[:, words].any(axis=1)
    echoed = per_topic(echo) > 0
    words = present[:, owner == -1].sum(axis=1)
    known = taxonomy.learning_categories
    by_category = np.fromiter((any(c in known for c in cats) for cats in categories), dtype=bool, count=size)
    return Evidence(distinct, specific, titled, by_category | (words >= 2), echoed)


def parse_learning(node: yaml.Node | None, where: str,
                   problems: Problems) -> tuple[frozenset[str], tuple[str, ...]]:
    """The `learning:` section of topics.yml (the categories and phrases that make a paper about
    learning); what it leaves out keeps the defaults (taxonomy.py)."""
    categories, phrases = frozenset(LEARNING_CATEGORIES), LEARNING_PHRASES
    if node is None:
        return categories, phrases
    data: Any = (yaml.constructor.SafeConstructor().construct_document(node)
                 if isinstance(node, yaml.MappingNode) else None)
    if not isinstance(data, dict):
        problems.warn(where, node.start_mark.line + 1,
                      "`learning:` must hold `categories:` and `phrases:`; using the defaults")
        return categories, phrases
    lines = {k.value: v.start_mark.line + 1 for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    for key in ("categories", "phrases"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.warn(where, lines.get(key, node.start_mark.line + 1),
                          f"`learning: {key}` must be a list of words; using the defaults")
        elif key == "categories":
            categories = frozenset(value)
        else:
            phrases = tuple(value)
    return categories, phrases
