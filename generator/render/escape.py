"""The one place where untrusted text (titles, abstracts, names) becomes page text.

Every ASCII character that means something to Markdown, HTML, Jinja-like
template syntax or MkDocs extensions is written as a numeric character
reference. Entities are plain text to Python-Markdown and to browsers alike,
so the same escaped string is inert inside Markdown (headings, tables, list
items, link text) and inside raw HTML blocks and attributes.
"""

from __future__ import annotations

import json
import re

_SPECIAL = set("&<>\"'`\\*_{}[]()#+!|~^=$")
_TABLE = {ord(c): f"&#{ord(c)};" for c in _SPECIAL}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
# str.translate looks every character up in the table; finding the few specials with one regex
# and replacing only those gives the same text several times faster on abstracts.
_SPECIAL_RE = re.compile("[" + re.escape("".join(sorted(_SPECIAL))) + "]")
_ENTITY = {c: f"&#{ord(c)};" for c in _SPECIAL}


def fold(value: str) -> str:
    """One line: control characters and runs of white space become single spaces."""
    return " ".join(_CONTROL.sub(" ", value).split())


def chars(value: str) -> str:
    """Escape every special character, leaving white space as it is."""
    return _SPECIAL_RE.sub(lambda m: _ENTITY[m.group()], _CONTROL.sub(" ", value))


def text(value: str) -> str:
    """Untrusted text for one line of a page: whitespace folded, every special escaped."""
    return chars(fold(value))


def attr(value: str) -> str:
    """Untrusted text inside a double-quoted HTML attribute (same escaping)."""
    return text(value)


def yaml_string(value: str) -> str:
    """A YAML scalar for front matter: JSON strings are valid YAML and cannot break out."""
    return json.dumps(fold(value), ensure_ascii=False)


def url(value: str | None) -> str | None:
    """Only http(s) links from input reach a page; anything else (javascript:, data:) is dropped."""
    if not value:
        return None
    value = value.strip()
    if not re.match(r"^https?://[^\s<>\"'`]+$", value, re.I):
        return None
    return value.replace("&", "&amp;").replace("(", "%28").replace(")", "%29")
