"""The readers' fast paths (for 10,000-paper lists) give exactly what the plain definitions give."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.errors import Problems
from generator.sources.authors import parse_authors
from generator.sources.decode import decode_bytes
from generator.sources.ids import normalise_title
from generator.sources.rejoin import rejoin
from generator.sources.subjects import SUBJECTS, parse_subject

PIECES = [*SUBJECTS, "Machine Learning · Cross-listed from cs.CL", "Cross-listed", " ", "\t", "\u00a0",
          "\u2028", "·", ",", "-", "(", ")", '"', "'", "”", "et al.", "et al", "(+2 more)", "and", "A", "é",
          "e\u0301", "\\emph", "x", "Read the full abstract ▾", "\x07", "\x0b"]
text = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=8).map("".join)

# The plain definitions, written out here rather than read from the modules' private names: a
# listing's subject line `Name · Cross-listed from cs.CL`, an author list cut short (`A, B et al.`,
# `et al. (+2 more)`), and what goes between two pieces of a paragraph a web page broke over lines.
CROSS = re.compile(r"^(?P<name>.+?)\s*·\s*Cross-listed from\s+(?P<code>[a-z-]+(?:\.[A-Za-z-]+)?)\s*$")
ET_AL = re.compile(r"\s*,?\s*et al\.?\s*(?:\(\+\s*\d+\s*more\))?\s*$")


def plain_glue(prev: str, nxt: str) -> str:
    """Nothing after a word broken at a hyphen (`per-` `token`), an opening bracket or an opening
    quote, nor before closing punctuation or a closing quote; else a space."""
    if not prev or not nxt:
        return ""
    if prev.endswith(("-", "—", "–", "/")) and len(prev) > 1 and prev[-2].isalnum():
        return ""
    if prev.endswith(("(", "[", "{", "“", "‘", "«", "/")):
        return ""
    if prev.endswith(('"', "'")) and (len(prev) == 1 or prev[-2].isspace()):
        return ""
    if nxt.startswith((",", ".", ";", ":", "!", "?", ")", "]", "}", "”", "’", "»", "%")):
        return ""
    if nxt[0] in "\"'" and (len(nxt) == 1 or not nxt[1].isalnum()):
        return ""
    return " "


def plain_subject(line: str) -> tuple[str, str | None] | None:
    t = " ".join(line.split())
    m = CROSS.match(t)
    name, cross = (m.group("name"), m.group("code")) if m else (t, None)
    code = SUBJECTS.get(name)
    return None if code is None else (code, cross)


def plain_rejoin(lines: list[str]) -> str:
    out, tail = [], ""
    for raw in lines:
        piece = " ".join(raw.split())
        if not piece:
            continue
        if out:
            glue = plain_glue(tail, piece)
            out.append(glue)
            tail = (tail + glue + piece)[-2:]
        else:
            tail = piece[-2:]
        out.append(piece)
    return "".join(out)


def plain_normalise(title: str) -> str:
    t = unicodedata.normalize("NFKD", title)
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"\\[a-z]+", " ", t)).strip("-")


@settings(max_examples=400, deadline=None)
@given(text)
@example("\x07" * 9 + "Machine Learning · Cross-listed from cs.CL et al. (+2 more)")  # binary, cross-listed, cut short
def test_subject_authors_and_titles_as_defined(line: str) -> None:
    assert parse_subject(line) == plain_subject(line)
    m = ET_AL.search(" ".join(line.split()))
    assert parse_authors(line).complete == (m is None)
    if len(plain_normalise(line)) <= 120:
        assert normalise_title(line) == plain_normalise(line)
    # A file of this text is skipped as binary when more than one in 20 of its first 4096
    # characters (and more than 8) are control characters other than white space. (NUL bytes and
    # a byte-order mark are decided before that: left out here.)
    if line and "\x00" not in line and not line.startswith("\ufeff"):
        problems = Problems()
        decode_bytes(line.encode("utf-8", "surrogatepass"), "x.txt", problems)
        skipped = "x.txt: warning: binary file (mostly control characters), skipped" in map(str, problems.warnings)
        controls = sum(1 for c in line[:4096] if ord(c) < 32 and c not in "\n\r\t\f")
        assert skipped == (controls > max(8, len(line[:4096]) // 20))


@settings(max_examples=400, deadline=None)
@given(st.lists(text, max_size=8))
def test_rejoin_as_defined(lines: list[str]) -> None:
    assert rejoin(lines) == plain_rejoin(lines)


def test_valid_and_invalid_utf8_decode_as_before() -> None:
    problems = Problems()
    assert decode_bytes("Grünefeld\r\nx\u00a0y\n".encode(), "a.txt", problems) == "Grünefeld\nx y\n"
    assert not problems.warnings
    assert decode_bytes(b"ok\n" + b"caf\xe9\n", "b.txt", problems) == "ok\ncafé\n"
    assert [w.line for w in problems.warnings] == [2]


def test_every_subject_name_is_a_subject_line_whatever_its_spacing_and_nothing_near_it_is() -> None:
    """The subject names are one pattern grouped by first letter (subjects.py): each name of
    every letter is still found, spaced any way, and a line that only starts or ends like one
    is not."""
    for name, code in SUBJECTS.items():
        spaced = " \t" + "  \u2028".join(name.split()) + "\u00a0 "
        assert parse_subject(name) == parse_subject(spaced) == (code, None), name
        for near in (name + "s", name[1:], name[:-1], "The " + name, name.lower()):
            assert parse_subject(near) == plain_subject(near), near
