"""A curator's note in the browser: badges, body, and the edit links that lead to the real file."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_site import EDIT_URL, Served
from browser_ui import goto, link_targets, set_scheme

pytestmark = pytest.mark.browser

ONESHOT = "papers/one-shot-federated-distillation-using-monoclass-teachers-a/"


def _contrast(page: Any, selector: str) -> float:
    """WCAG contrast ratio of an element's text colour on its own (opaque) background."""
    fg, bg = page.locator(selector).first.evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")

    def lum(css: str) -> float:
        chans = [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in chans]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_note_section_with_badges_and_edit_links_to_the_note_file(page: Any, site: Served) -> None:
    path, note = ONESHOT, "content/notes/maron2025oneshot.md"
    goto(page, site, path)
    section = page.locator("h2#my-notes")
    assert section.inner_text().replace("¶", "").strip() == "My notes"
    meta = page.locator(".rl-note-meta")
    assert meta.locator(".rl-status").inner_text() == "Reading"
    assert meta.locator(".rl-rating").inner_text() == "★★★★☆ 4/5"
    assert meta.locator(".rl-note-added").inner_text() == "added 2025-08-10"
    assert page.locator(".rl-note-body").is_visible()
    assert page.locator(".rl-note-body strong").first.inner_text() == "one-class"
    # The wiki-links in the note open the papers they name.
    links = link_targets(page, ".rl-note-body a")
    assert [text for text, _, _ in links] == [
        "Compressed Decentralized Momentum Stochastic Gradient Methods for Nonconvex Optimization",
        "VISTA: Decentralized Machine Learning in Adversary Dominated Environments"]
    assert all(text == heading for text, _, heading in links)
    for scheme in ("light", "dark"):
        set_scheme(page, scheme)
        assert _contrast(page, ".rl-note-meta .rl-status") >= 4.5, scheme
    # Both edit links (the header button and the one under the note) open the note's own file.
    header = page.locator(".rl-header a.rl-edit-note")
    assert header.inner_text() == "Edit this note"
    assert header.get_attribute("href") == EDIT_URL + note
    assert page.locator(".rl-note-edit a").get_attribute("href") == EDIT_URL + note


def test_paper_without_a_note_offers_to_write_one(page: Any, site: Served) -> None:
    goto(page, site, "papers/scaling-categorical-flow-maps/")
    assert page.locator("h2#my-notes").count() == 0
    button = page.locator(".rl-header a.rl-edit-note")
    assert button.inner_text() == "Write a note"
    assert button.get_attribute("href") == ("https://github.com/example/reading-list/new/main/content/notes"
                                            "?filename=davis2026scaling.md&value=---%0Astatus%3A%20to-read%0A---%0A")
    assert button.get_attribute("title") == "content/notes/davis2026scaling.md"
