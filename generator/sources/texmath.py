r"""Math written without dollar signs, as arXiv titles carry it: `(1+\varepsilon)`, `L^\infty`,
`d \gg n`, `\frac{\ell_1}{\ell_2}`.

`delimit_math` puts such a run between `$...$`, so every later stage sees one kind of math: the
readers keep it as TeX (tex.py), the pages write it as text or MathML (enrich/display.py,
render/math.py) and the BibTeX title keeps it in math mode (enrich/bibtex/title.py). A run is
math only when every command in it is one of LaTeX's math commands (`MATH_COMMANDS`), so
`\emph{x}`, `{\L}ukasz` or `\cite{a}` stay for the text decoder.
"""

from __future__ import annotations

import re

GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi "
    "rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon "
    "Phi Psi Omega"
).split()
# Commands of LaTeX itself that mean math. A BibTeX title may use only these, so that an entry
# compiles in a document that loads no package (enrich/bibtex/title.py).
MATH_ALLOWED = frozenset([*GREEK, *(
    "varpi varrho varsigma ell infty partial nabla times cdot cdots ldots dots vdots ddots pm mp div "
    "ast star circ bullet leq le geq ge neq ne approx sim simeq equiv cong propto ll gg prec succ "
    "preceq succeq to rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow mapsto "
    "longrightarrow longleftarrow uparrow downarrow in notin ni subset subseteq supset supseteq cup cap "
    "setminus emptyset forall exists neg lnot wedge vee land lor oplus otimes odot bigcup bigcap sum "
    "prod int oint sqrt frac log ln exp sin cos tan sinh cosh tanh max min sup inf lim limsup liminf "
    "arg det dim ker deg gcd Pr mathsf mathbf mathcal mathrm mathit mathtt hat tilde bar vec dot ddot "
    "check breve acute grave overline underline widehat widetilde left right big Big bigg Bigg langle "
    "rangle lfloor rfloor lceil rceil top bot perp mid parallel prime surd angle triangle quad qquad "
    "colon lbrace rbrace vert Vert imath jmath Re Im aleph hbar wp star dagger ddagger smile frown "
    "models vdash dashv cdotp ldotp hookrightarrow rightharpoonup leftharpoonup uplus sqcup sqcap "
    "bigoplus bigotimes coprod amalg diamond triangleleft triangleright bigtriangleup bigtriangledown "
    "wr lhd rhd unlhd unrhd flat natural sharp clubsuit diamondsuit heartsuit spadesuit mho"
).split()])
# amsmath/amssymb commands and their nearest base command.
MATH_MAP = {"mathbb": "mathbf", "boldsymbol": "mathbf", "bm": "mathbf", "text": "mathrm",
            "textrm": "mathrm", "textnormal": "mathrm", "operatorname": "mathrm", "mathscr": "mathcal",
            "mathfrak": "mathrm", "tfrac": "frac", "dfrac": "frac", "lvert": "vert", "rvert": "vert",
            "lVert": "Vert", "rVert": "Vert", "coloneqq": "colon=", "leqslant": "leq", "geqslant": "geq",
            "varnothing": "emptyset"}
# What makes a bare run math. Not the text commands of MATH_MAP (`\text`, `\textrm`), nor those
# that mean the same in text (`\ldots`, `\dots`, `\quad`), nor `\left`/`\right`, which need a
# delimiter that may not be a command.
MATH_COMMANDS = (MATH_ALLOWED | MATH_MAP.keys()) - {
    "text", "textrm", "textnormal", "ldots", "dots", "quad", "qquad", "left", "right"}

_GROUP = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # a `{...}` group, nested up to three deep
_CMD = r"\\[A-Za-z]+(?![A-Za-z])"
_SCRIPT = rf"\s*[\^_]\s*(?:{_GROUP}|{_CMD}|[A-Za-z0-9])"
# One atom (a command with its groups, or a letter or digit that carries a script), its scripts.
_RUN = re.compile(rf"(?:{_CMD}(?:\s*{_GROUP})*|[A-Za-z0-9](?={_SCRIPT}))(?:{_SCRIPT})*")
_NAMES = re.compile(r"\\([A-Za-z]+)")
# Math already delimited (render/math.py's rule), left as it is.
_DELIMITED = re.compile(r"\$(?=\S)[^$\n]{1,400}?(?<=\S)\$(?!\d)|\\\(.{1,400}?\\\)")


def delimit_math(text: str) -> str:
    """`text` with each run of bare math between `$...$`: `L^\\infty` -> `$L^\\infty$`."""
    if "\\" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _DELIMITED.finditer(text):
        out.append(_bare(text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_bare(text[pos:]))
    return "".join(out)


def _bare(text: str) -> str:
    if "\\" not in text or "$" in text:  # a lone `$` would pair with an added one
        return text
    return _RUN.sub(_wrap, text)


def _wrap(m: re.Match[str]) -> str:
    names = _NAMES.findall(m.group(0))
    if names and all(name in MATH_COMMANDS for name in names):
        return "$" + m.group(0) + "$"
    return m.group(0)
