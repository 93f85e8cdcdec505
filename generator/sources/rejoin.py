"""Rejoin text that a web page broke into short lines (highlighted words sit on lines of their own)."""

from __future__ import annotations

from itertools import repeat

_OPENERS = ("(", "[", "{", "“", "‘", "«", "/")
_CLOSERS = (",", ".", ";", ":", "!", "?", ")", "]", "}", "”", "’", "»", "%")
_DASHES = ("-", "—", "–", "/")


def _glue(prev: str, nxt: str) -> str:
    """The separator to put between two fragments of one paragraph."""
    if not prev or not nxt:
        return ""
    if prev.endswith(_DASHES) and len(prev) > 1 and prev[-2].isalnum():
        return ""  # a hyphenated word broken over lines: `per-` + `token`
    if prev.endswith(_OPENERS):
        return ""
    if prev.endswith(('"', "'")) and (len(prev) == 1 or prev[-2].isspace()):
        return ""  # an opening straight quote: `LM "` + `reasoning"`
    if nxt.startswith(_CLOSERS):
        return ""
    if nxt[0] in "\"'" and (len(nxt) == 1 or not nxt[1].isalnum()):
        return ""  # a closing straight quote at the start of the line
    return " "


# Last characters of the text so far and first characters of the next line that may need
# something other than one space between them; any other pair is joined by a space.
_PREV_SPECIAL = frozenset("".join(_OPENERS + _DASHES) + "\"'")
_NEXT_SPECIAL = frozenset("".join(_CLOSERS) + "\"'")


_PREV_TUPLE = tuple(sorted(_PREV_SPECIAL))
_NEXT_TUPLE = tuple(sorted(_NEXT_SPECIAL))


def rejoin(lines: list[str]) -> str:
    """Join broken lines into one paragraph of normal prose."""
    # Most abstracts have no line that ends with an opener or dash or starts with a closer: then
    # every glue is one space, and the prose is all the words one space apart (tested against
    # the rule line by line). The test runs in C (map over the lines).
    if not (any(map(str.endswith, map(str.rstrip, lines), repeat(_PREV_TUPLE)))
            or any(map(str.startswith, map(str.lstrip, lines), repeat(_NEXT_TUPLE)))):
        joined = " ".join(lines)
        # Already single spaces between words, as most pastes are: no need to split it into words
        # (a printable text holds no white space but the space).
        if joined.isprintable() and "  " not in joined and not joined.startswith(" ") and not joined.endswith(" "):
            return joined
        return " ".join(joined.split())
    return _glue_all([piece for piece in (" ".join(raw.split()) for raw in lines) if piece])


def _glue_all(pieces: list[str]) -> str:
    # Parts collected in a list and joined once: linear even for a paste of 100,000 lines.
    # `_glue` only looks at the last two characters of the text so far.
    out: list[str] = []
    tail = ""
    for piece in pieces:
        if out:
            if tail[-1] in _PREV_SPECIAL or piece[0] in _NEXT_SPECIAL:
                glue = _glue(tail, piece)
            else:
                glue = " "
            out.append(glue)
            tail = piece[-2:] if len(piece) > 1 else (tail + glue + piece)[-2:]
        else:
            tail = piece[-2:]
        out.append(piece)
    return "".join(out)
