"""What search shows of a page: a note's words without their Markdown (render/plaintext.py), and a
title in front matter that both MkDocs' Material and Zensical's search show as typed
(render/escape.yaml_title)."""

from __future__ import annotations

import html
import json

import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.render import escape
from generator.render.plaintext import markdown_text
from tests.conftest import ROOT

MARON = "One-Shot Federated Distillation Using Monoclass Teachers"


def test_a_note_reads_as_its_page_shows_it() -> None:
    body = (ROOT / "content/notes/maron2025oneshot.md").read_text("utf-8").split("---\n", 2)[2]
    titles = {"liu2025compressed": "Compressed Decentralized Momentum Stochastic Gradient Methods"}
    text = markdown_text(body, titles)
    assert text.startswith("Each provider trains a one-class teacher and ships it once; the client distils a "
                           "multiclass student from unlabeled data. The hard part is out-of-distribution "
                           "supervision: a monoclass teacher has never seen")
    assert ("Fragmentation (fewer classes per provider) steadily hurts the student. Mitigations to try: "
            "off-class examples for the teachers") in text
    # A wiki-link reads as the page shows it: its paper's title, or the target as typed when unresolved.
    assert text.endswith("Compare with the decentralized setting of Compressed Decentralized Momentum Stochastic "
                         "Gradient Methods, where clients do talk to each other, and with VISTA: Decentralized "
                         "Machine Learning in Adversary Dominated Environments.")
    assert [c for c in ("*", "[[", "]]", "- ") if c in text] == []


def test_labels_links_images_and_code_are_their_text() -> None:
    body = ("See [[maron2025oneshot|the monoclass teachers paper]] and [the docs](https://x.org/a_b), "
            "![a figure](f.png), `[[not-a-link]]`, ~~old~~ _new_.\n\n```\ncode **kept**\n```\n\n"
            "| a | b |\n| - | - |\n| 1 | 2 |\n\n<b>raw</b> &amp;")
    assert markdown_text(body, {"maron2025oneshot": MARON}) == (
        "See the monoclass teachers paper and the docs, a figure, [[not-a-link]], old new. code **kept** "
        "a b 1 2 <b>raw</b> &")


def test_a_curator_s_page_leaves_raw_html_and_admonition_markers_out() -> None:
    body = ('# About\n\n!!! note "Where the papers come from"\n    The **seeds** folder.\n\n'
            '<div class="grid" markdown>Inside</div>\n\nText with <span>inline</span> HTML.')
    assert markdown_text(body, page=True) == (
        "About Where the papers come from The seeds folder. Text with inline HTML.")


def test_titles_keep_their_quotes_and_ampersands() -> None:
    assert escape.yaml_title('Language model (LM) "reasoning"') == '"Language model (LM) \\"reasoning\\""'
    assert json.loads(escape.yaml_title("Q&A for R&D, it's 1 > 0")) == "Q&A for R&D, it's 1 > 0"
    assert json.loads(escape.yaml_title("k < n <img src=x>")) == "k &lt; n &lt;img src=x>"
    # Text a browser would read as a character reference: every `&` is escaped.
    assert json.loads(escape.yaml_title("Tom &amp; Jerry & &lt;b&gt;")) == "Tom &amp;amp; Jerry &amp; &amp;lt;b&amp;gt;"
    assert json.loads(escape.yaml_title("a &word; b")) == "a &amp;word; b"


@given(st.text(max_size=60))
def test_a_title_is_html_text_that_reads_as_typed(value: str) -> None:
    """Read as HTML text (as a browser reads Material's `<title>` and header) the front-matter
    value is the title, folded to one line; it opens no tag."""
    out = yaml.safe_load(f"title: {escape.yaml_title(value)}")["title"]
    assert "<" not in out.replace("&lt;", "")
    assert html.unescape(out) == escape.fold(value)
