"""Render takes one context per build and keeps nothing between builds: the same context gives
the same files, and a context made from a changed library gives the changed pages, in the same
process (as the watcher and `serve` rebuild), with nothing stale from the last render."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from generator.build import BuildResult
from generator.config import Config
from generator.model import Paper
from generator.render import render_note_pages, render_site
from tests.conftest import page_h1, render_context

NEW_TITLE = "Render Contexts Leave No Stale Titles Behind"



def _all_pages(files: dict[str, str]) -> str:
    return "".join(text for path, text in files.items() if path == "all.md" or path.startswith("all/"))


def _links_to(files: dict[str, str], paper: Paper) -> list[str]:
    """The link texts of the All papers pages' links to `paper`'s page."""
    texts = re.findall(rf'<a href="[./]*papers/{re.escape(paper.slug)}/">([^<]*)</a>', _all_pages(files))
    texts += re.findall(rf"\| \[([^\]]*)\]\(papers/{re.escape(paper.slug)}/index\.md\)", _all_pages(files))
    return texts


def test_one_context_rendered_twice_gives_the_same_files(seed_build: BuildResult,
                                                         project: Callable[..., Config]) -> None:
    config = project()
    ctx = render_context(seed_build.library, config)
    first = render_site(ctx)
    assert render_site(ctx) == first
    # and the build's own files: the context is all render needs
    assert {path: text for path, text in first.items() if path in seed_build.files} == {
        path: seed_build.files[path] for path in first}


def test_a_context_of_a_changed_library_gives_the_changed_pages(seed_build: BuildResult,
                                                                project: Callable[..., Config]) -> None:
    config = project()
    library = seed_build.library
    before = render_site(render_context(library, config))
    paper = next(p for p in library.papers if p.key == "maron2025oneshot")
    old_title = page_h1(before[f"papers/{paper.slug}/index.md"])
    assert _links_to(before, paper) == [old_title]

    changed = replace(paper, title=NEW_TITLE)
    new_library = replace(library, papers=[changed if p is paper else p for p in library.papers])
    after = render_site(render_context(new_library, config))
    page = after[f"papers/{paper.slug}/index.md"]
    assert page_h1(page) == NEW_TITLE
    assert f"title: \"{NEW_TITLE}\"" in page
    assert NEW_TITLE in page.split('<div class="tabbed-block">')[2]  # the APA reference, formatted again
    assert _links_to(after, paper) == [NEW_TITLE]
    assert old_title not in _all_pages(after)
    # The other pages that changed are those that link to the paper (related papers, notes'
    # mentions): they show the new title, none the old one.
    others = [k for k in after if k.startswith("papers/") and k != f"papers/{paper.slug}/index.md"]
    changed_pages = [k for k in others if after[k] != before[k]]
    assert changed_pages and len(changed_pages) < len(others) / 2
    for k in changed_pages:
        assert NEW_TITLE in after[k] and f">{old_title}</a>" in before[k] and f">{old_title}</a>" not in after[k], k
    # and the old library's context still gives the old pages: nothing of the new one was kept
    assert render_site(render_context(library, config)) == before


def test_note_pages_take_the_context_of_their_library(seed_build: BuildResult, project: Callable[..., Config]) -> None:
    config = project()
    paper = next(p for p in seed_build.library.papers if p.key == "maron2025oneshot")
    changed = replace(paper, title=NEW_TITLE)
    library = replace(seed_build.library, papers=[changed if p is paper else p for p in seed_build.library.papers])
    files = render_note_pages(render_context(library, config), {paper.id})
    assert sorted(files) == ["index.md", f"papers/{paper.slug}/index.md", "status/queue.md", "status/read.md",
                             "status/reading.md"]
    assert page_h1(files[f"papers/{paper.slug}/index.md"]) == NEW_TITLE

