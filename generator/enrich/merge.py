"""One paper seen in several digests, in any of the formats, becomes one record listing every source.

Two records are the same work when they share an arXiv id, a DOI or an OpenReview id, or else
their normalised title and their first author's family name (a title alone when either record
has no authors: TMLR submissions are anonymous). The richer record wins field by field.

An arXiv replacement (a new version announced) only updates a paper the list already has, with
what a new version brings: its journal reference, DOI and comments. A replacement of a paper
the list does not have adds nothing, unless the curator asked to keep those
(`extra.readinglist.keep_replacements`); the build's summary counts them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from ..model import Paper
from ..sources.ids import match_keys, normalise_title
from ..sources.records import RawDigest, published_status

# An accepted record (TMLR, a .bib @article) names its venue; an arXiv record that reads as
# published (a journal reference) still has venue arXiv: the accepted one wins.
_STATUS_RANK = {"preprint": 0, "under review": 1, "published": 2, "accepted": 3}


def _richness(p: Paper) -> tuple[int, int, int, int, int, int]:
    return (_STATUS_RANK.get(p.status, 0), int(bool(p.authors)), int(p.authors_complete),
            int(not p.title_missing), int(bool(p.bib_fields)), len(p.abstract))


def _combine(old: Paper, new: Paper) -> Paper:
    """The richer record wins; on a tie the later one (newer digest) does. Identifiers, links and
    the .bib entry come from whichever record has them."""
    new_is_later = old.date is None or new.date is None or new.date >= old.date
    better = new if (_richness(new), new_is_later) >= (_richness(old), True) else old
    other = old if better is new else new
    journal_ref, found_doi = better.journal_ref or other.journal_ref, better.doi or other.doi
    return replace(
        better,
        status=published_status(better.status, journal_ref, found_doi),
        # The first-seen id stays: the page URL and citation key hang on it.
        id=old.id,
        origin=old.origin,
        authors=better.authors or other.authors,
        authors_complete=better.authors_complete if better.authors else other.authors_complete,
        # A .bib entry's own spelling of the names goes with the author list it belongs to.
        bib_names=better.bib_names if better.authors else other.bib_names,
        url=better.url or other.url,
        openreview_id=better.openreview_id or other.openreview_id,
        arxiv_id=better.arxiv_id or other.arxiv_id,
        doi=found_doi,
        journal_ref=journal_ref,
        comments=better.comments or other.comments,
        abstract=better.abstract or other.abstract,
        labels=tuple(dict.fromkeys(better.labels + other.labels)),
        categories=tuple(dict.fromkeys(better.categories + other.categories)),
        bib_key=better.bib_key or other.bib_key,
        bib_type=better.bib_type or other.bib_type,
        bib_fields=better.bib_fields or other.bib_fields,
        sources=tuple(dict.fromkeys(old.sources + new.sources)),
        aliases=tuple(dict.fromkeys((*old.aliases, new.id))),
        replacement=False,
    )


def _update(old: Paper, new_version: Paper) -> Paper:
    """`old` with what a replacement announcement brings; the rest stays as the list had it (a
    preprint now given a journal reference or DOI reads as published)."""
    found_doi, journal_ref = new_version.doi or old.doi, new_version.journal_ref or old.journal_ref
    return replace(
        old,
        status=published_status(old.status, journal_ref, found_doi),
        arxiv_id=old.arxiv_id or new_version.arxiv_id,
        doi=found_doi,
        journal_ref=journal_ref,
        comments=new_version.comments or old.comments,
        sources=tuple(dict.fromkeys(old.sources + new_version.sources)),
        aliases=tuple(dict.fromkeys((*old.aliases, new_version.id))),
    )


def _alone(paper: Paper) -> Paper:
    """A record no other was folded into: its aliases are its own id. The readers make their
    papers so (a copy of every paper here took a pass over all of them); a record made otherwise
    is copied."""
    return paper if paper.aliases == (paper.id,) else replace(paper, aliases=(paper.id,))


def family_name(author: str) -> str:
    """The last word of a name, lower case and without accents (`Hans Müller` -> `muller`)."""
    # `Müller, Hans`: the family name is before the comma.
    words = author.split(",", 1)[0].split() or author.replace(",", " ").split()
    text = unicodedata.normalize("NFKD", words[-1] if words else "")
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


@dataclass
class Merged:
    """The merge's result: papers in first-seen order, each folded record's id -> the kept id, and
    how many replacements named a paper the list does not have (not kept)."""

    papers: list[Paper]
    alias: dict[str, str]
    skipped_replacements: int = 0


def merge(digests: list[RawDigest], keep_replacements: bool = False) -> Merged:
    """Papers in first-seen order, duplicates folded (see the module's text). Replacements are
    matched after every other record, whatever the order of the files."""
    by_id: dict[str, Paper] = {}
    alias: dict[str, str] = {}
    index: dict[tuple[str, str], str] = {}
    by_title: dict[str, list[str]] = {}
    replacements: list[Paper] = []

    def find(paper: Paper) -> str | None:
        pid = alias.get(paper.id)
        if pid is not None:
            return pid
        for key in match_keys(paper):
            if key in index:
                return index[key]
        norm = normalise_title(paper.title)
        # An all-symbol title normalises to "": it says nothing about which paper this is.
        if not norm or paper.title_missing:
            return None
        for pid in by_title.get(norm, ()):
            known = by_id[pid]
            if not paper.authors or not known.authors or (
                    family_name(paper.authors[0]) == family_name(known.authors[0])):
                return pid
        return None

    def remember(paper: Paper, pid: str) -> None:
        alias[paper.id] = pid
        for key in match_keys(paper) + match_keys(by_id[pid]):
            index.setdefault(key, pid)
        norm = normalise_title(paper.title)
        if norm and not paper.title_missing and pid not in by_title.setdefault(norm, []):
            by_title[norm].append(pid)

    for digest in digests:
        for paper in digest.papers:
            if paper.replacement:
                replacements.append(paper)
                continue
            pid = find(paper)
            if pid is not None:
                by_id[pid] = _combine(by_id[pid], paper)
            else:
                pid = paper.id
                by_id[pid] = _alone(paper)
            remember(paper, pid)
    skipped = 0
    for paper in replacements:
        pid = find(paper)
        if pid is not None:
            by_id[pid] = _update(by_id[pid], paper)
        elif keep_replacements:
            pid = paper.id
            by_id[pid] = replace(paper, aliases=(paper.id,), replacement=False)
        else:
            skipped += 1
            continue
        remember(paper, pid)
    return Merged(list(by_id.values()), alias, skipped)
