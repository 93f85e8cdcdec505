"""The readers' fast paths (for 10,000-paper lists) give exactly what the plain definitions give."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import Problems
from generator.sources.authors import _ET_AL, parse_authors
from generator.sources.decode import _looks_binary, decode_bytes
from generator.sources.ids import normalise_title
from generator.sources.rejoin import _glue, rejoin
from generator.sources.subjects import _CROSS, SUBJECTS, parse_subject

PIECES = [*SUBJECTS, "Machine Learning · Cross-listed from cs.CL", "Cross-listed", " ", "\t", "\u00a0",
          "\u2028", "·", ",", "-", "(", ")", '"', "'", "”", "et al.", "et al", "(+2 more)", "and", "A", "é",
          "e\u0301", "\\emph", "x", "Read the full abstract ▾", "\x07", "\x0b"]
text = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=8).map("".join)


def plain_subject(line: str) -> tuple[str, str | None] | None:
    t = " ".join(line.split())
    m = _CROSS.match(t)
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
            glue = _glue(tail, piece)
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
def test_subject_authors_and_titles_as_defined(line: str) -> None:
    assert parse_subject(line) == plain_subject(line)
    m = _ET_AL.search(" ".join(line.split()))
    assert parse_authors(line).complete == (m is None)
    if len(plain_normalise(line)) <= 120:
        assert normalise_title(line) == plain_normalise(line)
    controls = sum(1 for c in line[:4096] if ord(c) < 32 and c not in "\n\r\t\f")
    assert _looks_binary(line) == (controls > max(8, len(line[:4096]) // 20))


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
