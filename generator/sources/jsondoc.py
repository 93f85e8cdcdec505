"""JSON digests (CSL-JSON, OpenReview notes), parsed once and placed by line.

The readers are chosen by content (sources/__init__.py): both JSON readers ask `load` for the
same text, which parses it once (the parse is kept for the reader that then reads it). JSON keeps
no line numbers, so the line of each element of a top-level array is found from the text.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from typing import Any

_INVALID = object()
_WS = " \t\r\n"


_JSON_START = re.compile(r"[\ufeff \t\r\n]*[\[{]")


def looks_like_json(text: str) -> bool:
    # A match at the start, not `text.lstrip()`: every digest is asked, and lstrip copies the text.
    return _JSON_START.match(text) is not None


@lru_cache(maxsize=2)
def _parsed(text: str) -> Any:
    try:
        return json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return _INVALID


def load(text: str) -> Any | None:
    """The document, or None for text that is no JSON (or JSON `null`)."""
    if not looks_like_json(text):
        return None
    data = _parsed(text)
    return None if data is _INVALID else data


def error(text: str) -> tuple[int, str]:
    """(line, message) for a file that looks like JSON but no JSON reader reads."""
    try:
        json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        return exc.lineno, f"a JSON file that is not valid JSON ({exc.msg}, column {exc.colno}); skipped"
    except (ValueError, RecursionError) as exc:
        return 1, f"a JSON file that is not valid JSON ({exc}); skipped"
    return 1, "a JSON file, but not CSL-JSON (doi.org, Zotero, pandoc) or OpenReview notes; skipped"


def element_lines(text: str) -> list[int]:
    """The line of each element of a top-level array ([1] for any other document)."""
    s = text.lstrip("\ufeff")
    decoder = json.JSONDecoder()
    i = len(s) - len(s.lstrip(_WS))
    if s[i:i + 1] != "[":
        return [1]
    lines: list[int] = []
    line, counted = 1, 0
    i += 1
    try:
        while True:
            while i < len(s) and s[i] in _WS + ",":
                i += 1
            if i >= len(s) or s[i] == "]":
                return lines
            line += s.count("\n", counted, i)
            counted = i
            lines.append(line)
            _, i = decoder.raw_decode(s, i)
    except ValueError:
        return lines


def line_of(text: str, key: str, value: str) -> int:
    """The line of `"key": "value"` in the text (1 when not found as written)."""
    m = re.search(rf'"{re.escape(key)}"\s*:\s*"{re.escape(value)}"', text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


_TAG = re.compile(r"<[^<>]{0,200}>")
_HEADING = re.compile(r"<(?:jats:)?title[^>]*>.*?</(?:jats:)?title>", re.S)
_PARAGRAPH_END = re.compile(r"</(?:jats:)?p>|<br\s*/?>", re.I)


def plain(value: Any) -> str:
    """A rich-text field (CSL's HTML-like markup, Crossref's JATS) as plain text on one line;
    superscripts and subscripts as TeX math, as arXiv titles write them (`$^{4}$He`)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str)), "")
    if not isinstance(value, str):
        return ""
    text = re.sub(r"<sup>([^<>]{1,40})</sup>", r"$^{\1}$", value)
    text = re.sub(r"<sub>([^<>]{1,40})</sub>", r"$_{\1}$", text)
    return " ".join(html.unescape(_TAG.sub("", text)).split())


def paragraphs(value: Any) -> str:
    """An abstract as plain text, its paragraphs (JATS `<jats:p>`, blank lines) kept apart."""
    if not isinstance(value, str):
        return ""
    text = _PARAGRAPH_END.sub("\n\n", _HEADING.sub("", value))
    parts = (plain(p) for p in re.split(r"\n\s*\n", text))
    return "\n\n".join(p for p in parts if p)
