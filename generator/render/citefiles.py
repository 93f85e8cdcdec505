"""The list for reference managers: CSL-JSON (`.json`, for Pandoc, Quarto, Zotero) and RIS (`.ris`,
for Zotero, EndNote, Mendeley) beside every `.bib`.

- `references.json` and `references.ris` at the site root: every paper, with its abstract;
- `tags/<slug>.json|.ris` and `digests/<slug>.json|.ris`: that tag's or digest's papers, without
  abstracts (the root files have them), to keep the site small.

CSL-JSON is written one item per line (the same JSON as an indented file, a third smaller); item
`id` is the citation key, as in the `.bib` files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..model import Library, Paper
from . import escape
from .csl import csl_item, short
from .ris import ris_from_item, with_abstract
from .tagnames import papers_by_tag

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


def reference_files(library: Library, tag_slugs: Mapping[str, str], by_id: Mapping[str, Paper],
                    items: Mapping[str, dict[str, Any]]) -> dict[str, str]:
    """`references.json|.ris` and the same for every tag and digest. `tag_slugs`: `all_tag_slugs`;
    `items`: the papers' CSL items, made once for the build (the references stage's `items`,
    which the render context holds)."""
    # Each paper's short record (in a tag's and a digest's files) is made once, and its whole
    # record (in the root files) from it: the two differ by the abstract alone.
    short_json: dict[str, str] = {}
    short_ris: dict[str, str] = {}
    whole_json: list[str] = []
    whole_ris: list[str] = []
    for p in library.papers:
        item = items[p.id]
        brief = short(item)
        short_json[p.id] = line = json_line(brief)
        short_ris[p.id] = record = ris_from_item(brief)
        whole_json.append(json_with_abstract(line, item) if "abstract" in item else line)
        whole_ris.append(with_abstract(record, item["abstract"]) if "abstract" in item else record)
    files = {"references.json": csl_json(whole_json), "references.ris": "".join(whole_ris)}

    def write(base: str, papers: list[Paper]) -> None:
        files[f"{base}.json"] = csl_json(short_json[p.id] for p in papers)
        files[f"{base}.ris"] = "".join(short_ris[p.id] for p in papers)

    for name, papers in papers_by_tag(library).items():
        write(f"tags/{tag_slugs[name]}", papers)
    for digest in library.digests:
        if not digest.paper_ids:
            continue  # no empty downloads (render/indexes.py, has_downloads)
        write(f"digests/{digest.slug}", [by_id[i] for i in digest.paper_ids if i in by_id])
    return files


def json_with_abstract(line: str, item: dict[str, Any]) -> str:
    """`json_line(item)` from `line`, the `json_line` of the item without its abstract, when the
    abstract is the item's last key (as `csl.csl_item` makes it): the same JSON text, without
    encoding the rest of the item again."""
    if len(item) > 1 and next(reversed(item)) == "abstract":
        return f'{line[:-1]},"abstract":{json_line(item["abstract"])}}}'
    return json_line(item)
