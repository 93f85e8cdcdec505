"""The page header's note button reads `rl_note` (the note's real file) or `rl_note_new` (none yet)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from generator.build import build
from generator.config import Config
from generator.render.notes import note_section

HERTRICH = "papers/generative-feature-training-of-thin-2-layer-networks.md"


def _front(text: str) -> list[str]:
    return text.split("\n---\n", 1)[0].splitlines()


def test_header_points_at_the_note_file_even_when_the_note_renames_the_key(
        project: Callable[..., Config]) -> None:
    config = project()
    # Named by the old key, and giving the paper a new one: the file keeps its name.
    (config.notes_dir / "hertrich2025generative.md").write_text(
        "---\ncitekey: hertrich2024thin\nstatus: read\n---\nA note.\n", encoding="utf-8")
    files = build(config, write=False).files
    front = _front(files[HERTRICH])
    assert 'rl_note: "content/notes/hertrich2025generative.md"' in front
    assert not any(line.startswith("rl_note_new:") for line in front)
    kl = next(v for k, v in files.items() if k.startswith("papers/kl-for-a-kl") and k.endswith(".md"))
    assert 'rl_note_new: "content/notes/oh2026kl.md"' in _front(kl)
    assert not any(line.startswith("rl_note:") for line in _front(kl))


def test_note_section_links_to_edit_url_when_set(project: Callable[..., Config]) -> None:
    config = project()
    library = build(config, write=False).library
    paper = next(p for p in library.papers if p.key == "maron2025oneshot")
    plain = note_section(paper, library, config)
    assert "set <code>repo_url</code> in mkdocs.yml for a link" in plain
    linked = note_section(paper, library, replace(config, extra={"edit_url": "https://github.com/u/r/edit/main/"}))
    assert ('<p class="rl-note-edit"><a href="https://github.com/u/r/edit/main/content/notes/maron2025oneshot.md"'
            ' title="content/notes/maron2025oneshot.md">Edit this note</a></p>') in linked
