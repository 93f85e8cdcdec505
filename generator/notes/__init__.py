"""Curator notes: one Markdown file per paper under content/notes/, with YAML front matter."""

from __future__ import annotations

from .apply import attach, enrich_with_notes, reindex
from .load import NoteCache, load_notes, parse_note
from .model import STATUS_LABELS, STATUSES, Link, Note, NoteIndex, queue_order

__all__ = ["STATUSES", "STATUS_LABELS", "Link", "Note", "NoteCache", "NoteIndex", "attach",
           "enrich_with_notes", "load_notes", "parse_note", "queue_order", "reindex"]
