"""Interest: how much each paper is like the ones the curator read, and why.

The signals come from the notes (notes/model.py, `signal_of`): `status: read` or `reading` and
`rating: 4`-`5` count for a paper, `status: skipped` and `rating: 1`-`2` against it. Each of
the curator's own tags (a note's tag that is no topic of topics.yml) is an interest set of its
own, as arxiv-sanity-lite's tags are.

The model is the anchors' (arxiv-sanity-lite, Scholar Inbox): a linear model on TF-IDF features,
here scikit-learn's logistic regression (class weights balanced; the papers without a signal
count as not chosen, as arxiv-sanity-lite counts them) over the same TF-IDF rows the related
papers use (one text model: related/), the papers' topic tags and their authors. A paper's
`interest` is the best probability of the models (the signals', each own tag's), rounded to two
places; its `why` names the features that weighed most for it: shared terms, topics, authors, or
the tag it resembles.

Without any signal the taxonomy decides (the fallback, and the why says so): a paper matching
more of the curator's topics comes first. Same inputs, same scores: lbfgs is deterministic and
nothing is sampled. scikit-learn is imported only when there are signals (its import takes
about a second).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Paper
from ..notes.model import AGAINST, FOR

if TYPE_CHECKING:
    import numpy as np
    import scipy.sparse as sp

    from .related.terms import TermNames

# How much a topic tag and an author weigh against a paper's unit-length TF-IDF row.
TOPIC_WEIGHT = 0.5
AUTHOR_WEIGHT = 0.5
# Regularisation of the logistic regression: arxiv-sanity-lite's SVM uses C=0.01 on ~20,000
# features; a logistic loss needs a larger C for the same smoothness with a handful of signals.
C = 1.0
FEATURES_IN_WHY = 3
MAX_OWN_TAGS = 50  # interest sets beyond these (by size) are not modelled
NO_SIGNALS = "no signals yet"


@dataclass(frozen=True)
class Interest:
    score: float
    why: str


def fallback(tag_lists: Sequence[Sequence[str]], topics: Sequence[str]) -> list[Interest]:
    """Without signals: 1 - 1/2^n for a paper matching n of the taxonomy's topics, and the why
    names them (and says there are no signals yet)."""
    known = {t.casefold() for t in topics}
    out = []
    for tags in tag_lists:
        mine = [t for t in tags if t.casefold() in known]
        score = round(1 - 0.5 ** len(mine), 2)
        why = (f"topics {', '.join(mine[:FEATURES_IN_WHY])}" if mine else "no topic of yours")
        out.append(Interest(score, f"{why} ({NO_SIGNALS})"))
    return out


def interest_scores(papers: Sequence[Paper], tag_lists: Sequence[Sequence[str]], text: sp.csr_matrix,
                    terms: TermNames, signals: Mapping[str, int], own_sets: Mapping[str, set[str]],
                    topics: Sequence[str]) -> tuple[list[Interest], bool]:
    """Each paper's interest (in `papers`' order) and whether it was learned from signals (False:
    the taxonomy's fallback). `text`: the papers' TF-IDF rows (related.text_model); `signals`:
    paper id -> FOR or AGAINST; `own_sets`: each own tag -> the ids of the papers a note gave it."""
    index = {p.id: i for i, p in enumerate(papers)}
    sets = {tag: {index[pid] for pid in ids if pid in index} for tag, ids in own_sets.items()}
    sets = dict(sorted(((t, s) for t, s in sets.items() if s), key=lambda ts: (-len(ts[1]), ts[0]))[:MAX_OWN_TAGS])
    labels = {index[pid]: s for pid, s in signals.items() if pid in index}
    chosen = {i for i, s in labels.items() if s == FOR}
    if len(papers) < 2 or (not chosen and not sets):
        return fallback(tag_lists, topics), False
    import numpy as np

    features, names = _features(papers, tag_lists, text, terms)
    models: list[tuple[str, np.ndarray, np.ndarray]] = []  # (what, probabilities, contributions' coef)
    if chosen:
        y = np.zeros(len(papers), dtype=np.int8)
        y[sorted(chosen)] = 1
        models.append(("", *_fit(features, y)))
    for tag, members in sets.items():
        y = np.zeros(len(papers), dtype=np.int8)
        y[sorted(members)] = 1
        # A paper skipped is not of the set even if a note tagged it.
        y[[i for i, s in labels.items() if s == AGAINST]] = 0
        if y.any() and not y.all():
            models.append((tag, *_fit(features, y)))
    if not models:
        return fallback(tag_lists, topics), False
    probabilities = np.vstack([m[1] for m in models])
    best = probabilities.argmax(axis=0)
    out = []
    for i in range(len(papers)):
        what, prob, coef = models[best[i]]
        out.append(Interest(round(float(prob[i]), 2), _why(features, names, coef, i, what)))
    return out, True


def _fit(features: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities of the positive class for every paper, and the model's coefficients."""
    from sklearn.linear_model import LogisticRegression
    from threadpoolctl import threadpool_limits

    # One thread, for this fit only: BLAS's and OpenMP's threads spun on both cores of a busy
    # machine and made a 3,000-paper fit 9 s instead of 0.4 s (measured); nothing global changes.
    with threadpool_limits(limits=1):
        model = LogisticRegression(C=C, class_weight="balanced", max_iter=1000)
        model.fit(features, y)
        return model.predict_proba(features)[:, 1], model.coef_[0]


def _features(papers: Sequence[Paper], tag_lists: Sequence[Sequence[str]], text: sp.csr_matrix,
              terms: TermNames) -> tuple[sp.csr_matrix, list[str]]:
    """[TF-IDF | topics | authors] rows and the name of every column (terms as they are,
    `topic X`, `author Y`). Tags and authors seen on one paper only are left out."""
    import numpy as np
    import scipy.sparse as sp

    blocks = [sp.csr_matrix(text, dtype=np.float64)]
    names: list[str] = [""] * text.shape[1]  # terms are named on demand (TermNames)
    for kind, lists, weight in (("topic", tag_lists, TOPIC_WEIGHT),
                                ("author", [p.authors for p in papers], AUTHOR_WEIGHT)):
        counts: dict[str, int] = {}
        for items in lists:
            for item in set(items):
                counts[item] = counts.get(item, 0) + 1
        vocab = {name: c for c, name in enumerate(sorted(k for k, v in counts.items() if v > 1))}
        rows = [r for r, items in enumerate(lists) for item in dict.fromkeys(items) if item in vocab]
        cols = [vocab[item] for items in lists for item in dict.fromkeys(items) if item in vocab]
        blocks.append(sp.csr_matrix((np.full(len(rows), weight), (rows, cols)), shape=(len(papers), len(vocab))))
        names += [f"{kind} {name}" for name in vocab]
    matrix = sp.hstack(blocks, format="csr")
    return matrix, _Names(names, terms, text.shape[1])


class _Names(list[str]):
    """Column names: the TF-IDF columns named by TermNames when asked, the rest as listed."""

    def __init__(self, names: list[str], terms: TermNames, width: int) -> None:
        super().__init__(names)
        self.terms, self.width = terms, width

    def name(self, column: int) -> str:
        return str(self.terms[column]) if column < self.width else self[column]


def _why(features: sp.csr_matrix, names: list[str], coef: np.ndarray, i: int, tag: str) -> str:
    """The features of paper i that weighed most for it, in words: `terms a, b; topic X`, or
    `like your tag T: ...`."""
    import numpy as np

    start, end = features.indptr[i], features.indptr[i + 1]
    cols, values = features.indices[start:end], features.data[start:end]
    weight = values * coef[cols]
    order = np.lexsort((cols, -weight))
    picked = [int(cols[k]) for k in order[:FEATURES_IN_WHY] if weight[k] > 0]
    named = names.name if isinstance(names, _Names) else names.__getitem__  # type: ignore[attr-defined]
    words = [named(c) for c in picked]
    terms = [w for w in words if not w.startswith(("topic ", "author "))]
    others = [w for w in words if w.startswith(("topic ", "author "))]
    parts = ([f"terms {', '.join(terms)}"] if terms else []) + others
    reason = "; ".join(parts) if parts else "little like what you read"
    return f"like your tag {tag}: {reason}" if tag else reason
