"""Notes meet the model: match each note to its paper, feed its overrides to enrich, index its links.

A note is named by its paper's citation key or slug (the file stem). The registry knows both
before enrich runs; a paper seen for the first time gets its key during enrich, so its note is
matched afterwards and enrich runs once more with that note's overrides (rare: only when such
a note has overrides; generator/build.py, `make_library`).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Any

from ..enrich import Pin, Registry
from ..enrich.text import plain_title
from ..errors import Problem, Problems
from ..model import Library, Paper
from .markdown import wikilinks
from .model import Link, Note, NoteIndex


def _fold(title: str) -> str:
    return " ".join(plain_title(title).split()).casefold()


def registry_stems(registry: Registry) -> dict[str, str]:
    stems: dict[str, str] = {}
    for pid, entry in registry.entries.items():
        for name in (entry.get("key"), entry.get("slug")):
            if name:
                stems.setdefault(name, pid)
    return stems


def match(notes: list[Note], stems: dict[str, str]) -> dict[str, str]:
    """Note path -> paper id, for the notes whose file stem names a paper."""
    return {n.path: stems[n.stem] for n in notes if n.stem in stems}


@dataclass
class NoteOverrides:
    """What the notes ask of enrich, for the notes matched to their papers so far (`matched`:
    note path -> paper id)."""

    notes: list[Note]
    matched: dict[str, str]

    def enrich_kwargs(self) -> dict[str, Any]:
        """`enrich`'s keyword arguments: pins, year overrides, tag changes and where they were written."""
        pins: dict[str, Pin] = {}
        years: dict[str, int] = {}
        tags: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        sources: dict[str, tuple[str, int, int]] = {}
        signals: dict[str, int] = {}
        for note in self.notes:
            pid = self.matched.get(note.path)
            if pid is None:
                continue
            if note.signal is not None:
                signals[pid] = note.signal
            if note.citekey:
                pins[pid] = Pin(note.citekey, str(note.path))
            if note.year:
                years[pid] = note.year
            if note.tags or note.remove_tags:
                tags[pid] = (note.tags, note.remove_tags)
                sources[pid] = (note.path, note.line_of("tags"), note.line_of("remove_tags"))
        return {"pins": pins, "year_overrides": years, "tag_changes": tags, "tag_sources": sources,
                "noted": frozenset(self.matched.values()), "signals": signals}

    def late(self, library: Library, registry: Registry) -> NoteOverrides | None:
        """These overrides with the notes that name a paper by the key or slug it got in this build,
        if any of them overrides something (else None: enrich need not run again)."""
        stems = self.stems(library, registry)
        late = {n.path: stems[n.stem] for n in self.notes
                if n.path not in self.matched and n.stem in stems and n.has_overrides}
        return NoteOverrides(self.notes, {**self.matched, **late}) if late else None

    def stems(self, library: Library, registry: Registry) -> dict[str, str]:
        """Every name a note may have (key or slug) -> paper id."""
        return _library_stems(library, registry)


def note_overrides(notes: list[Note], registry: Registry) -> NoteOverrides:
    """The overrides of the notes whose file stem names a paper the registry knows."""
    return NoteOverrides(notes, match(notes, registry_stems(registry)))


def _library_stems(library: Library, registry: Registry) -> dict[str, str]:
    stems = {p.key: p.id for p in library.papers}
    for p in library.papers:
        stems.setdefault(p.slug, p.id)
    ids = set(stems.values())
    for name, pid in registry_stems(registry).items():
        # A paper gone from every digest is still in the registry; its note is an orphan.
        if pid in ids:
            stems.setdefault(name, pid)
    return stems


def apply_notes(library: Library, notes: list[Note], stems: dict[str, str], problems: Problems) -> Library:
    """The notes stage: title and hidden overrides applied, the indexed notes attached (Library.notes)."""
    by_paper, orphans = _pair(notes, stems, problems)
    hidden = {pid for pid, n in by_paper.items() if n.hidden}
    _acknowledge(library, by_paper, hidden, problems)
    papers = [_retitled(p, by_paper.get(p.id)) for p in library.papers if p.id not in hidden]
    digests = [replace(d, paper_ids=tuple(i for i in d.paper_ids if i not in hidden)) if hidden else d
               for d in library.digests]
    out = replace(library, papers=papers, digests=digests)
    out.notes = index_notes(out, by_paper, orphans, stems, hidden, problems)
    return out


def _retitled(paper: Paper, note: Note | None) -> Paper:
    # The curator's title is no placeholder: the citations carry it too (the BibTeX stage makes
    # the entry again: the one enrich made has the old title).
    if note is None or not note.title:
        return paper
    return replace(paper, title=note.title, title_missing=False, bibtex="")


def _acknowledge(library: Library, by_paper: dict[str, Note], hidden: set[str], problems: Problems) -> None:
    """Take back the warnings a note answers: every warning about a record whose note says
    `accept_warnings: true` or hides its paper, and a missing title once a note gives one. A
    warning is about the record that starts at or before its line in its file (a reader warns at
    a line of the record); a warning about a whole file (line 0) is no record's."""
    accepted = hidden | {pid for pid, n in by_paper.items() if n.accept_warnings}
    titled = {p.id for p in library.papers if p.title_missing and (n := by_paper.get(p.id)) and n.title}
    if not accepted and not titled:
        return
    starts: dict[str, list[tuple[int, str]]] = {}
    for p in library.papers:
        for ref in p.sources or (p.origin,):
            starts.setdefault(ref.path, []).append((ref.line, p.id))
    for records in starts.values():
        records.sort()

    def answered(problem: Problem) -> bool:
        records = starts.get(problem.path)
        if problem.severity != "warning" or not records or problem.line <= 0:
            return False
        at = bisect.bisect_right(records, (problem.line, "\uffff")) - 1
        pid = records[at][1] if at >= 0 else ""
        return pid in accepted or (pid in titled and "placeholder" in problem.message)

    problems.items = [p for p in problems.items if not answered(p)]


def reindex(library: Library, notes: list[Note], problems: Problems) -> Library:
    """The same papers with a new set of notes whose overrides did not change (the watcher's fast path)."""
    old = library.notes or NoteIndex()
    by_paper, orphans = _pair(notes, old.stems, problems)
    out = replace(library, notes=None)  # the same papers, digests, topics and own tags
    out.notes = index_notes(out, by_paper, orphans, old.stems, old.hidden, problems)
    return out


def _pair(notes: list[Note], stems: dict[str, str], problems: Problems) -> tuple[dict[str, Note], list[Note]]:
    by_paper: dict[str, Note] = {}
    orphans: list[Note] = []
    for note in notes:
        pid = stems.get(note.stem)
        if pid is None:
            problems.warn(note.path, 1, f"orphan note: no paper has the citation key or slug {note.stem!r}; "
                          "the note is kept as it is and not shown")
            orphans.append(note)
        elif pid in by_paper:
            problems.warn(note.path, 1, f"a second note for the same paper as {by_paper[pid].path}; "
                          "only the first is shown")
            orphans.append(note)
        else:
            by_paper[pid] = note
    return by_paper, orphans


def index_notes(library: Library, by_paper: dict[str, Note], orphans: list[Note], stems: dict[str, str],
                hidden: set[str], problems: Problems) -> NoteIndex:
    """Each note matched to its paper, its wiki-links resolved to papers (the render stage draws
    them: render/notebody.py), and which papers' notes link to each paper."""
    papers = library.by_id()
    keys: dict[str, str] = {}
    titles: dict[str, str | None] = {}
    index = NoteIndex(stems=stems, hidden=hidden)
    mentions: dict[str, list[str]] = {}
    pairs: list[tuple[str | None, Note]] = [*by_paper.items(), *((None, n) for n in orphans)]
    for owner, note in pairs:
        raw = wikilinks(note.body)
        found: list[Link] = []
        if raw and not keys:
            # Folding every title takes a while at 10,000 papers: only once a note links.
            _link_targets(library, keys, titles)
        for target, label, offset in raw:
            pid = keys.get(target) or titles.get(_fold(target))
            line = note.body_line + offset
            if pid is None:
                why = ("it names a hidden paper" if stems.get(target) in hidden
                       else "no paper has this citation key or exact title")
                problems.warn(note.path, line, f"unresolved wiki-link [[{target}]]: {why}; shown as plain text")
            found.append(Link(target, label, line, pid))
            if pid and owner and pid != owner and owner not in mentions.setdefault(pid, []):
                mentions[pid].append(owner)
        index.links[note.path] = tuple(found)
    index.by_paper = {pid: n for pid, n in by_paper.items() if pid in papers}
    index.orphans = orphans
    index.mentions = {pid: tuple(ids) for pid, ids in mentions.items()}
    return index


def _link_targets(library: Library, keys: dict[str, str], titles: dict[str, str | None]) -> None:
    """What a wiki-link may name: a citation key, or an exact title (folded)."""
    for p in library.papers:
        keys[p.key] = p.id
        t = _fold(p.title)
        titles[t] = None if t in titles else p.id  # a title two papers share links to neither

