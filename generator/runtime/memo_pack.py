"""The library as the no-change memo stores it (cache.py): plain tuples instead of objects.

After every build the whole library is pickled for the next one. Pickled as they are, its ten
thousand papers, their fifty thousand related links and their source locations are seventy
thousand objects, each with its class and its field names, and that took half a second
at the end of every build. As tuples of the fields' values, in the order of the model's fields,
the same data pickles three times faster; `unpack` makes the same records again (equal, field
for field: tests/test_cache_pack.py).
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Any

from ..model import Library, Paper, Related, SourceRef, new_related, new_source_ref

# Paper fields stored as they are; the three below hold records and are stored as tuples.
_RECORDS = ("origin", "sources", "related")
_NAMES = tuple(f.name for f in fields(Paper))
_PLAIN = tuple(n for n in _NAMES if n not in _RECORDS)
_plain = attrgetter(*_PLAIN)
_ref = attrgetter("path", "line")
_link = attrgetter("id", "score", "why")

Packed = tuple[Any, ...]


def packable(library: Library) -> bool:
    """Whether `pack` keeps everything: exactly the model's records (which hold their fields and
    nothing else: slots)."""
    for p in library.papers:
        if type(p) is not Paper or type(p.origin) is not SourceRef:
            return False
        if any(type(s) is not SourceRef for s in p.sources) or any(type(r) is not Related for r in p.related):
            return False
    return type(library) is Library and library.__dict__.keys() == {f.name for f in fields(Library)}


def pack(library: Library) -> Packed:
    """The library as tuples (see `packable`): what `unpack` turns back into it."""
    papers = library.papers
    return (
        _NAMES,
        [_plain(p) for p in papers],
        [_ref(p.origin) for p in papers],
        [tuple(map(_ref, p.sources)) for p in papers],
        [tuple(map(_link, p.related)) for p in papers],
        {f.name: getattr(library, f.name) for f in fields(Library) if f.name != "papers"},
    )


def unpack(packed: Packed) -> Library:
    names, plain, origins, sources, related, rest = packed
    if names != _NAMES:
        raise ValueError("the stored library was packed for other Paper fields")
    papers = []
    for values, origin, refs, links in zip(plain, origins, sources, related, strict=True):
        paper: Paper = object.__new__(Paper)
        for name, value in zip(_PLAIN, values, strict=True):
            _set(paper, name, value)
        _set(paper, "origin", new_source_ref(*origin))
        _set(paper, "sources", tuple([new_source_ref(*ref) for ref in refs]))
        _set(paper, "related", tuple([new_related(*link) for link in links]))
        papers.append(paper)
    return Library(papers=papers, **rest)


_set = object.__setattr__  # frozen records, set as their __init__ sets them
