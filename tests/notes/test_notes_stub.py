"""`readinglist note`: a stub with the front matter filled in, and never an overwrite."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.cli import main
from generator.config import Config
from generator.errors import GeneratorError, Problems
from generator.notes.load import parse_note
from generator.scaffold.note import create_stub

STUB = """---
# Note on "Generative Feature Training of Thin 2-Layer Networks". Every field is optional.
status: to-read  # to-read, reading, read or skipped
rating:  # 1 to 5
added: 2026-11-30
tags: []  # tags to add to this paper
remove_tags: []  # tags to take away
hidden: false  # true leaves the paper out of the site
# Overrides, uncomment to use:
# title: "Generative Feature Training of Thin 2-Layer Networks"
# year: 2025
# citekey: hertrich2025generative
---

"""


def test_stub_is_created_filled_in_and_valid(project: Callable[..., Config]) -> None:
    config = project()
    path = create_stub(config, "Generative Feature Training", today=dt.date(2026, 11, 30))
    assert path == config.notes_dir / "hertrich2025generative.md"
    assert path.read_text(encoding="utf-8") == STUB
    problems = Problems()
    note = parse_note(STUB, "x.md", "x", problems)
    assert not problems.items and (note.status, note.added, note.rating) == ("to-read", dt.date(2026, 11, 30), None)


def test_stub_command_prints_the_path_and_refuses_to_overwrite(
        project: Callable[..., Config], capsys: pytest.CaptureFixture[str]) -> None:
    config = project()
    mkdocs = str(config.root / "mkdocs.yml")
    assert main(["-f", mkdocs, "note", "hertrich2025generative"]) == 0
    printed = capsys.readouterr().out.strip()
    path = config.notes_dir / "hertrich2025generative.md"
    assert Path(printed).resolve() == path.resolve() or printed.endswith("content/notes/hertrich2025generative.md")
    path.write_text("---\nstatus: read\n---\nMy words.\n", encoding="utf-8")
    # An existing note: its path again (exit 0), so that `$EDITOR $(readinglist note KEY)` reopens it.
    assert main(["-f", mkdocs, "note", "Generative Feature Training"]) == 0
    out, err = capsys.readouterr()
    assert Path(out.strip()).resolve() == path.resolve()
    assert err == ("readinglist: content/notes/hertrich2025generative.md already holds the note on "
                   "hertrich2025generative; not overwritten\n")
    assert path.read_text(encoding="utf-8") == "---\nstatus: read\n---\nMy words.\n"


def test_a_note_under_the_slug_also_blocks_a_stub(project: Callable[..., Config]) -> None:
    config = project()
    by_slug = config.notes_dir / "generative-feature-training-of-thin-2-layer-networks.md"
    by_slug.write_text("Kept.\n", encoding="utf-8")
    with pytest.raises(GeneratorError, match="already holds the note"):
        create_stub(config, "hertrich2025generative")
    assert not (config.notes_dir / "hertrich2025generative.md").exists()
    assert by_slug.read_text(encoding="utf-8") == "Kept.\n"


def test_ambiguous_or_unknown_papers_are_errors(project: Callable[..., Config]) -> None:
    config = project()
    with pytest.raises(GeneratorError) as ambiguous:
        create_stub(config, "Decentralized")
    # Whole titles, one a line (cut at 60 characters, the first two read alike).
    assert str(ambiguous.value) == (
        "3 papers match 'Decentralized'; give the citation key:\n"
        "  liu2025compressed  Compressed Decentralized Momentum Stochastic Gradient Methods for Nonconvex "
        "Optimization\n"
        "  rillo2026adko  ADKO: Agentic Decentralized Knowledge Optimization\n"
        "  nodehi2026vista  VISTA: Decentralized Machine Learning in Adversary Dominated Environments")
    with pytest.raises(GeneratorError, match="no paper has the citation key, slug, arXiv id, DOI or title 'zzz'"):
        create_stub(config, "zzz")
