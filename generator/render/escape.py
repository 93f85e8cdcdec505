"""The one place where untrusted text (titles, abstracts, names) becomes page text.

Every ASCII character that means something to Markdown, HTML, Jinja-like
template syntax or MkDocs extensions is written as a numeric character
reference. Entities are plain text to Python-Markdown and to browsers alike,
so the same escaped string is inert inside Markdown (headings, tables, list
items, link text) and inside raw HTML blocks and attributes. The narrower escapes
other modules need are here too (`markup`, `fence_chars`, `json_in_html`): no
other module of the generator escapes text for a page.
"""

from __future__ import annotations

import html
import json
import re

from ..runtime.switches import memoized

_SPECIAL = set("&<>\"'`\\*_{}[]()#+!|~^=$")
# C0/C1 controls, line/paragraph separators, lone surrogates and non-characters: invisible, and
# YAML front matter or UTF-8 output would reject some of them.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
# str.translate looks every character up in the table; finding the few specials with one regex
# and replacing only those gives the same text several times faster on abstracts.
_SPECIAL_RE = re.compile("[" + re.escape("".join(sorted(_SPECIAL))) + "]")
_ENTITY = {c: f"&#{ord(c)};" for c in _SPECIAL}
_REPLACEABLE = tuple((c, _ENTITY[c]) for c in sorted(_SPECIAL - {"&", "#"}))
# What `html.escape` replaces (with quote=True; without, only the first three): text with none of
# them (most names, dates, links, BibTeX entries) is left as it is after one search in C, not five
# replace calls in a Python function.
_HTML_SPECIAL = re.compile("[&<>\"']")
_HTML_SPECIAL_NO_QUOTE = re.compile("[&<>]")
# What json.dumps(s, ensure_ascii=False) returns for a string, without a new encoder per call
# (json's own encoder, in C; TypeError for anything but a str).
json_string = json.encoder.encode_basestring


def fold(value: str) -> str:
    """One line: control characters and runs of white space become single spaces."""
    if value.isprintable():
        # Printable text holds no white space but the ASCII space (Unicode's separators are not
        # printable): most abstracts need no splitting into words and joining again.
        if "  " in value or value.startswith(" ") or value.endswith(" "):
            return " ".join(value.split())
        return value
    out = " ".join(value.split())
    # Every character `_CONTROL` matches is unprintable (isprintable runs in C; the regex scan
    # took most of the time on abstracts); the white-space ones split() has already removed.
    if out.isprintable():
        return out
    return " ".join(_CONTROL.sub(" ", value).split())


def chars(value: str) -> str:
    """Escape every special character, leaving white space as it is."""
    if not value.isprintable():
        value = _CONTROL.sub(" ", value)
    if "&" in value or "#" in value:
        return _SPECIAL_RE.sub(_entity, value)
    # Without `&` and `#` (which the entities themselves hold) each special present is replaced
    # on its own: a search in C per special, twice as fast on abstracts as the regex and its call
    # per match, the same text (tested).
    for special, entity in _REPLACEABLE:
        if special in value:
            value = value.replace(special, entity)
    return value


def _entity(m: re.Match[str]) -> str:
    return _ENTITY[m.group()]


# Cached: a title or a name is written on ten or more pages (lists, related papers, pictures):
# 428,000 of the 485,000 calls of a 10,000-paper synthetic build are hits. Measured for issue 34
# (CPU time of the notes and render stages, interleaved rounds, medians): 0.49 s saved on its
# own, 0.5-0.6 s once the caches of links, rows, math, citesearch and notebody were removed, and
# removing it with them cost 0.85-1.1 s, over the 0.75 s (3 % of the build) a speed-up must save.
# (Of those, math's to_mathml stayed: it pays on the seeded workload.)
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 17)
def text(value: str) -> str:
    """Untrusted text for one line of a page: whitespace folded, every special escaped.

    Also safe at the start of a Markdown line: a leading `-` or `1.` would make a list."""
    out = chars(fold(value))
    if out.startswith("-"):
        out = "&#45;" + out[1:]
    return _ORDERED.sub(r"\1&#46;", out, count=1) if out[:1].isdigit() else out


_ORDERED = re.compile(r"^(\d+)\.")


def attr(value: str) -> str:
    """Untrusted text inside a double-quoted HTML attribute (same escaping)."""
    return text(value)


def yaml_string(value: str) -> str:
    """A front-matter value: HTML-escaped, then a JSON string (valid YAML that cannot break out).

    MkDocs renders themes without autoescaping, and Material prints `page.meta.title`
    into `<title>` and the header, `description` into an attribute and tag names into
    the tags index as raw HTML. So every front-matter value is written as HTML text.
    """
    return json_string(_html_text(value))


# An `&` that a browser (or html.unescape) could read as the start of a character reference, or an
# ambiguous ampersand (`&word;`) that the HTML checker rejects.
_REFERENCE_LIKE = re.compile(r"&(?:#|[A-Za-z0-9]+;)")


def yaml_title(value: str) -> str:
    """A page's `title:` in front matter: HTML text for Material, which prints it raw (`yaml_string`),
    that Zensical can also show as it is. Zensical takes the title as plain text for its search
    results (each result's title and path): `&quot;` showed as typed there. So only what HTML text
    needs is escaped: `<`, and `&` where the title holds something a browser would read as a
    character reference (then every `&`, so `&amp;` in a title stays what it was). Quotes and `>`
    stay as they are: the theme escapes the quote where it puts the title in an attribute
    (main.html, `og:title`)."""
    value = fold(value)
    if "&" in value and (_REFERENCE_LIKE.search(value) or html.unescape(value) != value):
        value = value.replace("&", "&amp;")
    return json_string(value.replace("<", "&lt;") if "<" in value else value)


def markup(value: str, *, quote: bool = True) -> str:
    """Text inside HTML that no Markdown pass reads (a code block, a MathML attribute, a note's
    rendered link): the HTML specials only, as `html.escape` writes them."""
    if (_HTML_SPECIAL if quote else _HTML_SPECIAL_NO_QUOTE).search(value) is None:
        return value
    return html.escape(value, quote)


def json_in_html(text: str) -> str:
    """JSON text (`papers.json`, CSL-JSON) with `<` and `>` written as `\\u003c` and `\\u003e`.

    The same JSON value (a JSON string may write any character as `\\uXXXX`), and one that a
    `</script>` in a title cannot end when someone inlines the file in a page's script:
    `json.dumps` escapes nothing HTML reads. Outside strings JSON has no `<` or `>`, so the whole
    text is replaced."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def fence_chars(value: str) -> str:
    """HTML for a raw HTML block of a Markdown page (a note's body) with each `` ` `` and `~`
    written as an entity (`&#96;`, `&#126;`): the same text in a browser, but MkDocs' fence
    preprocessor (`pymdownx.superfences`) reads the page before it sets raw HTML aside, and would
    still take a line of ``` or ~~~ inside the block for the start of a code block."""
    return value.replace("`", "&#96;").replace("~", "&#126;")


def _html_text(value: str) -> str:
    """A front-matter value as HTML text: one line, every special escaped (quotes too)."""
    value = fold(value)
    return html.escape(value, quote=True) if _HTML_SPECIAL.search(value) else value


def meta_tags(pairs: list[tuple[str, str]]) -> str:
    """`<meta name content>` tags for a page's head as one front-matter value: a JSON string of
    HTML that the theme prints as it is. Contents are escaped as `yaml_string` escapes a value.
    (One string, not a list of pairs: MkDocs parses every page's front matter with PyYAML, which
    took 0.4 s for 10,000 pages' Highwire tags as lists and 0.07 s as strings.)"""
    # The names are the generator's own (`citation_title`, render/highwire.py: letters and `_`),
    # nothing to escape in them; the contents are input.
    return json_string("".join([f'<meta name="{name}" content="{_html_text(content)}">' for name, content in pairs]))


_HTTP_URL = re.compile(r"^https?://[^\s<>\"'`]+$", re.I)


def url(value: str | None) -> str | None:
    """Only http(s) links from input reach a page; anything else (javascript:, data:) is dropped."""
    if not value:
        return None
    value = value.strip()
    if not _HTTP_URL.match(value):
        return None
    return value.replace("&", "&amp;").replace("(", "%28").replace(")", "%29")
