"""Curator notes: one Markdown file per paper under content/notes/, with YAML front matter."""

from __future__ import annotations

from .apply import NoteOverrides, apply_notes, note_overrides, reindex
from .load import NoteCache, load_notes, parse_note
from .model import STATUS_LABELS, STATUSES, Link, Note, NoteIndex

__all__ = ["STATUSES", "STATUS_LABELS", "Link", "Note", "NoteCache", "NoteIndex", "NoteOverrides", "apply_notes",
           "load_notes", "note_overrides", "parse_note", "reindex"]
