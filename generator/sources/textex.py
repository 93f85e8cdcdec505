"""Plain text as the TeX of a BibTeX field, for records that arrive as plain text (CSL-JSON,
sources/csljson.py) and are kept as a .bib entry's fields are (`Paper.bib_fields`, TeX).

The ten LaTeX specials are escaped (braces as `\\textbraceleft{}`: bibtex counts a brace even after a
backslash) and `<`, `>`, `|` written as text commands (OT1 prints them wrongly); Unicode letters stay
(inputenc utf8, biber). In a title, `$...$` stays math, and a word a lower-casing style must keep
(an acronym, an inner capital: `NumPy`, `TMLR`, `2-Layer`) is braced. In a name, a family name of
several words without a lower-case particle is braced whole (`{Del Maestro}`), as reference
managers write it; `van der Walt` keeps `van der` as its particle. (The digests' own titles and
names are written by enrich/bibtex, which this stage may not import.)
"""

from __future__ import annotations

import re

_SPECIALS = {"\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "$": r"\$",
             "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
             "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}
_SPECIAL = re.compile(r"[\\{}$&%#_~^<>|]")
_MATH = re.compile(r"\$(?=\S)[^$\n]{1,400}?(?<=\S)\$")
_WORD = re.compile(r"[^\W_](?:[\w'’.+-]*[^\W_])?")


def _escaped(text: str) -> str:
    return _SPECIAL.sub(lambda m: _SPECIALS[m.group(0)], text)


def escape_text(text: str) -> str:
    return _escaped(" ".join(text.split()))


def _protected(text: str) -> str:
    """Escaped, with each word that has a capital after its first character braced."""
    out, pos = [], 0
    for m in _WORD.finditer(text):
        word = m.group(0)
        out.append(_escaped(text[pos:m.start()]))
        keep = any(c.isupper() for c in word[1:]) or (word[0].isupper() and any(c.isdigit() for c in word))
        out.append("{" + _escaped(word) + "}" if keep else _escaped(word))
        pos = m.end()
    out.append(_escaped(text[pos:]))
    return "".join(out)


def latex_title(title: str) -> str:
    title = " ".join(title.split())
    out, pos = [], 0
    for m in _MATH.finditer(title):
        out += [_protected(title[pos:m.start()]), "{" + m.group(0) + "}"]
        pos = m.end()
    out.append(_protected(title[pos:]))
    return "".join(out)


def bib_name(family: str, suffix: str, given: str) -> str:
    """`von Last, Jr, First` as a BibTeX name: a several-word family name without a lower-case
    particle braced whole."""
    words = family.split()
    n = 0
    while n < len(words) - 1 and words[n][:1].islower():
        n += 1
    last = " ".join(escape_text(w) for w in words[n:])
    if len(words) - n > 1:
        last = "{" + last + "}"
    return ", ".join(p for p in (" ".join([*map(escape_text, words[:n]), last]), escape_text(suffix),
                                 escape_text(given)) if p)
