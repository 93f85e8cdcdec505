"""XML digests (arXiv API results, arXiv announcement feeds), parsed safely.

defusedxml refuses what an XML file could do to the machine reading it: entity expansion
("billion laughs"), external entities and DTD fetches. A refusal or a syntax error is a
`path:line` message, and the other files still build. ElementTree keeps no line numbers, so an
entry's line is found from the text: the n-th `<entry` (or `<item`) tag is the n-th element.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from ..errors import Problems

NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom",
      "dc": "http://purl.org/dc/elements/1.1/", "opensearch": "http://a9.com/-/spec/opensearch/1.1/"}


def looks_like_xml(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n")[:1] == "<"


def parse(path: str, text: str, problems: Problems, what: str) -> Element | None:
    """The document's root, or None with a message naming the line (for `what`, e.g. 'an arXiv feed')."""
    try:
        return fromstring(text.lstrip("\ufeff"))
    except DefusedXmlException as exc:
        problems.error(path, _declaration_line(text), f"refused to read {what}: {type(exc).__name__} "
                       "(entity declarations and external references are not allowed); skipped")
    except ParseError as exc:
        line, column = getattr(exc, "position", (1, 0))
        problems.error(path, line, f"{what} that is not well-formed XML ({_reason(exc)}, column {column + 1}); "
                       "skipped")
    return None


def _reason(exc: ParseError) -> str:
    return str(exc).split(":", 1)[0]


def _declaration_line(text: str) -> int:
    m = re.search(r"<!(?:DOCTYPE|ENTITY)", text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def element_lines(text: str, tag: str) -> list[int]:
    """The line of each `<tag` (with or without a namespace prefix) in document order."""
    return [text.count("\n", 0, m.start()) + 1 for m in re.finditer(rf"<(?:[\w.-]+:)?{tag}[\s>/]", text)]


def text_of(element: Element | None, path: str = "") -> str:
    """The text of `element` (or of its child at `path`), white space folded; "" when absent."""
    if element is None:
        return ""
    node = element.find(path, NS) if path else element
    return " ".join("".join(node.itertext()).split()) if node is not None else ""
