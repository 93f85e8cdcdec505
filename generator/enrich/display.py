r"""A title as readers see it: one decoding for every place a title appears.

`Paper.title` keeps the TeX a digest wrote (`$\alpha$-Divergences`, `\mathsf{VISTA}`,
`(1+\varepsilon)`): the BibTeX entry needs it (enrich/bibtex/title.py). Everywhere else (the
page's heading and `<title>`, the home page, All papers, tag pages, related papers, the feeds,
the Highwire `<meta>` tags, papers.json and the search index, CSL-JSON, RIS and the formatted
references) shows `title_text(paper.title)`: plain Unicode text, the math written as its symbols
(`α-Divergences`, `VISTA`, `(1+ε)`, `L^∞`, `ℓ₁/ℓ₂`). Plain text and not MathML, also in the
heading, because a feed title, a `<meta>` tag and papers.json can only hold text, and a title
must read the same wherever it is shown. (Abstracts keep their MathML: render/math.py.)

`plain_title` (enrich/text.py) is another thing: the title's words for slugs, keys and matching,
which must not change once published.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..runtime.switches import memoized
from ..sources.tex import tex_literal_or_text, tex_to_text
from ..sources.texmath import delimit_math

# render/math.py's rule: no space inside `$...$`, the closing `$` not before a digit.
_MATH = re.compile(r"\$(?=\S)([^$\n]{1,400}?)(?<=\S)\$(?!\d)|\\\((.{1,400}?)\\\)")
# A script every character of which Unicode has a raised or lowered form of.
_SUPER = str.maketrans("0123456789+-−=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ")
_SUB = str.maketrans("0123456789+-−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎")
_SUPER_CHARS = frozenset("0123456789+-−=()ni")
_SUB_CHARS = frozenset("0123456789+-−=()")
_DOLLAR = re.compile(r"(?<!\\)\$")
_NAME = re.compile(r"\\(?=[A-Za-z])")


# Memoized: a title is shown on a dozen pages; 0.09 s and 0.16 s of a build on its own (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 14)
def title_text(title: str) -> str:
    """`title` as plain text: its math (with or without `$`) as Unicode, the rest of its TeX
    decoded (`\\&` -> `&`, `{\\L}ukasz` -> `Łukasz`), white space folded."""
    if "$" not in title and "\\" not in title:
        return " ".join(title.split())
    source = delimit_math(title)
    out: list[str] = []
    pos = 0
    for m in _MATH.finditer(source):
        out.append(_text(source[pos:m.start()]))
        out.append(math_text(m.group(1) if m.group(1) is not None else m.group(2)))
        pos = m.end()
    out.append(_text(source[pos:]))
    return " ".join("".join(out).split())


def _text(part: str) -> str:
    """A stretch of a title between formulas, decoded, keeping the spaces at its ends. Only a
    stretch with a command is decoded: the readers of arXiv and .bib files decode TeX already
    (sources/tex.py), and a second pass would drop the braces of "Roman {3}-Domination". A
    command pylatexenc does not know keeps the stretch as it is (`C:\\new`: not TeX)."""
    if "\\" not in part:
        return part
    lead = " " if part[0].isspace() else ""
    tail = " " if part[-1].isspace() else ""
    # A `$` here pairs with none (formulas are cut out already): a dollar sign, not math.
    return lead + tex_literal_or_text(_DOLLAR.sub(r"\\$", part)) + tail


# Memoized: latex2mathml takes 3 ms a formula; 0.77 s of the seeded build (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 14)
def math_text(latex: str) -> str:
    """A formula as plain text, read off its MathML (latex2mathml): letters and symbols as
    Unicode, scripts raised or lowered where Unicode can (`n^2` -> `n²`, `\\ell_1` -> `ℓ₁`), else
    after `^`/`_` (in parentheses when longer than one character: `L^∞`, `x_(ij)`)."""
    from latex2mathml.converter import convert

    try:
        root = ET.fromstring(convert(latex))
    except Exception:  # latex2mathml raises many kinds of errors on odd input
        return tex_to_text(latex).replace("\\", "")
    # latex2mathml writes a command it does not know as its name (`<mi>\\foo</mi>`): no TeX reaches a page.
    return _NAME.sub("", _node_text(root)).strip()


def _script(mark: str, script: str) -> str:
    if mark == "^" and script and set(script) <= _SUPER_CHARS:
        return script.translate(_SUPER)
    if mark == "_" and script and set(script) <= _SUB_CHARS:
        return script.translate(_SUB)
    return mark + (script if len(script) == 1 else f"({script})")


def _node_text(node: ET.Element) -> str:
    tag = node.tag.rsplit("}", 1)[-1]
    kids = list(node)
    if tag in ("msup", "msub") and len(kids) == 2:
        return _node_text(kids[0]) + _script("^" if tag == "msup" else "_", _node_text(kids[1]))
    if tag == "msubsup" and len(kids) == 3:
        return _node_text(kids[0]) + _script("_", _node_text(kids[1])) + _script("^", _node_text(kids[2]))
    if tag == "mfrac" and len(kids) == 2:
        return _node_text(kids[0]) + "/" + _node_text(kids[1])
    if tag == "msqrt":
        return "√" + "".join(_node_text(k) for k in kids)
    if tag == "annotation":
        return ""
    return (node.text or "") + "".join(_node_text(k) + (k.tail or "") for k in kids)
