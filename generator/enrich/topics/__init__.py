"""Topic tags: the curator's taxonomy (`content/topics.yml`) matched over title and abstract.

Phrases match whole words after light stemming (Snowball), so `router` also finds `routers` and a
hyphen counts as a space. A phrase word with two or more capitals is an acronym (`FL`, `OPD`,
`LoRA`) and only matches that exact spelling (plural `s` allowed), so `fl` in running text never
counts. Subject classes (`cs.CL`) become tags with readable names too.

Here: reading topics.yml and tagging papers. The topics and the one-text match are taxonomy.py's,
the batch match of all papers match.py's, the evidence rule evidence.py's.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from ...curated import compose
from ...errors import ParseError, Problems
from ...model import Paper
from ...sources.subjects import CLASS_NAMES, class_name
from .evidence import parse_learning
from .taxonomy import Taxonomy, Topic, phrase_keys

# A tag name ends up in YAML front matter, an HTML comment directive and a file name: keep it tame.
_BAD_NAME = re.compile(r"[\x00-\x1f<>\[\]{}\"`|#]|-->")


def subject_tag(code: str) -> str:
    """The tag for an arXiv class: `Computation and Language (cs.CL)`."""
    name = class_name(code)
    return f"{name} ({code})" if name != code else code


def valid_tag_name(name: str) -> bool:
    return bool(name.strip()) and name == name.strip() and not _BAD_NAME.search(name) and len(name) <= 80


# -- reading topics.yml ------------------------------------------------------------------------


def load_taxonomy(path: Path, problems: Problems, shown: str | None = None) -> Taxonomy:
    """The taxonomy in `path`; a missing file is an empty taxonomy, a bad entry a warning. A file
    that cannot be read whole raises ParseError (generator/curated.py): a taxonomy read as empty
    would take every topic tag off the site."""
    where = shown or str(path)
    if not path.is_file():
        return Taxonomy([], where)
    return parse_taxonomy(compose(path, where, what="the topic taxonomy"), where, problems)


def parse_taxonomy(root: yaml.Node | None, where: str, problems: Problems) -> Taxonomy:
    if root is None:
        return Taxonomy([], where)
    items = _mapping_value(root, "topics")
    if not isinstance(items, yaml.SequenceNode):
        keys = [k for k, _ in root.value if isinstance(k, yaml.ScalarNode)] if isinstance(root, yaml.MappingNode) \
            else []
        found = ", ".join(f"`{k.value}:` (line {k.start_mark.line + 1})" for k in keys)
        raise ParseError(where, root.start_mark.line + 1, "expected `topics:` with a list of topics"
                         + (f"; the file has {found}" if found else ""))
    topics: list[Topic] = []
    names: set[str] = set()
    categories, phrases = parse_learning(_mapping_value(root, "learning"), where, problems)
    for node in items.value:
        topic = _topic(node, where, problems)
        if topic is None:
            continue
        if topic.name.lower() in names:
            problems.warn(where, topic.line, f"topic {topic.name!r} is defined twice; the first one counts")
            continue
        names.add(topic.name.lower())
        topics.append(topic)
    return Taxonomy(topics, where, categories, phrases)


def _mapping_value(node: yaml.Node, key: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def _topic(node: yaml.Node, where: str, problems: Problems) -> Topic | None:
    line = node.start_mark.line + 1
    data: Any = (yaml.constructor.SafeConstructor().construct_document(node)
                 if isinstance(node, yaml.MappingNode) else None)
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        problems.warn(where, line, "a topic needs a `name:`; entry skipped")
        return None
    name = " ".join(data["name"].split())
    if not valid_tag_name(name):
        problems.warn(where, line, f"topic name {name!r} has characters a tag cannot hold; entry skipped")
        return None
    phrases = data.get("phrases") or []
    if not isinstance(phrases, list) or not all(isinstance(p, str | int | float) for p in phrases):
        problems.warn(where, line, f"topic {name!r}: `phrases` must be a list of words or phrases")
        phrases = []
    patterns: list[re.Pattern[str]] = []
    for raw in data.get("patterns") or []:
        try:
            patterns.append(re.compile(str(raw)))
        except re.error as exc:
            problems.warn(where, line, f"topic {name!r}: pattern {raw!r} is not a valid regular expression: {exc}")
    min_hits = data.get("min_hits", 1)
    if not isinstance(min_hits, int) or isinstance(min_hits, bool) or min_hits < 1:
        problems.warn(where, line, f"topic {name!r}: `min_hits` must be a whole number >= 1; using 1")
        min_hits = 1
    learning = data.get("learning", False)
    if not isinstance(learning, bool):
        problems.warn(where, line, f"topic {name!r}: `learning` must be true or false; using false")
        learning = False
    usable = tuple(str(p) for p in phrases if phrase_keys(str(p)))
    if not usable and not patterns:
        problems.warn(where, line, f"topic {name!r} has no phrases or patterns, so no paper can match it")
    return Topic(name, str(data.get("description") or ""), usable, tuple(patterns), min_hits, line, learning)


# -- tags for papers ---------------------------------------------------------------------------

TagChanges = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


def apply_changes(tags: Sequence[str], add: Iterable[str], remove: Iterable[str]) -> tuple[str, ...]:
    """A note's additions go first (the curator knows best what a paper is about). A name that
    could not be a tag (see `valid_tag_name`) is never added."""
    dropped = {r.lower() for r in remove}
    merged = [*(a for a in add if valid_tag_name(a)), *tags]
    return tuple(t for t in dict.fromkeys(merged) if t.lower() not in dropped)


def tag_papers(papers: list[Paper], taxonomy: Taxonomy, tag_changes: TagChanges | None = None) -> list[Paper]:
    return [replace(p, tags=tags) for p, tags in zip(papers, paper_tag_lists(papers, taxonomy, tag_changes),
                                                   strict=True)]


def paper_tag_lists(papers: list[Paper], taxonomy: Taxonomy,
                    tag_changes: TagChanges | None = None) -> list[tuple[str, ...]]:
    """Each paper's matched topics (strongest first), then its subject classes, with the notes'
    changes applied. The topics of all papers are matched at once (match.py)."""
    from .match import match_many

    changes = tag_changes or {}
    out = []
    # A placeholder title ("Untitled paper by ...") quotes the abstract; do not count it twice.
    matched = match_many(taxonomy, ["" if p.title_missing else p.title for p in papers],
                         [p.abstract for p in papers], [p.categories for p in papers])
    for paper, topics in zip(papers, matched, strict=True):
        tags = tuple(dict.fromkeys([*topics, *(subject_tag(c) for c in paper.categories)]))
        if paper.id in changes:
            add, remove = changes[paper.id]
            tags = apply_changes(tags, add, remove)
        out.append(tags)
    return out


# How alike (difflib's ratio, lower case) a new tag of the curator's and an existing tag must be
# for the new one to look like a typo of the other: 'Knowlege distillation' against 'Knowledge
# distillation' is 0.98, 'thin networks' against 'Graph neural networks' 0.65.
NEAR_MISS = 0.85


def resolve_note_tags(names: Iterable[Any], taxonomy: Taxonomy, path: str, line: int,
                      problems: Problems, subjects: Iterable[str] | None = None, *,
                      own: dict[str, str] | None = None) -> tuple[str, ...]:
    """Tag names from a note's front matter, spelled as the taxonomy spells them.

    Names match topics (or subject tags such as `cs.CL` / `Computation and Language (cs.CL)`)
    case-insensitively. With `own` (the tags a note adds), any other name becomes a tag of the
    curator's own, spelled as first written in any note of the build (`own`: lower case ->
    spelling, shared by the notes); a new name close to an existing tag is still applied, with a
    `path:line` warning naming the tag it may have meant. Without `own` (the tags a note
    removes), an unknown name is reported and left out. The note itself is untouched.
    """
    known: dict[str, str] = {n.lower(): n for n in taxonomy.names}
    for code in CLASS_NAMES if subjects is None else subjects:
        tag = subject_tag(code)
        known[tag.lower()] = tag
        known[code.lower()] = tag
    out: list[str] = []
    for raw in names:
        name = " ".join(str(raw).split())
        hit = known.get(name.lower()) or (own or {}).get(name.lower())
        if hit is None and own is not None and valid_tag_name(name):
            near = difflib.get_close_matches(name.lower(), [*known, *own], n=1, cutoff=NEAR_MISS)
            if near:
                meant = known.get(near[0]) or own[near[0]]
                problems.warn(path, line, f"new tag {name!r} is applied as a tag of your own; "
                              f"did you mean {meant!r}?")
            hit = own[name.lower()] = name
        if hit is None and own is not None:
            problems.warn(path, line, f"{name!r} in the note's tags cannot be a tag name (ignored)")
            continue
        if hit is None:
            problems.warn(path, line, f"unknown topic {name!r} in the note's tags (ignored); "
                          f"topics are defined in {taxonomy.path or 'content/topics.yml'}")
            continue
        out.append(hit)
    return tuple(dict.fromkeys(out))
