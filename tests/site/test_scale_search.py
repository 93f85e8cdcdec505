"""Search at scale: what the Pagefind index holds, and Material's search box answered from it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.render import search_records as search_records_
from generator.render.exports import paper_records
from generator.render.search_records import RECORDS
from generator.site import search
from tests.conftest import ROOT, copy_project

CASPER = {
    "title": "Defending Against Unforeseen Failure Modes with Latent Adversarial Training",
    "key": "casper2025defending",
    "page": "papers/defending-against-unforeseen-failure-modes-with-latent/",
}


def seed_papers(seed_build) -> list[dict]:  # type: ignore[no-untyped-def]
    """The papers' records search indexes: papers.json's, with the abstracts (exports.paper_records)."""
    return paper_records(seed_build.library)


def build_records(seed_build) -> list[dict]:  # type: ignore[no-untyped-def]
    """The records the build wrote for the index (RECORDS), one JSON object a line."""
    return [json.loads(line) for line in seed_build.files[RECORDS].splitlines()]


def _index(site: Path, *, force: bool = False) -> int | None:
    """The index of `site/RECORDS`, written where the site serves it (as the plugin does)."""
    return search.build_index(site / RECORDS, site / search.INDEX_DIR, force=force)


def test_record_holds_title_authors_key_and_abstract_only(seed_build) -> None:  # type: ignore[no-untyped-def]
    paper = next(p for p in seed_papers(seed_build) if p["key"] == CASPER["key"])
    rec = search_records_.record(paper)
    assert rec.url == CASPER["page"]
    assert rec.title == CASPER["title"]
    lines = rec.content.split("\n")
    assert lines[0] == CASPER["title"]
    assert lines[1] == "Stephen Casper, Lennart Schulze, Oam Patel, Dylan Hadfield-Menell"
    assert lines[2].startswith("Despite extensive diagnostics and debugging by developers, AI systems sometimes")
    assert lines[2].endswith("failure modes that are not explicitly identified by developers.")
    # After the abstract, named, so an excerpt never runs the key into the text.
    assert lines[3] == "Citation key casper2025defending"
    # Last, the word every paper's record holds (the All papers filter searches for it).
    assert lines[4] == search_records_.EVERY
    assert len(lines) == 5
    # Nothing from the page around it: no BibTeX, no links, no digest names.
    for boilerplate in ("@article", "openreview.net", "Daily TMLR digest", "Abstract", "BibTeX"):
        assert boilerplate not in rec.content
    as_dict = rec.as_dict()
    assert {k: as_dict[k] for k in ("url", "content", "language")} == {
        "url": CASPER["page"], "content": rec.content, "language": "en"}
    assert as_dict["meta"] == {"title": CASPER["title"], "first": "Stephen Casper et al.",
                               "venue": "TMLR · accepted · Aug 2025", "year": "2025"}
    assert as_dict["filters"]["tag"] == paper["tags"] and as_dict["sort"]["date"] == "2025-08-08"


def test_truncated_author_lists_say_et_al() -> None:
    rec = search_records_.record({"title": "T", "authors": ["A B", "C D"], "authors_complete": False, "key": "b2025t",
                         "abstract": "Some\n\ntext.", "page": "papers/t/"})
    assert rec.content == f"T\nA B, C D et al.\nSome text.\nCitation key b2025t\n{search_records_.EVERY}"


def test_records_cover_every_seed_paper_once(seed_build) -> None:  # type: ignore[no-untyped-def]
    papers = seed_papers(seed_build)
    recs = search_records_.records(papers)
    assert len(recs) == len(papers) == 41
    assert len({r.url for r in recs}) == 41
    # About one abstract per paper: far under the 2.5 KB per paper budget before compression.
    assert sum(len(r.content.encode()) for r in recs) / len(recs) < 2500


def test_build_index_writes_pagefind_and_skips_an_unchanged_index(tmp_path: Path, seed_build) -> None:  # type: ignore[no-untyped-def]
    if not search.available():
        pytest.fail("the Pagefind binary is missing; pagefind[bin] is a dependency")
    (tmp_path / RECORDS).write_text(seed_build.files[RECORDS], encoding="utf-8")
    # 41 papers, 3 notes, the about page and the descriptions of 51 tags with pages.
    assert _index(tmp_path) == len(build_records(seed_build)) == 96
    out = tmp_path / "pagefind"
    assert (out / "pagefind.js").is_file() and (out / "pagefind-entry.json").is_file()
    assert len(list((out / "fragment").iterdir())) == 96
    assert _index(tmp_path) is None  # same records: nothing rewritten
    assert _index(tmp_path, force=True) == 96
    # Other records (one paper fewer): written again.
    (tmp_path / RECORDS).write_text("".join(seed_build.files[RECORDS].splitlines(keepends=True)[1:]), encoding="utf-8")
    assert _index(tmp_path) == 95


def test_build_index_without_the_records_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(search.SearchIndexError, match=r"\.search-records\.json is missing; was the generator run"):
        _index(tmp_path)


# ---------------------------------------------------------------- in the browser

@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("searchsite")
    config = copy_project(dest)
    if not (dest / "overrides").exists():
        (dest / "overrides").mkdir()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                          capture_output=True, text=True, env=env, cwd=dest)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return dest / "site"


@pytest.mark.slow
def test_built_site_ships_a_small_material_index_and_pagefind(built_site: Path) -> None:
    lunr = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert lunr["docs"] == []  # the papers are in Pagefind, not twice
    assert (built_site / "pagefind" / "pagefind.js").is_file()
    page = built_site / CASPER["page"] / "index.html"
    html = page.read_text(encoding="utf-8")
    # Pagefind answers the search box through its own JavaScript API (readinglist-search.js), and
    # the box is readinglist's (partials/search.html), in a script file all paper pages share.
    assert '<script src="../../assets/javascripts/readinglist-search.js"></script>' in html
    shared = [(page.parent / src).resolve().read_text(encoding="utf-8")
              for src in re.findall(r'<script src="([^"]*/rl-[0-9a-f]+\.js)"', html)]
    assert [text for text in shared if 'data-rl-search' in text]
    assert 'data-md-component=\\"search\\"' not in "".join(shared)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("prefix", ["/", "/reading-list/"])
def test_typing_in_materials_search_box_finds_the_paper(built_site: Path, prefix: str,
                                                        chromium_browser: Any) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import browser as bench

    server, base = bench.serve_static(built_site, prefix)
    context = chromium_browser.new_context()
    try:
        page = context.new_page()
        page.goto(base, wait_until="load")
        box = page.locator(".md-search__input")
        box.click()
        box.press_sequentially("unforeseen")
        item = page.locator(".md-search-result__item").first
        item.wait_for(timeout=30_000)
        assert page.locator(".md-search-result__item").count() == 1
        assert CASPER["title"] in item.inner_text()
        assert item.locator("mark").first.inner_text().lower() == "unforeseen"
        item.locator("a").first.click()
        page.wait_for_url(f"**{prefix}{CASPER['page']}**", timeout=30_000)
        assert page.locator("h1").first.inner_text().startswith(CASPER["title"])
    finally:
        context.close()
        server.shutdown()


def test_publish_links_the_prepared_index_into_the_site(tmp_path: Path, seed_build) -> None:  # type: ignore[no-untyped-def]
    records = tmp_path / RECORDS
    records.write_text(seed_build.files[RECORDS], encoding="utf-8")
    prepared, site = tmp_path / "prepared", tmp_path / "site"
    site.mkdir()
    assert search.build_index(records, prepared) == 96
    assert search.build_index(records, prepared) is None
    search.publish(prepared, site)
    entry = site / "pagefind" / "pagefind-entry.json"
    assert json.loads(entry.read_text(encoding="utf-8"))["languages"]["en"]["page_count"] == 96
    assert os.stat(entry).st_ino == os.stat(prepared / "pagefind-entry.json").st_ino


def test_the_build_records_the_descriptions_of_the_tags_with_pages(seed_build) -> None:  # type: ignore[no-untyped-def]
    tags = {r["meta"]["title"]: r for r in build_records(seed_build) if r["meta"].get("part") == "Tag"}
    risk = tags["Risk-sensitive decision making"]
    assert (risk["url"], risk["content"]) == ("tags/risk-sensitive-decision-making/",
                                              "Objectives beyond the expectation, such as CVaR and expectiles.")
    assert risk["meta"] == {"title": "Risk-sensitive decision making", "part": "Tag"}
    # Only tags a paper has (the others have no page).
    used = {t for p in seed_papers(seed_build) for t in p["tags"]}
    assert set(tags) <= used and "Language models" in tags


def test_tag_records_link_to_the_tag_pages_the_render_context_names(seed_build, project) -> None:  # type: ignore[no-untyped-def]
    # The records are made from the render context: its tag slugs (made once a build) are the
    # pages the tags' records link to, the pages render writes.
    from dataclasses import replace

    from tests.conftest import render_context

    ctx = render_context(seed_build.library, project())
    tags = [r for r in search_records_.search_records(ctx, {}) if r.part == "Tag"]
    assert len(tags) > 3 and all(f"{r.url}index.md" in seed_build.files for r in tags)
    assert {r.title: r.url for r in tags}["Risk-sensitive decision making"] == "tags/risk-sensitive-decision-making/"
    moved = replace(ctx, tag_slugs={name: f"elsewhere-{slug}" for name, slug in ctx.tag_slugs.items()})
    assert [r.url for r in search_records_.search_records(moved, {}) if r.part == "Tag"] == [
        "tags/elsewhere-" + r.url.removeprefix("tags/") for r in tags]


def test_the_build_records_each_note_on_its_papers_page_and_its_reading_status(seed_build) -> None:  # type: ignore[no-untyped-def]
    recs = build_records(seed_build)
    notes = {r["url"]: r for r in recs if r["meta"].get("part") == "Note"}
    assert len(notes) == 3
    casper = notes[CASPER["page"] + "#my-notes"]
    assert casper["content"].startswith("Latent adversarial training perturbs hidden activations instead of inputs. "
                                        "Read before the robustness reading group;")
    assert casper["meta"] == {"title": "Note", "part": "Note"} and casper["filters"] == {"paper": [CASPER["title"]]}
    paper = next(r for r in recs if r["url"] == CASPER["page"])
    assert paper["filters"]["reading"] == ["to-read"] and paper["sort"]["rating"] == "5"
    about = [r for r in recs if r["meta"].get("part") == "Page"]
    assert [r["url"] for r in about] == ["about/"]
