"""The fast relative-link helper gives exactly what posixpath.relpath gives."""

from __future__ import annotations

import itertools
import posixpath

from generator.render.links import rel

PATHS = ["index.md", "all.md", "papers/a.md", "papers/b.bib", "all/2.md", "digests/x.md", "digests/x/2.md",
         "digests/x.bib", "a/b/c.md", "a/b.md", "papers", "all", "a/b/c", "x/../y.md", "./p.md"]


def test_rel_matches_posixpath_relpath() -> None:
    for src, dst in itertools.product(PATHS, repeat=2):
        assert rel(src, dst) == posixpath.relpath(dst, posixpath.dirname(src) or "."), (src, dst)


def test_rel_examples() -> None:
    assert rel("all/2.md", "papers/x.md") == "../papers/x.md"
    assert rel("digests/d/3.md", "digests/d.bib") == "../d.bib"
    assert rel("papers/x.md", "papers/x.bib") == "x.bib"
