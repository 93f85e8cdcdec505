"""TeX in the text of arXiv e-mails and .bib files, as plain Unicode for the pages.

pylatexenc does the decoding (accents, `{\\L}ukasz`, `{\\em ...}`, `--`, unknown macros), so the
project keeps no table of its own. `$...$` math stays as it is: the pages render it. What
pylatexenc would read differently from how these fields are written is settled first: a bare `%`
is a per cent sign there (abstracts say "5% better"), not a comment, a bare `&` is an ampersand
("theory & practice"; an RSS feed's `&amp;` arrives as one), not an alignment tab, and
`\\cite{a,b}` becomes `[a,b]`. Titles and abstracts (`tex_title`, `tex_paragraphs`) also keep
the math arXiv writes without dollar signs (`L^\\infty`, `d \\gg n`) as math, delimited
(texmath.py), where pylatexenc would print the symbols and drop the spaces after them ("d ≫n"),
and decode the HTML character references that a feed escaped twice (`$1 &lt; p$`, `R&amp;D`).
The result is plain text; it is escaped where every text is (render/escape.py).
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from typing import Any

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexwalker import LatexWalker
from pylatexenc.latexwalker import get_default_latex_context_db as walker_db
from pylatexenc.macrospec import MacroSpec

from ..runtime.switches import memoized
from .texmath import delimit_math

# Text with none of these is left as it is (most titles and names): no parse at all.
_TEX = re.compile(r"[\\{}~$%]|--")
_BARE = re.compile(r"(?<!\\)([%&])")
# A character reference (`&lt;`, `&#8211;`, `&#x3b1;`); a bare `&` ("Fast & Fair") is none.
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_CITE = ("cite", "citep", "citet", "citealp", "citeauthor", "citeyear", "nocite")


def _cite(node: Any, l2tobj: Any) -> str:  # pylatexenc passes `l2tobj` by that name
    args = [a for a in node.nodeargd.argnlist if a is not None]
    return "[" + l2tobj.nodelist_to_text([args[-1]]) + "]" if args else ""


def _link_text(node: Any, l2tobj: Any) -> str:  # `\\href{address}{text}`: the text
    args = [a for a in node.nodeargd.argnlist if a is not None]
    return str(l2tobj.nodelist_to_text([args[-1]])) if args else ""


# Load once (not a speed-up with a switch): the process's one configured converter.
@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    db = get_default_latex_context_db()
    db.add_context_category("readinglist", prepend=True, macros=[
        *(MacroTextSpec(name, simplify_repl=_cite) for name in _CITE),
        MacroTextSpec("url", simplify_repl="%s"),
        MacroTextSpec("href", simplify_repl=_link_text),
        *(MacroTextSpec(name, simplify_repl=name) for name in ("TeX", "LaTeX", "BibTeX")),
    ])
    return LatexNodes2Text(latex_context=db, math_mode="verbatim", strict_latex_spaces=True)


# Load once (not a speed-up with a switch): the parser's table, built once per process.
@lru_cache(maxsize=1)
def _parsing() -> Any:
    """The parser's own table, with `\\href` taking its two arguments (pylatexenc's takes one)."""
    db = walker_db()
    db.add_context_category("readinglist", prepend=True, macros=[MacroSpec("href", "{{")])
    return db


# Memoized: not called for TMLR digests and listing pages, but 92,518 calls (73,367 hits) for
# 1,051 papers of three real .bib files, 0.37 s saved there (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 14)
def tex_to_text(text: str) -> str:
    """`text` with its TeX markup decoded to Unicode, math kept, white space folded."""
    if not _TEX.search(text):
        return " ".join(text.split())
    source = _BARE.sub(r"\\\1", text)
    if "\\ifmmode" in source:
        # APS's exports spell an accent for both modes (`\ifmmode \check{C}\else \v{C}\fi{}erenkov`):
        # text is text mode, so its branch (pylatexenc printed both: `ČČerenkov`).
        source = _IFMMODE.sub(lambda m: m.group(1), source)
    try:
        nodes = LatexWalker(source, latex_context=_parsing(), tolerant_parsing=True).get_latex_nodes()[0]
        plain = _converter().nodelist_to_text(nodes)
    except Exception:  # pylatexenc is lenient, but input is hostile: never a traceback
        plain = text
    # `\-` (a hyphenation point) is no character of the text: pylatexenc gave a soft hyphen.
    return " ".join(plain.replace("\u00a0", " ").replace("\u00ad", "").split())


_MACRO = re.compile(r"\\([A-Za-z]+)")
_IFMMODE = re.compile(r"\\ifmmode\s.*?\\else\s*(.*?)\\fi(?![A-Za-z])(?:\{\})?", re.S)


def tex_literal_or_text(text: str) -> str:
    """`tex_to_text` for text that may or may not be TeX (a title typed into a TMLR digest or a
    listing page): decoded when pylatexenc knows every command in it and leaves no accent without
    its letter, else as it is (`C:\\new\\file`, `a/b\\c`), since pylatexenc drops what it does not know."""
    if "\\" not in text:
        return " ".join(text.split())
    db = _converter().latex_context
    if any(db.get_macro_spec(name) is None for name in _MACRO.findall(text)):
        return " ".join(text.split())
    plain = tex_to_text(text)
    if any(unicodedata.combining(ch) and (i == 0 or not plain[i - 1].isalnum()) for i, ch in enumerate(plain)):
        return " ".join(text.split())
    return plain


def tex_title(text: str) -> str:
    """A title: `tex_to_text`, with its bare math kept as `$...$` (`L^\\infty` -> `$L^\\infty$`)
    and its character references decoded (`&lt;` -> `<`)."""
    if "&" in text:
        text = _REFERENCE.sub(lambda m: html.unescape(m.group(0)), text)
    return tex_to_text(delimit_math(text))


def tex_paragraphs(text: str) -> str:
    """An abstract's paragraphs (separated by blank lines), each decoded as `tex_title` decodes."""
    paras = [tex_title(p) for p in re.split(r"\n\s*\n", text)]
    return "\n\n".join(p for p in paras if p)
