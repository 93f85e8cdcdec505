"""readinglist: turn paper digests into a searchable MkDocs reading-list site."""

from __future__ import annotations

import os

from . import numpyenv

__version__ = "0.1.0"

# Before the stages import numpy, which reads its settings only then (generator/numpyenv.py).
numpyenv.apply(os.environ)
