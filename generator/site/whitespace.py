"""Smaller HTML for every page: the indentation and blank lines Material's templates leave.

A paper page was about 27 KB, and 4 KB of that was leading white space and empty lines on its
~900 lines. HTML treats a line break followed by more white space the same as a line break
alone, except inside elements
that keep white space (`pre`, `textarea`), so those are left exactly as they are. The MkDocs
hook runs this on each page as it is written (`on_post_page`).
"""

from __future__ import annotations

import re

# Elements whose text keeps its white space, matched whole (they do not nest in practice).
_KEEP = re.compile(r"<(pre|textarea)\b.*?</\1\s*>", re.S | re.I)
# A line break with the blank lines and indentation after it: one line break is the same to HTML.
_INDENT = re.compile(r"\n\s+")


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
