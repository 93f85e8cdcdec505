"""The committed file that remembers every citation key and page slug handed out.

A key or URL, once published, must not change when other papers arrive, so the first
assignment is written down and reused, in whatever order digests are added. Rules:

- a key in the registry is kept (the curator may edit it; an invalid or duplicate edit is
  reported and that paper gets a fresh key);
- a note may pin a key; a valid pin wins over the registry, whose key stays reserved for
  the paper (it is never given to another one); a paper pinned when first seen is recorded
  with the pinned key;
- newcomers get `base_key`, or with a suffix (`a`, `b`, ...) when it is taken; several
  newcomers in one build are served oldest first, then by id, so the result does not depend
  on the order the digests were read;
- keys are compared without case, as BibTeX does, so two papers never share a key.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ..curated import read_text, yaml_error
from ..errors import ParseError, Problems
from ..model import Paper
from ..sources.ids import normalise_title
from .keys import base_key, valid_key, with_suffix
from .text import slugify

HEADER = """\
# Citation keys and page slugs handed out by readinglist, one entry per paper id.
# Commit this file: it keeps keys and URLs stable when digests are added in any order.
# You may change a `key` here (or pin one with `citekey:` in the paper's note); keep `slug`.
"""

# libyaml's loader and dumper where PyYAML has them (its pure-Python loader took four times as
# long for ten thousand papers). They read the same; the dumpers differ on long ids (the
# pure-Python one writes `? id` from about 123 characters, libyaml from about 129), and `dump`
# writes as libyaml does.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@dataclass(frozen=True)
class Pin:
    """A key chosen in a note's front matter, with the note's place for messages."""

    key: str
    path: str = ""
    line: int = 0
    what: str = "citekey"  # or "imported key" (a .bib entry's own key)

    def where(self, paper_id: str) -> tuple[str, int, str]:
        if self.path:
            return self.path, self.line, self.what
        return "content/notes", 0, f"the note of {paper_id} pins citekey"


@dataclass
class Registry:
    entries: dict[str, dict[str, str]] = field(default_factory=dict)
    changed: bool = False
    path: str = "citekeys.yml"
    lines: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, problems: Problems) -> Registry:
        """The registry in `path` (empty if there is none). A file that cannot be read whole raises
        ParseError (generator/curated.py): a registry read in part would be written again without
        the rest, and the keys it held would change."""
        shown = path.name
        if not path.is_file():
            return cls(path=shown)
        what = "the key registry"
        text = read_text(path, shown, what=what)
        # Parsed once: the node tree gives the line numbers, the same tree the data (this is
        # what yaml.load does, and 10,000 entries take a while to parse).
        loader = _LOADER(text)
        try:
            node = loader.get_single_node()
            data = (loader.construct_document(node) if node is not None else None) or {}
        except yaml.YAMLError as exc:
            raise yaml_error(exc, shown, what) from None
        finally:
            loader.dispose()
        if node is None:
            return cls(path=shown)  # empty, or comments only
        if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
            raise ParseError(shown, node.start_mark.line + 1,
                             "the key registry should map each paper id to its `key:` and `slug:`")
        lines: dict[str, int] = {}
        seen: dict[str, yaml.Node] = {}
        for k, v in node.value:
            pid, line = str(k.value), k.start_mark.line + 1
            if pid in seen and _value(seen[pid]) != _value(v):
                # Both sides of a merge kept, each giving the paper its own key or slug.
                problems.warn(shown, line, f"{pid} is given twice (lines {lines[pid]} and {line}), "
                              "differently; the later one counts")
            lines[pid], seen[pid] = line, v
        for k, v in data.items():
            if not isinstance(v, dict):
                raise ParseError(shown, lines.get(str(k), 0),
                                 f"{k}: expected `key:` and `slug:` on the lines below it, got {v!r}")
        entries = {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items()}
        return cls(entries, path=shown, lines=lines)

    def dump(self) -> str:
        body = yaml.dump(dict(sorted(self.entries.items())), Dumper=_DUMPER, allow_unicode=True,
                         sort_keys=True, width=200)
        return HEADER + body

    def _check_entries(self, problems: Problems) -> None:
        """Drop curator edits that cannot work (bad characters, a key given twice)."""
        owner: dict[str, str] = {}
        for pid in sorted(self.entries):
            entry = self.entries[pid]
            key = entry.get("key")
            if key is None:
                continue
            line = self.lines.get(pid, 0)
            if not valid_key(key):
                problems.warn(self.path, line, f"key {key!r} of {pid} is not a valid BibTeX key "
                              "(letters, digits and _:.+/- only); giving the paper a new key")
            elif key.lower() in owner:
                problems.warn(self.path, line, f"key {key!r} of {pid} is already the key of "
                              f"{owner[key.lower()]}; giving {pid} a new key")
            else:
                owner[key.lower()] = pid
                continue
            del entry["key"]
            self.changed = True

    def _valid_pins(self, pins: Mapping[str, str | Pin], known: set[str],
                    problems: Problems) -> dict[str, str]:
        """The pins that can be honoured: valid, not shared, not another paper's key."""
        given = {pid: (p if isinstance(p, Pin) else Pin(str(p))) for pid, p in pins.items() if pid in known}
        by_key: dict[str, list[str]] = {}
        for pid, pin in given.items():
            by_key.setdefault(pin.key.lower(), []).append(pid)
        owners = {e["key"].lower(): pid for pid, e in self.entries.items() if "key" in e}
        out: dict[str, str] = {}
        for pid, pin in sorted(given.items()):
            path, line, what = pin.where(pid)
            current = self.entries.get(pid, {}).get("key")
            keeping = f"keeping {current!r}" if current else "using the generated key"
            if not valid_key(pin.key):
                problems.warn(path, line, f"{what} {pin.key!r} is not a valid BibTeX key "
                              f"(letters, digits and _:.+/- only); {keeping}")
            elif len(by_key[pin.key.lower()]) > 1:
                others = ", ".join(q for q in by_key[pin.key.lower()] if q != pid)
                problems.warn(path, line, f"{what} {pin.key!r} is also pinned for {others}; "
                              f"ignoring it, {keeping}")
            elif owners.get(pin.key.lower(), pid) != pid:
                problems.warn(path, line, f"{what} {pin.key!r} already belongs to "
                              f"{owners[pin.key.lower()]} ({self.path}); {keeping}")
            else:
                out[pid] = pin.key
        return out

    def known_ids(self, papers: list[Paper], alias: dict[str, str]) -> tuple[list[Paper], dict[str, str]]:
        """Each paper under the id the registry knows it by: a paper whose id is new but one of
        whose merged records (`Paper.aliases`) was given a key before (a listing paper, keyed by
        its title, now also read from an arXiv e-mail) keeps that id, so its key and page stay.
        `alias` (record id -> paper id) follows."""
        renamed: dict[str, str] = {}
        out = []
        for paper in papers:
            if paper.id not in self.entries:
                # Also the id its title gave it: a listing paper seen later on arXiv keeps its key
                # when the listing file itself is gone.
                by_title = () if paper.title_missing else (f"title:{normalise_title(paper.title)}",)
                known = next((a for a in (*paper.aliases, *by_title) if a in self.entries), None)
                if known is not None:
                    renamed[paper.id] = known
                    paper = replace(paper, id=known)
            out.append(paper)
        if renamed:
            alias = {record: renamed.get(pid, pid) for record, pid in alias.items()}
        return out, alias

    def assign(self, papers: list[Paper], pins: Mapping[str, str | Pin],
               problems: Problems) -> dict[str, tuple[str, str]]:
        """Key and slug for every paper: pinned, else remembered, else new (newcomers yield)."""
        self._check_entries(problems)
        pinned = self._valid_pins(pins, {p.id for p in papers}, problems)
        keys_taken = {e["key"].lower() for e in self.entries.values() if "key" in e}
        keys_taken |= {k.lower() for k in pinned.values()}
        slugs_taken = {e["slug"] for e in self.entries.values() if "slug" in e}
        # Oldest first, then by id: the same result whatever order the digests were read in.
        for paper in sorted(papers, key=lambda p: (p.year or 9999, p.date or dt.date.max, p.id)):
            entry = self.entries.setdefault(paper.id, {})
            if "key" not in entry:
                # A newcomer pinned from its first build keeps the pin even if the note goes.
                entry["key"] = pinned.get(paper.id) or with_suffix(base_key(paper), keys_taken)
                keys_taken.add(entry["key"].lower())
                self.changed = True
            if "slug" not in entry:
                entry["slug"] = _unique_slug(slugify(paper.title), slugs_taken)
                slugs_taken.add(entry["slug"])
                self.changed = True
        return {p.id: (pinned.get(p.id, self.entries[p.id]["key"]), self.entries[p.id]["slug"])
                for p in papers}


def _value(node: yaml.Node) -> object:
    return yaml.constructor.SafeConstructor().construct_document(node)


def _unique_slug(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"

