"""Dirty rebuilds under `mkdocs serve` that leave out the paper pages nobody changed.

A dirty rebuild renders only the pages whose source is newer than their output, but MkDocs
still makes a page object for every file and renders the sitemap from all of them: at 10,000
papers that was most of the time a note edit took to show. Paper pages are HTML the generator
wrote (nothing of theirs needs MkDocs to resolve links), so a rebuild can do without the
unchanged ones: their built pages stay in the served folder as they are. Kept:

- every paper page whose source changed (the generator rewrote it);
- every paper page a changed Markdown page links to (home, status pages), so MkDocs still
  finds those links' targets and rewrites them to URLs.

Only rebuilds under `mkdocs serve --dirty` after the first build, and only while the set of
pages is the one of the last full build (a paper added or removed gets a full dirty build).
The sitemap of the last full build is put back after a rebuild that left pages out, so
instant navigation still knows every page. A speed-up only: READINGLIST_SERVE_PRUNE=off
(runtime/switches.py) gives every rebuild all the pages, and the served pages are the same.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..runtime import switches

PAPERS = "papers/"
SITEMAPS = ("sitemap.xml", "sitemap.xml.gz")
# A Markdown link to a paper page from any folder: `](papers/x/index.md)`, `](../papers/x/index.md)`.
_PAPER_LINK = re.compile(r"\]\((?:\.\./)*(papers/[^)\s#]+\.md)")


def _is_paper(src_uri: str) -> bool:
    return src_uri.startswith(PAPERS) and src_uri.endswith(".md")


def prune(files: Any, state: dict[str, Any], written: set[str] | None = None) -> list[str]:
    """Remove the unchanged paper pages from MkDocs' `files` when it is safe; returns the removed
    pages' sources (empty for a full build). `state` keeps what the last full build listed.
    `written`: the docs folder's files the watcher wrote since the last build (serve_signal.py),
    when it says; else a page changed if its source is newer than its built file."""
    if not (state.get("serving") and state.get("dirty") and switches.on(switches.SERVE_PRUNE)):
        state["pruned"] = False
        return []
    docs = files.documentation_pages()
    pages = frozenset(f.src_uri for f in docs)
    if not state.get("built") or pages != state.get("pages"):
        state["pages"], state["pruned"] = pages, False
        return []

    def changed(f: Any) -> bool:
        # Three stats a page: 10,000 paper pages took a second of each rebuild.
        return f.src_uri in written if written is not None else bool(f.is_modified())

    keep: set[str] = set()
    for f in docs:
        if not _is_paper(f.src_uri) and changed(f):
            keep.update(_PAPER_LINK.findall(Path(f.abs_src_path).read_text(encoding="utf-8")))
    removed = [f for f in docs if _is_paper(f.src_uri) and f.src_uri not in keep and not changed(f)]
    for f in removed:
        files.remove(f)
    state["pruned"] = bool(removed)
    return [f.src_uri for f in removed]


def keep_sitemap(site_dir: str, state: dict[str, Any]) -> None:
    """After a full build, remember its sitemap; after a pruned one, write that sitemap back."""
    if not (state.get("serving") and state.get("dirty")):
        return
    site = Path(site_dir)
    if state.get("pruned"):
        for name, data in state.get("sitemaps", {}).items():
            (site / name).write_bytes(data)
        return
    state["sitemaps"] = {name: (site / name).read_bytes() for name in SITEMAPS if (site / name).is_file()}
