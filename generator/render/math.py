"""Inline math (`$...$`, `\\(...\\)`) as MathML, converted at build time so pages need no CDN.

latex2mathml does not escape text inside `\\text{}`, so its output is parsed and
rebuilt from an allow-list of MathML elements and attributes: a crafted formula
can only ever produce MathML.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

from ..runtime.switches import memoized
from ..sources.texmath import delimit_math
from . import escape

# Pandoc's rule: no space inside the delimiters, and a closing `$` not followed by a digit.
MATH = re.compile(r"\$(?=\S)([^$\n]{1,400}?)(?<=\S)\$(?!\d)|\\\((.{1,400}?)\\\)")
_NS = "{http://www.w3.org/1998/Math/MathML}"
_TAGS = frozenset(
    "math mrow mi mn mo ms mtext mspace msqrt mroot mfrac msub msup msubsup munder mover "
    "munderover mtable mtr mtd mstyle mpadded mphantom menclose semantics annotation".split()
)
_ATTRS = frozenset(
    "display mathvariant stretchy fence separator lspace rspace accent accentunder "
    "linethickness columnalign rowspacing columnspacing width height depth form "
    "largeop movablelimits minsize maxsize symmetric scriptlevel displaystyle notation".split()
)


# Cached: latex2mathml takes a millisecond or more a formula, and the same `$O(n)$` turns up in
# many abstracts. Measured for issue 34 (CPU time of the notes and render stages at 10,000 papers,
# interleaved with the plain function, medians of three rounds): 0.86 s and 1.28 s (two runs)
# saved on the seeded workload (6,507 of its 6,531 calls are hits), over the 0.75 s (3 % of the
# build) a speed-up must save; 0.09 s on the synthetic one, whose abstracts repeat two formulas.
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 14)
def to_mathml(latex: str) -> str | None:
    """MathML for one formula, or None when it cannot be converted safely."""
    try:
        root = ET.fromstring(convert(latex))
    except Exception:  # latex2mathml raises many kinds of errors on odd input
        return None
    return _rebuild(root)


def _rebuild(node: ET.Element) -> str | None:
    tag = node.tag.replace(_NS, "")
    if tag not in _TAGS:
        return None
    attrs = "".join(
        f' {k}="{escape.markup(v)}"' for k, v in sorted(node.attrib.items())
        if k in _ATTRS and re.fullmatch(r"[\w.#%+ -]{0,40}", v)
    )
    if tag == "math":
        attrs = ' xmlns="http://www.w3.org/1998/Math/MathML"' + attrs
    # Text as entities, like all page text: `*` or `_` inside <mo> must stay inert even where a
    # caller puts the MathML into a Markdown paragraph rather than an HTML block.
    parts = [escape.chars(node.text or "")]
    for child in node:
        inner = _rebuild(child)
        if inner is None:
            return None
        parts.append(inner)
        parts.append(escape.chars(child.tail or ""))
    return f"<{tag}{attrs}>{''.join(parts)}</{tag}>"


def rich_text(value: str) -> str:
    """Untrusted prose with its math as MathML and everything else escaped (see escape.text).
    Math written without `$` (`\\mathsf{VISTA}`, `d \\gg n`, as TMLR digests and arXiv carry it)
    is math too (sources/texmath.py)."""
    value = escape.fold(value)
    if "$" not in value and "\\" not in value:
        return escape.chars(value)
    value = delimit_math(value)
    out: list[str] = []
    pos = 0
    for m in MATH.finditer(value):
        latex = m.group(1) if m.group(1) is not None else m.group(2)
        mathml = to_mathml(latex)
        if mathml is None:
            continue  # left as escaped text: visible, never markup
        out.append(escape.chars(value[pos : m.start()]))
        out.append(mathml)
        pos = m.end()
    out.append(escape.chars(value[pos:]))
    return "".join(out)

