"""The note section of a paper page (badges, body, edit link) and its "Mentioned in" list."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import Library, Paper
from ..notes.model import STATUS_LABELS, Note
from . import escape
from .context import RenderContext, Settings
from .html import Ids, heading
from .links import paper_anchor, paper_md
from .notebody import note_html


def status_badge(status: str) -> str:
    return f'<span class="rl-badge rl-status rl-status--{status}">{STATUS_LABELS[status]}</span>'


def rating_badge(rating: int) -> str:
    stars = "★" * rating + "☆" * (5 - rating)
    return f'<span class="rl-badge rl-rating" title="Rated {rating} out of 5">{stars} {rating}/5</span>'


def edit_link(note: Note, settings: Settings) -> str:
    """`Edit this note` on the repository host when `extra.readinglist.edit_url` (the one the page
    header's button uses) or `repo_url` is set, else where the file is."""
    path = escape.attr(note.path)
    if settings.edit_url:
        href = escape.url(settings.edit_url.rstrip("/") + "/" + note.path)
        if href:
            return f'<p class="rl-note-edit"><a href="{href}" title="{path}">Edit this note</a></p>'
    if settings.repo_url:
        base = settings.edit_uri
        if not base.startswith(("http://", "https://")):
            # MkDocs' edit_uri is relative to docs_dir (our generated build/); notes live in content/.
            base = base.strip("/")
            docs = settings.docs_folder
            if base.endswith("/" + docs) or base == docs:
                base = base[: -len(docs)].rstrip("/")
            base = settings.repo_url.rstrip("/") + "/" + (base or "edit/main")
        href = escape.url(base.rstrip("/") + "/" + note.path)
        if href:
            return f'<p class="rl-note-edit"><a href="{href}" title="{path}">Edit this note</a></p>'
    return (f'<p class="rl-note-edit">Edit this note: <code>{path}</code> (set <code>extra.readinglist.edit_url</code> '
            "in mkdocs.yml for a link)</p>")


def note_section(paper: Paper, ctx: RenderContext, ids: Ids) -> str:
    """The curator's note on `paper`: badges, the body as HTML, the edit link (`ids`: the page's
    heading ids so far)."""
    index = ctx.library.notes
    note = index.by_paper.get(paper.id) if index else None
    if index is None or note is None:
        return ""
    badges = []
    if note.status:
        badges.append(status_badge(note.status))
    if note.rating:
        badges.append(rating_badge(note.rating))
    if note.added:
        badges.append(f'<span class="rl-note-added">added {note.added.isoformat()}</span>')
    parts = [heading(2, "My notes", ids)]
    if badges:
        parts.append('<p class="rl-note-meta">' + " ".join(badges) + "</p>")
    links = index.links.get(note.path, ())
    body = note_html(note.body, links, paper, ctx.papers_by_id, ctx.settings.use_directory_urls)
    if body:
        parts += ['<div class="rl-note-body">', body, "</div>"]
    parts.append(edit_link(note, ctx.settings))
    return "\n".join(parts) + "\n"


def mentions_section(paper: Paper, library: Library, by_id: Mapping[str, Paper], ids: Ids) -> str:
    """The papers whose notes link to `paper` (`by_id`: the library's papers by id; `ids`: the
    page's heading ids so far)."""
    index = library.notes
    mentioned = index.mentions.get(paper.id, ()) if index else ()
    me = paper_md(paper)
    items = [f"<li>{paper_anchor(by_id[i], me)}</li>" for i in mentioned if i in by_id]
    if not items:
        return ""
    return "\n".join([heading(2, "Mentioned in", ids), "<p>Notes on these papers link here:</p>",
                      "<ul>", *items, "</ul>"]) + "\n"
