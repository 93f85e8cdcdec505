"""Pages by reading status: the reading queue, what is being read, what has been read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from ..enrich.display import title_text
from ..enrich.text import plain_title
from ..model import Library, Paper
from ..notes.model import Note
from . import escape
from .links import paper_md, rel
from .notes import rating_badge

# (status, page, title, introduction)
PAGES = (
    ("to-read", "status/queue.md", "Reading queue",
     "Papers marked `status: to-read`, highest rating first, then the longest waiting."),
    ("reading", "status/reading.md", "Reading now", "Papers marked `status: reading`."),
    ("read", "status/read.md", "Read", "Papers marked `status: read`, highest rating first."),
)


def queue_order(note: Note, paper: Paper) -> tuple[int, dt.date, str]:
    """The order of every status page: highest rating first, then the oldest `added`, then the title."""
    return (-(note.rating or 0), note.added or dt.date.max, plain_title(paper.title).casefold())


def by_status(library: Library, status: str, by_id: Mapping[str, Paper]) -> list[tuple[Paper, Note]]:
    """The papers whose note has `status`, in `queue_order` (`by_id`: the library's papers by id)."""
    index = library.notes
    if index is None:
        return []
    marked = [(pid, n) for pid, n in index.by_paper.items() if n.status == status]
    pairs = [(by_id[pid], n) for pid, n in marked if pid in by_id]
    return sorted(pairs, key=lambda pn: queue_order(pn[1], pn[0]))


def status_counts(library: Library, by_id: Mapping[str, Paper]) -> dict[str, int]:
    return {status: len(by_status(library, status, by_id)) for status, *_ in PAGES}


def render_status_pages(library: Library, by_id: Mapping[str, Paper]) -> dict[str, str]:
    out = {}
    for status, page, title, intro in PAGES:
        pairs = by_status(library, status, by_id)
        lines = ["---", f"title: {title}", "---", "", f"# {title}", "", intro, ""]
        if pairs:
            lines += ["| Title | First author | Rating | Added |", "| --- | --- | --- | --- |"]
            for paper, note in pairs:
                link = f"[{escape.text(title_text(paper.title))}]({rel(page, paper_md(paper))})"
                rating = rating_badge(note.rating) if note.rating else ""
                added = note.added.isoformat() if note.added else ""
                lines.append(f"| {link} | {escape.text(paper.first_author)} | {rating} | {added} |")
        else:
            lines.append(f"No papers yet: add `status: {status}` to a note in `content/notes/`.")
        out[page] = "\n".join(lines) + "\n"
    return out
