"""Notes on seed papers: every front-matter field, wiki-links, warnings, status pages, the built HTML."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from generator.build import BuildResult, build
from generator.config import load_config
from generator.render import render_site
from tests.conftest import code_text, copy_project, page_h1, render_context

HERTRICH = "papers/generative-feature-training-of-thin-2-layer-networks/index.md"
MARON = "papers/one-shot-federated-distillation-using-monoclass-teachers-a/index.md"
CASPER_TITLE = "Defending Against Unforeseen Failure Modes with Latent Adversarial Training"

EVERY_FIELD = f"""\
---
status: read
rating: 5
added: 2025-08-12
tags: [Bayesian optimization, thin networks]
remove_tags: [generative models]
title: "Generative Feature Training of Thin Two-Layer Networks"
year: 2024
citekey: hertrich2024thin
hidden: false
---
# Summary

Builds on [[maron2025oneshot]] and
[[{CASPER_TITLE}|the LAT paper]], not on [[nobody2099missing]].

Code is left alone: `[[in code]]`.

````
```
[[in a block]]
```
````

<script>alert("x")</script>
"""

NOTES = {
    "hertrich2025generative.md": EVERY_FIELD,
    "cheng2025l2g.md": "---\nhidden: true\n---\nNot for the site.\n",
    "liu2025compressed.md": "---\nstatus: to-read\nrating: 5\nadded: 2025-01-01\n---\n",
    "cui2025physicsaware.md": "---\nstatus: to-read\nrating: 2\n---\nSee [[cheng2025l2g]].\n",
    "kujanpaa2025efficient.md": "---\nstatus: done\nrating: 9\ncolour: blue\nadded: soon\n---\nStill shown.\n",
    "luijkx2025askdagger.md": "---\nstatus: reading\ntags: [oops\n---\nBody survives.\n",
    "nosuchpaper.md": "---\nstatus: read\n---\nAn orphan.\n",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("notes")
    copy_project(dest)
    for name, text in NOTES.items():
        (dest / "content" / "notes" / name).write_text(text, encoding="utf-8")
    return dest


@pytest.fixture(scope="module")
def site(root: Path) -> BuildResult:
    return build(load_config(root / "mkdocs.yml"))


def messages(result: BuildResult) -> list[str]:
    return [str(p) for p in result.problems]


def test_every_front_matter_field_renders(site: BuildResult) -> None:
    page = site.files[HERTRICH]
    assert page.startswith('---\ntitle: "Generative Feature Training of Thin Two-Layer Networks"\n')
    # `tags` added a topic and a tag of the curator's own ("thin networks", first: the note's
    # additions lead); `remove_tags` took "Generative models" away. An own tag near no tag: no warning.
    assert ('\ntags:\n  - "Bayesian optimization"\n  - "thin networks"\n'
            '  - "Training dynamics and loss landscapes"\n---\n') in page
    assert not [m for m in messages(site) if "thin networks" in m]
    assert page_h1(page) == "Generative Feature Training of Thin Two-Layer Networks"
    assert ('<p class="rl-note-meta"><span class="rl-badge rl-status rl-status--read">Read</span> '
            '<span class="rl-badge rl-rating" title="Rated 5 out of 5">★★★★★ 5/5</span> '
            '<span class="rl-note-added">added 2025-08-12</span></p>') in page
    assert code_text(page).startswith("@article{hertrich2024thin,\n") and "year = {2024}" in code_text(page)
    assert page.index('<h2 id="abstract">') < page.index('<h2 id="my-notes">') < page.index('<h2 id="cite">')
    assert ('<p class="rl-note-edit">Edit this note: <code>content/notes/hertrich2025generative.md</code>'
            in page)
    record = next(r for r in json.loads(site.files["papers.json"]) if r["key"] == "hertrich2024thin")
    assert (record["title"], record["year"], record["tags"]) == (
        "Generative Feature Training of Thin Two-Layer Networks", 2024,
        ["Bayesian optimization", "thin networks", "Training dynamics and loss landscapes"])


def test_body_is_rendered_and_contained(site: BuildResult) -> None:
    page = site.files[HERTRICH]
    body = page[page.index('<div class="rl-note-body">'):page.index("</div>\n<p class=\"rl-note-edit\">")]
    assert "<h3>Summary</h3>" in body  # the note's h1 sits below the h2 "My notes"
    assert "<p>Code is left alone: <code>[[in code]]</code>.</p>" in body
    assert "<pre><code>&#96;&#96;&#96;\n[[in a block]]\n&#96;&#96;&#96;\n</code></pre>" in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in body and "<script>" not in page


def test_wiki_links_resolve_and_unresolved_warn(site: BuildResult) -> None:
    page = site.files[HERTRICH]
    assert ('<a class="rl-wikilink" href="../one-shot-federated-distillation-using-monoclass-teachers-a/">'
            "One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge Fragmentation "
            "and Out-of-Distribution Supervision</a>") in page
    assert ('<a class="rl-wikilink" href="../defending-against-unforeseen-failure-modes-with-latent/">'
            "the LAT paper</a>") in page
    assert '<span class="rl-wikilink rl-wikilink--missing">nobody2099missing</span>' in page
    found = messages(site)
    assert ("content/notes/hertrich2025generative.md:15: warning: unresolved wiki-link [[nobody2099missing]]: "
            "no paper has this citation key or exact title; shown as plain text") in found
    assert ("content/notes/cui2025physicsaware.md:5: warning: unresolved wiki-link [[cheng2025l2g]]: "
            "it names a hidden paper; shown as plain text") in found
    assert not any("in code" in m or "in a block" in m for m in found)


def test_mentioned_in_lists_linking_notes(site: BuildResult) -> None:
    page = site.files[MARON]
    section = page[page.index('<h2 id="mentioned-in">'):page.index('<h2 id="sources">')]
    assert ('<li><a href="../generative-feature-training-of-thin-2-layer-networks/">'
            "Generative Feature Training of Thin Two-Layer Networks</a></li>") in section
    # The shipped note on casper2025defending links here too.
    assert (f'<li><a href="../defending-against-unforeseen-failure-modes-with-latent/">{CASPER_TITLE}</a></li>'
            in section)


def test_hidden_paper_is_left_out(site: BuildResult) -> None:
    assert "papers/l2g-repurposing-language-models-for-genomics-tasks/index.md" not in site.files
    assert "cheng2025l2g" not in site.files["references.bib"]
    assert all(r["key"] != "cheng2025l2g" for r in json.loads(site.files["papers.json"]))
    assert "L2G: Repurposing" not in site.files["digests/000-1b8355006bbdabc6/index.md"]


def test_status_pages_and_home_counts(site: BuildResult) -> None:
    queue = site.files["status/queue.md"]
    rows = [line for line in queue.splitlines() if line.startswith("| [")]
    assert [r.split("](")[0] for r in rows] == [
        "| [Compressed Decentralized Momentum Stochastic Gradient Methods for Nonconvex Optimization",
        f"| [{CASPER_TITLE}",
        "| [Physics-Aware Spatiotemporal Causal Graph Network for Forecasting with Limited Data",
    ]
    assert rows[0].endswith("| 2025-01-01 |")
    assert "[Generative Feature Training of Thin Two-Layer Networks](../" in site.files["status/read.md"]
    reading = site.files["status/reading.md"]
    assert "One-Shot Federated Distillation" in reading and "ASkDAgger" not in reading  # broken header
    assert ("Your reading: [**3** to read](status/queue.md) · [**1** reading](status/reading.md) · "
            "[**1** read](status/read.md)") in site.files["index.md"]


def test_problems_name_file_and_line(site: BuildResult) -> None:
    found = messages(site)
    bad = "content/notes/kujanpaa2025efficient.md"
    assert (f"{bad}:2: warning: unknown status 'done' (expected one of to-read, reading, read, skipped); "
            "ignored") in found
    assert f"{bad}:3: warning: rating 9 is out of range (1 to 5); ignored" in found
    assert (f"{bad}:4: warning: unknown front-matter field 'colour' (known: status, rating, added, tags, "
            "remove_tags, title, year, citekey, hidden, accept_warnings); ignored") in found
    assert f"{bad}:5: warning: added should be a date like 2025-08-08, not 'soon'; ignored" in found
    assert ("content/notes/luijkx2025askdagger.md:4: warning: front matter is not valid YAML (did not find "
            "expected ',' or ']' while parsing a flow sequence started on line 3); its fields are ignored"
            ) in found
    assert ("content/notes/nosuchpaper.md:1: warning: orphan note: no paper has the citation key or slug "
            "'nosuchpaper'; the note is kept as it is and not shown") in found
    assert "orphan notes: content/notes/nosuchpaper.md" in site.summary()
    shown = site.files["papers/efficient-knowledge-injection-in-llms-via-self-distillation/index.md"]
    assert "<p>Still shown.</p>" in shown
    assert "<p>Body survives.</p>" in site.files["papers/askdagger-active-skill-level-data-aggregation-for/index.md"]


def test_edit_link_points_at_the_repository(site: BuildResult, root: Path) -> None:
    config = replace(load_config(root / "mkdocs.yml"),
                     repo_url="https://github.com/someone/papers", edit_uri="edit/main/build/")
    page = render_site(render_context(site.library, config))[HERTRICH]
    assert ('<p class="rl-note-edit"><a href="https://github.com/someone/papers/edit/main/content/notes/'
            'hertrich2025generative.md" title="content/notes/hertrich2025generative.md">Edit this note</a></p>'
            ) in page


@pytest.mark.slow
def test_mkdocs_keeps_the_page_structure(site: BuildResult, root: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_HOOK="off")
    (root / "overrides").mkdir(exist_ok=True)
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(root / "mkdocs.yml")],
                         cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    html = (root / "site/papers/generative-feature-training-of-thin-2-layer-networks/index.html").read_text()
    note = html[html.index('<div class="rl-note-body">'):]
    assert note.index("<h3>Summary</h3>") < note.index("</div>") < note.index('id="cite"')
    assert "<pre><code>&#96;&#96;&#96;\n[[in a block]]\n&#96;&#96;&#96;\n</code></pre>" in note


def test_a_tag_of_the_curators_own_has_its_page_and_stands_apart_on_the_tags_page(site: BuildResult) -> None:
    assert site.library.own_tags == ("thin networks",)
    index = site.files["tags.md"]
    own = index[index.index("## Your tags"):]
    assert own.startswith("## Your tags\n\nTags given in your notes (`tags:`) that are not topics of "
                          "`content/topics.yml`.\n\n| Tag | Papers |\n| --- | --- |\n"
                          "| [thin networks](tags/thin-networks/index.md) | 1 |\n")
    assert "thin networks" not in index[:index.index("## Your tags")]
    page = site.files["tags/thin-networks/index.md"]
    assert "A tag of your own: given in notes, not a topic of content/topics.yml." in page
    assert "Generative Feature Training of Thin Two-Layer Networks" in page
    assert "@article{hertrich2024thin," in site.files["tags/thin-networks.bib"]
