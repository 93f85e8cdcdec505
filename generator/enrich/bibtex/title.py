"""Digest text as LaTeX for BibTeX fields: escaped, math kept as math, capitals protected.

Every value that goes into a `.bib` file passes through `escape_text` (names, notes) or
`latex_title` (titles). The output must compile with pdflatex (OT1 or T1, inputenc utf8)
through both bibtex and biber, so besides the ten LaTeX specials this also rewrites
characters that print wrongly in OT1 (`<`, `>`, `|`) and Unicode math symbols that
inputenc does not know (Greek letters, arrows, relations) into math mode.

Titles get words braced that a lower-casing style (`plain`, most journals' styles) must
not change: acronyms and inner capitals (`{LLM}`, `{DeepSeek-R1}`, `{TabPFN}`, `{L2G}`) and a
short list of eponyms (`{Hessian}`, `{Markov}`). Math is wrapped as `{$...$}`, which also
protects it; a bare math command in the text (`\\mathsf{VISTA}`) becomes `{$\\mathsf{VISTA}$}`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ...runtime.switches import memoized
from ...sources.texmath import GREEK, MATH_ALLOWED, MATH_MAP, delimit_math
from .texchars import UNICODE_MATH, tex_char

# Pandoc's rule (as in render/math.py): no space inside the delimiters, closing `$` not before a digit.
_MATH = re.compile(r"\$(?=\S)([^$\n]{1,400}?)(?<=\S)\$(?!\d)|\\\((.{1,400}?)\\\)")
_WORD = re.compile(r"[^\W_](?:[\w'’.+&-]*[^\W_])?")
_CMD = re.compile(r"\\([A-Za-z]+)")
_LEFT = re.compile(r"\\left(?![A-Za-z])")
_RIGHT = re.compile(r"\\right(?![A-Za-z])")

_SPECIALS = {
    # bibtex counts braces even after a backslash, so `\{` would unbalance the field.
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
    "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # OT1 fonts print `<`, `>`, `|` as `¡`, `¿`, an em dash.
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}
# Math commands that take one argument, or two, and may appear in a title without `$`.
_MATH_ARG1 = frozenset(
    "mathsf mathbf mathcal mathrm mathit mathtt mathbb mathfrak mathscr boldsymbol bm "
    "operatorname sqrt hat tilde bar vec dot overline widehat widetilde".split()
)
_MATH_ARG2 = frozenset({"frac", "tfrac", "dfrac"})
_MATH_SYMBOLS = frozenset([*GREEK, "ell", "infty", "partial", "nabla", "times", "cdot", "pm",
                           "leq", "geq", "neq", "approx", "sim", "to", "rightarrow", "leftarrow"])
_TEXT_CMDS = frozenset("emph textit textbf textsc texttt textsf textrm".split())
# Math may use only commands of LaTeX itself, so an entry compiles in a document that loads
# no package; common amsmath/amssymb ones are mapped to their nearest base command. A formula
# with any other command (`\input`, `\def`, an unknown macro) goes in as escaped text.
_MATH_ALLOWED = MATH_ALLOWED
_MATH_MAP = MATH_MAP
# Proper names that title-casing styles would wrongly lower-case; extend as digests need.
EPONYMS = frozenset(
    "Hessian Hessians Markov Markovian Krylov Bayes Bayesian Gauss Gaussian Gaussians Euclidean "
    "Lipschitz Newton Riemann Riemannian Wasserstein Langevin Hilbert Fourier Laplace Laplacian "
    "Boltzmann Monte Carlo Nash Shapley Kullback Leibler Bregman Gromov Hamiltonian Lagrangian "
    "Jacobian Kalman Wiener Poisson Dirichlet Bernoulli Lyapunov Nesterov Adam Sobolev Banach "
    "Turing Hopfield Ising Stein Polyak Schrödinger Kolmogorov Pareto Shannon".split()
)


def _char(ch: str) -> str:
    if ch in _SPECIALS:
        return _SPECIALS[ch]
    if ch.isspace():
        return " "
    if ord(ch) < 32 or ord(ch) == 0x7F:
        return ""
    if ch.isascii():
        return ch
    return tex_char(ch, lambda text: "".join(_SPECIALS.get(c, c) for c in text))


_QUOTED = re.compile(r'"([^"\n]*)"')
_SPACES = re.compile(" {2,}")


def _quotes(text: str) -> str:
    """Straight double quotes as TeX quotes (`"` is a shorthand under babel and prints ” in OT1)."""
    if '"' not in text:
        return text
    text = _QUOTED.sub(r"``\1''", text)
    return text.replace('"', "''")


# Memoized: 0.25 s and 0.22 s of a build (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 14)
def escape_text(text: str) -> str:
    """Plain text as LaTeX that prints the same characters (no case protection). Cached: the
    subject classes, venues and words of names in ten thousand entries are a few hundred texts."""
    text = unicodedata.normalize("NFC", text)
    return " ".join("".join(_char(ch) for ch in " ".join(_quotes(text).split())).split())


# Memoized: 0.08 s and 0.16 s of a build (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 16)
def needs_protection(word: str) -> bool:
    """True for words a lower-casing style must keep: `LLM`, `DeepSeek-R1`, `L2G`, `Hessian`."""
    parts = re.split(r"[-'’.+]", word)
    for part in parts:
        if not part:
            continue
        if len(parts) > 1 and len(part) == 1 and part.isupper():
            return True  # `Q-Learning`, `K-Means`, `X-Ray`
        if any(c.isupper() for c in part[1:]):
            return True
        if part[0].isupper() and any(c.isdigit() for c in part):
            return True
        if part in EPONYMS or part.rstrip("s") in EPONYMS:
            return True
    return False


def _plain(text: str, protect: bool) -> str:
    # `_chars` maps each character on its own, so the text between protected words is mapped as
    # one run instead of word by word.
    out: list[str] = []
    pos = 0
    if protect:
        for m in _WORD.finditer(text):
            if needs_protection(m.group(0)):
                out.append(_chars(text[pos:m.start()]))
                out.append("{" + _chars(m.group(0)) + "}")
                pos = m.end()
    out.append(_chars(text[pos:]))
    return "".join(out)


# Text that `_char` maps to itself: ASCII without specials, controls or white space but the space.
_AS_IS = re.compile("[^" + re.escape("".join(sorted(_SPECIALS))) + "\\x00-\\x1f\\x7f]*")


def _chars(text: str) -> str:
    # Most of a title is plain ASCII: only the rest goes character by character.
    if text.isascii() and _AS_IS.fullmatch(text):
        return text
    return "".join(_char(ch) for ch in text)


def _math(source: str, original: str, protect: bool) -> str:
    """`{$...$}` for a formula that is safe and balanced, else the original as escaped text."""
    body = "".join(UNICODE_MATH.get(ch, ch) for ch in " ".join(source.split()))
    body = _CMD.sub(lambda m: "\\" + _MATH_MAP.get(m.group(1), m.group(1)), body)
    if (not body or any(name not in _MATH_ALLOWED for name in _CMD.findall(body))
            or re.search(r"(?<!\\)[%#&$]|\\\\|\^\^|[\^_]\s*(?:$|[}^_])", body) or not _balanced(body)
            or len(_LEFT.findall(body)) != len(_RIGHT.findall(body))):
        return _plain(original, protect)
    return "{$" + body + "$}"


def _balanced(text: str) -> bool:
    """Balanced for TeX (`\\{` is no group) and for bibtex (which counts every brace)."""
    return _depth_ok(re.finditer(r"\\.|[{}]", text)) and _depth_ok(re.finditer(r"[{}]", text))


def _depth_ok(matches: Iterator[re.Match[str]]) -> bool:
    depth = 0
    for m in matches:
        if m.group(0) == "{":
            depth += 1
        elif m.group(0) == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _group(text: str, start: int) -> int | None:
    """End index (after the closing brace) of a `{...}` group starting at `start`, else None."""
    if start >= len(text) or text[start] != "{":
        return None
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _commands(text: str, protect: bool) -> str:
    """Text that may hold bare LaTeX commands (outside `$`): math commands become math."""
    if "\\" not in text:
        return _plain(text, protect)
    out: list[str] = []
    i = 0
    buf = ""
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            buf += ch
            i += 1
            continue
        m = _CMD.match(text, i)
        if m is None:
            # `\&`, `\%`, ... already escaped in the digest: it means the character itself.
            nxt = text[i + 1:i + 2]
            buf += nxt if nxt and nxt in _SPECIALS else "\\"
            i += 2 if nxt and nxt in _SPECIALS else 1
            continue
        name, end = m.group(1), m.end()
        nargs = 1 if name in _MATH_ARG1 else 2 if name in _MATH_ARG2 else 0
        if nargs or name in _MATH_SYMBOLS:
            stop: int | None = end
            for _ in range(nargs):
                stop = _group(text, stop) if stop is not None else None
            if stop is not None:
                out.append(_plain(buf, protect))
                buf = ""
                out.append(_math(text[i:stop], text[i:stop], protect))
                i = stop
                continue
        if name in _TEXT_CMDS:
            stop = _group(text, end)
            if stop is not None:
                out.append(_plain(buf, protect))
                buf = ""
                out.append("\\" + name + "{" + _commands(text[end + 1:stop - 1], protect) + "}")
                i = stop
                continue
        buf += "\\"
        i += 1
    out.append(_plain(buf, protect))
    return "".join(out)


def latex_title(title: str, protect: bool = True) -> str:
    """A digest title as a BibTeX title field value (LaTeX, braces balanced)."""
    # Math written without `$` (`L^\\infty`) is math, as on the pages (sources/texmath.py).
    title = delimit_math(_quotes(" ".join(unicodedata.normalize("NFC", title).split())))
    out: list[str] = []
    pos = 0
    for m in _MATH.finditer(title):
        out.append(_commands(title[pos:m.start()], protect))
        out.append(_math(m.group(1) or m.group(2), m.group(0), protect))
        pos = m.end()
    out.append(_commands(title[pos:], protect))
    text = "".join(out)
    return (_SPACES.sub(" ", text) if "  " in text else text).strip()
