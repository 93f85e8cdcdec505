"""readinglist: turn paper digests into a searchable MkDocs reading-list site."""

from __future__ import annotations

__version__ = "0.1.0"
