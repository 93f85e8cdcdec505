"""The committed file that remembers every citation key and page slug handed out.

A key or URL, once published, must not change when other papers arrive, so the
first assignment is written down and reused; newcomers that would collide get a
suffix. The curator may edit a key in the file; the slug (the page URL) stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import Problems
from ..model import Paper
from .keys import base_key, with_suffix
from .text import slugify

HEADER = """\
# Citation keys and page slugs handed out by readinglist, one entry per paper id.
# Commit this file: it keeps keys and URLs stable when digests are added in any order.
# You may change a `key` here (or pin one with `citekey:` in the paper's note); keep `slug`.
"""

# libyaml's loader and dumper (same results as the pure-Python safe ones) read and write a registry
# of ten thousand papers in a tenth of the time.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@dataclass
class Registry:
    entries: dict[str, dict[str, str]] = field(default_factory=dict)
    changed: bool = False

    @classmethod
    def load(cls, path: Path, problems: Problems) -> Registry:
        if not path.is_file():
            return cls()
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            mark = getattr(exc, "problem_mark", None)
            problems.error(path, (mark.line + 1) if mark else 0,
                           f"cannot read the key registry ({exc}); keys kept in memory only")
            return cls()
        if not isinstance(data, dict):
            problems.error(path, 1, "the key registry should map paper ids to {key, slug}")
            return cls()
        entries = {str(k): {str(a): str(b) for a, b in v.items()}
                   for k, v in data.items() if isinstance(v, dict)}
        return cls(entries)

    def dump(self) -> str:
        body = yaml.dump(dict(sorted(self.entries.items())), Dumper=_DUMPER, allow_unicode=True,
                         sort_keys=True, width=200)
        return HEADER + body

    def assign(self, papers: list[Paper], pins: dict[str, str], problems: Problems) -> dict[str, tuple[str, str]]:
        """Key and slug for every paper: pinned, else remembered, else new (newcomers yield)."""
        keys_taken = {e["key"] for pid, e in self.entries.items() if "key" in e}
        slugs_taken = {e["slug"] for e in self.entries.values() if "slug" in e}
        out: dict[str, tuple[str, str]] = {}
        for paper in papers:
            entry = self.entries.get(paper.id)
            if entry is None or "key" not in entry or "slug" not in entry:
                entry = dict(entry or {})
                if "key" not in entry:
                    entry["key"] = with_suffix(base_key(paper), keys_taken)
                    keys_taken.add(entry["key"])
                if "slug" not in entry:
                    entry["slug"] = _unique_slug(slugify(paper.title), slugs_taken)
                    slugs_taken.add(entry["slug"])
                self.entries[paper.id] = entry
                self.changed = True
            out[paper.id] = (entry["key"], entry["slug"])
        _apply_pins(out, pins, problems)
        _check_unique(out, problems)
        return out


def _unique_slug(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _apply_pins(out: dict[str, tuple[str, str]], pins: dict[str, str], problems: Problems) -> None:
    for pid, key in pins.items():
        if pid in out:
            out[pid] = (key, out[pid][1])


def _check_unique(out: dict[str, tuple[str, str]], problems: Problems) -> None:
    seen: dict[str, str] = {}
    for pid, (key, _slug) in list(out.items()):
        if key in seen:
            new = with_suffix(key, {k for k, _ in out.values()})
            problems.warn("citekeys.yml", 0, f"papers {seen[key]} and {pid} both have the key "
                          f"{key!r}; using {new!r} for the second")
            out[pid] = (new, out[pid][1])
        seen[out[pid][0]] = pid
