"""The page header's note button: "Edit this note" on the note's real file, "Write a note" (the
host's new-file page, named and started for the paper) when it has none; only with an edit URL."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import replace

from generator.build import build
from generator.config import Config
from generator.render.html import Ids
from generator.render.notes import note_section
from tests.conftest import render_context

HERTRICH = "papers/generative-feature-training-of-thin-2-layer-networks/index.md"
EDIT = "https://github.com/u/r/edit/main/"


def _header(text: str) -> str:
    return text[text.index('<div class="rl-header">'):text.index("</div>", text.index('<div class="rl-header">'))]


def test_header_points_at_the_note_file_even_when_the_note_renames_the_key(
        project: Callable[..., Config]) -> None:
    config = project()
    # Named by the old key, and giving the paper a new one: the file keeps its name.
    (config.notes_dir / "hertrich2025generative.md").write_text(
        "---\ncitekey: hertrich2024thin\nstatus: read\n---\nA note.\n", encoding="utf-8")
    files = build(replace(config, extra={**config.extra, "edit_url": EDIT}), write=False).files
    header = _header(files[HERTRICH])
    assert (f'<a class="md-button rl-edit-note" href="{EDIT}content/notes/hertrich2025generative.md"'
            ' title="content/notes/hertrich2025generative.md">Edit this note</a>') in header
    assert "Write a note" not in header
    kl = next(v for k, v in files.items() if k.startswith("papers/kl-for-a-kl") and k.endswith(".md"))
    new = re.search(r'<a class="md-button rl-edit-note rl-new-note" href="([^"]+)" '
                    r'title="content/notes/oh2026kl.md">Write a note</a>', _header(kl))
    assert new is not None
    assert html.unescape(new.group(1)) == ("https://github.com/u/r/new/main/content/notes"
                                           "?filename=oh2026kl.md&value=---%0Astatus%3A%20to-read%0A---%0A")
    # Without an edit URL: no button (the note section still says where the file is).
    plain = build(config, write=False).files
    assert "rl-edit-note" not in _header(plain[HERTRICH])


def test_note_section_links_to_edit_url_when_set(project: Callable[..., Config]) -> None:
    config = project()
    library = build(config, write=False).library
    paper = next(p for p in library.papers if p.key == "maron2025oneshot")
    plain = note_section(paper, render_context(library, config), Ids())
    assert "set <code>extra.readinglist.edit_url</code> in mkdocs.yml for a link" in plain
    linked = note_section(paper, render_context(library, replace(config, extra={"edit_url": "https://github.com/u/r/edit/main/"})),
                          Ids())
    assert ('<p class="rl-note-edit"><a href="https://github.com/u/r/edit/main/content/notes/maron2025oneshot.md"'
            ' title="content/notes/maron2025oneshot.md">Edit this note</a></p>') in linked
