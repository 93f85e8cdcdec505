"""The notes stage: the curator's notes, one Markdown file per paper under content/notes/ with YAML
front matter, parsed (never rendered: render/notebody.py and render/notes.py make their HTML).

load.py reads and validates the files, model.py holds what a note says as frozen values,
markdown.py parses note bodies and their `[[wiki-links]]` into tokens, and apply.py matches each
note to its paper, hands its overrides to enrich and indexes the links between papers.
"""

from __future__ import annotations

from .apply import NoteOverrides, apply_notes, note_overrides, reindex
from .load import NoteCache, load_notes, parse_note
from .model import STATUS_LABELS, STATUSES, Link, Note, NoteIndex

__all__ = ["STATUSES", "STATUS_LABELS", "Link", "Note", "NoteCache", "NoteIndex", "NoteOverrides", "apply_notes",
           "load_notes", "note_overrides", "parse_note", "reindex"]
