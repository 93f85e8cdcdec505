"""The list for reference managers: CSL-JSON (`references.json`, for Pandoc, Quarto, Zotero) and RIS
(`references.ris`, for Zotero, EndNote, Mendeley) at the site root, every paper with its abstract.

Each download appears once in full (issue 46): a tag's or a digest's own download is its `.bib`
only (render/tags.py, render/indexes.py), and its page points to these two files for the other
formats. Per-tag CSL-JSON and RIS files were 3.3 KB of site a paper at 10,000 papers.

CSL-JSON is written one item per line (the same JSON as an indented file, a third smaller); item
`id` is the citation key, as in the `.bib` files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..model import Library, Paper
from . import escape
from .csl import csl_item
from .ris import ris_from_item

# Separators without spaces.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def json_line(item: Any) -> str:
    """One CSL-JSON item (or value) on one line, `<` and `>` escaped as in papers.json
    (`escape.json_in_html`)."""
    return escape.json_in_html(_JSON(item))


def csl_json(lines: Iterable[str]) -> str:
    """A CSL-JSON file of the given items (each a `json_line`)."""
    body = ",\n".join(lines)
    return f"[\n{body}\n]\n" if body else "[]\n"


def csl_items(papers: Iterable[Paper]) -> dict[str, dict[str, Any]]:
    """Each paper's CSL item, by id, made once for the build (by the references stage,
    render/references.py): the root files give it whole; the tag and digest files and the
    formatted references take it without its abstract (`csl.short`)."""
    return {p.id: csl_item(p) for p in papers}


def reference_files(library: Library, items: Mapping[str, dict[str, Any]]) -> dict[str, str]:
    """`references.json` and `references.ris`. `items`: the papers' CSL items, made once for the
    build (the references stage's `items`, which the render context holds)."""
    whole_json: list[str] = []
    whole_ris: list[str] = []
    for p in library.papers:
        item = items[p.id]
        whole_json.append(json_line(item))
        whole_ris.append(ris_from_item(item))
    return {"references.json": csl_json(whole_json), "references.ris": "".join(whole_ris)}
