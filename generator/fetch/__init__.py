"""Adding a paper by its identifier (`readinglist add 2306.06130 10.1103/... https://openreview.net/forum?id=...`):
identifiers.py (what an identifier is), http.py (the polite client), services.py (arXiv's API,
doi.org, OpenReview's API and their answers), command.py (fetch once, keep in seeds/, report)."""

from __future__ import annotations

from .command import add_identifiers
from .identifiers import Identifier, parse, split

__all__ = ["Identifier", "add_identifiers", "parse", "split"]
