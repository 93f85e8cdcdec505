"""A small line under the BibTeX block that makes a paper findable by Material's search.

lunr (Material's search engine) neither folds accents nor splits `@article{key,`, so the
citation key is given as a word of its own, and author names holding accents are repeated
in ASCII (`Gomez` finds `Gómez`; typing `Gómez` still matches the author line itself).
"""

from __future__ import annotations

from ..enrich.text import to_ascii
from ..model import Paper
from . import escape


def folded_names(paper: Paper) -> list[str]:
    """ASCII spellings of the author names that hold other characters (`Navas Gomez`)."""
    out = []
    for name in paper.authors:
        ascii_name = " ".join(to_ascii(name).split())
        if ascii_name != name and ascii_name not in out:
            out.append(ascii_name)
    return out


def cite_line(paper: Paper) -> str:
    """`<p class="rl-cite">` with the key and the folded names (both indexed by the search)."""
    parts = [f"Cite as <code>{escape.text(paper.key)}</code>"]
    names = folded_names(paper)
    if names:
        parts.append('<span class="rl-folded">also spelled '
                     + ", ".join(escape.text(n) for n in names) + "</span>")
    return '<p class="rl-cite">' + " · ".join(parts) + "</p>"
