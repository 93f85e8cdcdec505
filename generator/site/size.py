"""The built site's size by part, and the warning when it nears GitHub Pages' limit.

GitHub Pages publishes sites of at most 1 GB; deployments above it "might fail". After a
`mkdocs build` the plugin adds up the site's files by part (paper pages, tags, digests, the
downloads and search index at the root) and, past `extra.readinglist.size_warning_mb` (800 by
default, 80 % of the limit; 0 switches the check off), warns with the parts, largest first, so
the curator sees what to switch off (docs/user-guide/publishing.md, "A big list").
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

DEFAULT_WARNING_MB = 800.0
PAGES_LIMIT_MB = 1000.0

# Files at the site root that are parts of their own; the rest of the root is "other".
_ROOT_PARTS = ("papers.json", "references.json", "references.ris", "references.bib")


def part_of(path: str) -> str:
    """The part a file of the site (its path inside it, `/`-separated) counts towards."""
    top, _, rest = path.partition("/")
    if not rest:
        if top in _ROOT_PARTS:
            return top
        return "feeds" if top.startswith("feed") and top.endswith(".xml") else "other"
    if top == "papers":
        return "paper pages"
    if top in ("tags", "digests"):
        return f"{top}/ downloads" if "/" not in rest else f"{top}/ pages"
    if top == "pagefind":
        return "search index"
    return "other"


def size_by_part(site: Path) -> Counter[str]:
    """Bytes of every file under `site`, by `part_of`."""
    parts: Counter[str] = Counter()
    for folder, _dirs, files in os.walk(site):
        rel = Path(folder).relative_to(site).as_posix()
        prefix = "" if rel == "." else rel + "/"
        for name in files:
            try:
                parts[part_of(prefix + name)] += os.stat(os.path.join(folder, name)).st_size
            except OSError:
                continue  # removed while we walked: not part of the site any more
    return parts


def warning(parts: Counter[str], threshold_mb: float) -> str | None:
    """The warning for a site of `parts`, or None when it is within `threshold_mb` (0: never)."""
    total = sum(parts.values())
    if threshold_mb <= 0 or total <= threshold_mb * 1e6:
        return None
    listed = ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in parts.most_common() if size)
    return (f"readinglist: the built site is {total / 1e6:.1f} MB, past {threshold_mb:g} MB "
            f"(extra.readinglist.size_warning_mb); GitHub Pages publishes at most {PAGES_LIMIT_MB:g} MB. "
            f"By part: {listed}. What you can switch off and what each saves: "
            "docs/user-guide/publishing.md, \"A big list\"")
