r"""Which non-ASCII characters a `.bib` value may carry as they are, and what replaces the rest.

Measured with pdflatex and `\usepackage[utf8]{inputenc}` (the LaTeX default) on TeX Live:

- `_OT1_SAFE`: characters that typeset in the default OT1 font encoding, so also in T1 and in
  biber's output: Latin-1, most of Latin Extended-A (Polish `ł`, Czech `ž`, Turkish `İ`, `ğ`,
  Croatian `ć`), dashes, curly quotes, `…`, `€`, `™`. Kept as UTF-8.
- `_T1_LETTERS`: letters that need `\usepackage[T1]{fontenc}` (which every major conference
  template loads): Polish `ą ę`, Icelandic `ð þ`, Croatian `đ`, Lithuanian `į ų`, `ŋ`. Kept as
  UTF-8, because no spelling of them works in OT1 either.
- Guillemets and low quotes (OT1 has none) become TeX quotes.
- Any other accented letter (Vietnamese `ễ`, `ǎ`) becomes base letter + LaTeX accent commands
  (`{\~{\^{e}}}`), which every encoding has; what has no such spelling (CJK, Cyrillic, `ħ`, `ơ`)
  is transliterated to ASCII rather than break the user's build.
- Unicode math symbols (Greek letters, arrows, relations) become math: `{$\alpha$}`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from anyascii import anyascii

from ..text import SYLLABLES

_OT1_SAFE = (
    (0xA1, 0xAA), (0xAC, 0xBA), (0xBC, 0xCF), (0xD1, 0xDD), (0xDF, 0xEF), (0xF1, 0xFD),
    (0xFF, 0x103), (0x106, 0x10F), (0x112, 0x117), (0x11A, 0x125), (0x128, 0x12D), (0x130, 0x137),
    (0x139, 0x13E), (0x141, 0x148), (0x14C, 0x165), (0x168, 0x171), (0x174, 0x17E), (0x192, 0x192),
    (0x1C4, 0x1D4), (0x1E2, 0x1E3), (0x1E6, 0x1E9), (0x1F0, 0x1F0), (0x1F4, 0x1F5), (0x218, 0x21B),
    (0x232, 0x233), (0x237, 0x237), (0x2010, 0x2016), (0x2018, 0x2019), (0x201C, 0x201D),
    (0x2020, 0x2022), (0x2026, 0x2026), (0x2030, 0x2030), (0x20AC, 0x20AC), (0x2116, 0x2116),
    (0x2122, 0x2122),
)
_T1_LETTERS = frozenset("ÐÞðþĄąĐđĘęĮįŊŋŲųǪǫ")
_QUOTES = {"«": "``", "»": "''", "‹": "`", "›": "'", "„": "``", "‚": ",", "‟": "``", "‛": "`",
           "′": "'", "″": "''"}
# Combining marks with an accent command in every font encoding (ogonek `\k` is T1-only).
_ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u",
    "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0323": "d",
    "\u0327": "c", "\u0331": "b",
}
UNICODE_MATH = {
    **{ch: "\\" + name for ch, name in zip(
        "αβγδεζηθικλμµνξπρσςτυφχψωΓΔΘΛΞΠΣΥΦΨΩϵϕϑ",
        "alpha beta gamma delta varepsilon zeta eta theta iota kappa lambda mu mu nu xi pi rho sigma "
        "varsigma tau upsilon varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi "
        "Psi Omega epsilon phi vartheta".split(), strict=True)},
    "→": r"\rightarrow", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow",
    "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq",
    "≈": r"\approx", "∼": r"\sim", "≃": r"\simeq", "≡": r"\equiv", "×": r"\times", "÷": r"\div",
    "±": r"\pm", "∞": r"\infty", "∈": r"\in", "∉": r"\notin", "⊂": r"\subset", "⊆": r"\subseteq",
    "∪": r"\cup", "∩": r"\cap", "∑": r"\sum", "∏": r"\prod", "√": r"\surd", "∂": r"\partial",
    "∇": r"\nabla", "∀": r"\forall", "∃": r"\exists", "∘": r"\circ", "⊗": r"\otimes",
    "⊕": r"\oplus", "⋅": r"\cdot", "′": r"\prime", "−": "-", "ℓ": r"\ell", "≪": r"\ll",
    "≫": r"\gg", "∗": r"\ast", "∅": r"\emptyset", "⊤": r"\top", "⊥": r"\bot", "∝": r"\propto",
    "∫": r"\int", "‖": r"\|", "⟨": r"\langle", "⟩": r"\rangle", "ℝ": r"\mathbf{R}",
    "ℕ": r"\mathbf{N}", "ℤ": r"\mathbf{Z}",
}
_BELOW = frozenset("\u0323\u0327\u0331")


def _ot1_safe(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in _OT1_SAFE)


def _accented(ch: str) -> str | None:
    """`ễ` -> `{\\~{\\^{e}}}`: the base letter under LaTeX accent commands, innermost first."""
    decomposed = unicodedata.normalize("NFD", ch)
    base, all_marks = decomposed[0], list(decomposed[1:])
    # Marks with no accent command (the Vietnamese horn, the hook above) are left off.
    marks = [m for m in all_marks if m in _ACCENTS]
    if not base.isascii() or not base.isalpha() or not all_marks:
        return None
    if not marks:
        return base
    # An accent above `i` or `j` goes on the dotless letter, as in `\'{\i}`.
    out = {"i": r"\i", "j": r"\j"}.get(base, base) if marks[0] not in _BELOW else base
    for mark in marks:
        cmd = _ACCENTS[mark]
        out = f"\\{cmd}{{{out}}}"
    return "{" + out + "}"


def tex_char(ch: str, escape: Callable[[str], str]) -> str:
    """LaTeX for one non-ASCII character; `escape` makes ASCII transliterations safe."""
    if ch in UNICODE_MATH:
        return "{$" + UNICODE_MATH[ch] + "$}"
    code = ord(ch)
    if 0x80 <= code < 0xA0 or unicodedata.category(ch) in {"Cf", "Cc", "Mn"}:
        return ""  # C1 controls, zero-width and format characters, stray combining marks
    if _ot1_safe(code) or ch in _T1_LETTERS:
        return ch
    if ch in _QUOTES:
        return _QUOTES[ch]
    accented = _accented(ch)
    if accented is not None:
        return accented
    # An ideograph or kana is a syllable of its own: Liu Wei, not LiuWei (enrich/text.py).
    return escape(anyascii(ch)) + (" " if SYLLABLES.match(ch) else "")
