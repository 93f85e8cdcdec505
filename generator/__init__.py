"""readinglist: turn paper digests into a searchable MkDocs reading-list site."""

from __future__ import annotations

import os

__version__ = "0.1.0"

# The build uses numpy and scipy for sparse products and element-wise work, never for a dense
# BLAS routine. Imported with more than one core, numpy's OpenBLAS starts a thread per extra core,
# which spins for about 0.1 s of CPU (measured here, on both cores the build is using) and then
# waits for work that never comes. Set before the stages import numpy; a user's own setting stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
