"""Smaller HTML for every page: the indentation Material's templates leave in the output.

A paper page is about 19 KB, and 3 KB of that is leading white space on its ~600 lines. HTML
treats a line break followed by spaces the same as a line break alone, except inside elements
that keep white space (`pre`, `textarea`), so those are left exactly as they are. The MkDocs
hook runs this on each page as it is written (`on_post_page`).
"""

from __future__ import annotations

import re

# Elements whose text keeps its white space, matched whole (they do not nest in practice).
_KEEP = re.compile(r"<(pre|textarea)\b.*?</\1\s*>", re.S | re.I)
_INDENT = re.compile(r"\n[ \t]+")


def strip_indentation(html: str) -> str:
    """`html` without leading white space on its lines, outside `<pre>` and `<textarea>`."""
    out: list[str] = []
    pos = 0
    for m in _KEEP.finditer(html):
        out.append(_INDENT.sub("\n", html[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_INDENT.sub("\n", html[pos:]))
    return "".join(out)
