"""Relative links between generated Markdown files, which MkDocs checks and rewrites."""

from __future__ import annotations

import posixpath

from ..model import Digest, Paper


def paper_md(paper: Paper) -> str:
    return f"papers/{paper.slug}.md"


def digest_md(digest: Digest) -> str:
    return f"digests/{digest.slug}.md"


def rel(from_md: str, to_path: str) -> str:
    """Link from one docs file to another (both relative to docs_dir)."""
    start = posixpath.dirname(from_md) or "."
    return posixpath.relpath(to_path, start)


def fence(body: str, lang: str) -> str:
    """A code fence longer than any backtick run in the body, so the body cannot close it."""
    longest = max((len(run) for run in body.split("\n") for run in _runs(run)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{body}\n{ticks}"


def _runs(line: str) -> list[str]:
    out, cur = [], ""
    for ch in line:
        if ch == "`":
            cur += ch
        elif cur:
            out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out
