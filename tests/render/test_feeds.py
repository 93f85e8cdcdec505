"""Atom feeds of the list and of each tag: read back with feedparser, entry by entry against
papers.json; the same list gives the same bytes; the size is a setting."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import feedparser
import pytest

from generator.build import BuildResult, build
from generator.config import load_config
from generator.enrich.text import plain_title
from tests.conftest import copy_project

BASE = "http://127.0.0.1:8000/"
KL = "KL for a KL: On-Policy Distillation with Control Variate Baseline"


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = tmp_path_factory.mktemp("feeds")
    return build(load_config(copy_project(root)), write=False)


def records(result: BuildResult) -> dict[str, dict[str, Any]]:
    return {BASE + r["page"]: r for r in json.loads(result.files["papers.json"])}


def parsed(result: BuildResult, path: str) -> Any:
    feed = feedparser.parse(result.files[path])
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


def test_the_list_feed_holds_the_newest_papers_as_papers_json_has_them(seeds: BuildResult) -> None:
    feed = parsed(seeds, "feed.xml")
    assert feed.feed.title == "Reading list"
    assert feed.feed.links[0].href == BASE + "feed.xml" and feed.feed.links[0].rel == "self"
    by_url = records(seeds)
    abstracts = {p.key: p.abstract for p in seeds.library.papers}  # papers.json leaves them to references.json
    assert len(feed.entries) == 41 == len(by_url)
    assert feed.entries[0].title == KL  # the newest digest first, in its own order (as the home page)
    for entry in feed.entries:
        record = by_url[entry.link]
        assert entry.id == entry.link
        assert entry.title == plain_title(record["title"])  # `$x$` as x: a feed title is plain text
        assert [a.name for a in entry.get("authors", [])] == record["authors"]
        assert [t.term for t in entry.get("tags", [])] == record["tags"]
        assert entry.updated.startswith(record["date"] + "T00:00:00")
        assert " ".join(entry.get("summary", "").split()) == " ".join(abstracts[record["key"]].split())


def test_each_tag_has_a_feed_of_its_papers(seeds: BuildResult) -> None:
    by_url = records(seeds)
    tagged: dict[str, int] = {}
    for record in by_url.values():
        for tag in record["tags"]:
            tagged[tag] = tagged.get(tag, 0) + 1
    feeds = {path: parsed(seeds, path) for path in seeds.files if path.startswith("feed-")}
    assert len(feeds) == len(tagged)
    for path, feed in feeds.items():
        tag = feed.feed.title.removeprefix("Reading list: ")
        assert feed.feed.links[0].href == BASE + path
        assert len(feed.entries) == tagged[tag]
        assert all(tag in [t.term for t in e.tags] for e in feed.entries)
    page = seeds.files["tags/knowledge-distillation/index.md"]
    assert "\nrl_feed: feed-knowledge-distillation.xml\n" in page
    assert 'href="../../feed-knowledge-distillation.xml">Atom feed</a>' in page


def test_same_list_same_bytes_and_the_size_is_a_setting(seeds: BuildResult, tmp_path: Path) -> None:
    config_file = copy_project(tmp_path)
    text = config_file.read_text(encoding="utf-8").replace("  readinglist:\n", "  readinglist:\n    feed_entries: 5\n")
    config_file.write_text(text, encoding="utf-8")
    small = build(load_config(config_file), write=False)
    assert len(parsed(small, "feed.xml").entries) == 5
    assert all(len(parsed(small, p).entries) <= 5 for p in small.files if p.startswith("feed-"))
    (tmp_path / "again").mkdir()
    again = build(load_config(copy_project(tmp_path / "again")), write=False)
    assert again.files["feed.xml"] == seeds.files["feed.xml"]
    assert again.files["feed-knowledge-distillation.xml"] == seeds.files["feed-knowledge-distillation.xml"]


def test_markup_and_control_characters_in_a_digest_stay_inert_text(tmp_path: Path) -> None:
    config_file = copy_project(tmp_path, seeds=False)
    (tmp_path / "citekeys.yml").unlink(missing_ok=True)
    (tmp_path / "seeds" / "hostile.txt").write_text(
        "Daily TMLR digest for Aug 08, 2025\nTMLR\nAccepted papers\n===============\n"
        "Title: Beating <script>alert(1)</script> Baselines \x08& More\nAuthors: Ann Lee, Bo Li\n"
        "Abstract: A bell \x07 rings in <b>bold</b> text about distillation.\n"
        "URL: https://openreview.net/forum?id=abcdefghij\n---\n", encoding="utf-8")
    result = build(load_config(config_file), write=False)
    xml = result.files["feed.xml"]
    assert "<script>" not in xml and "<b>" not in xml and "\x08" not in xml and "\x07" not in xml
    assert "Beating &lt;script&gt;alert(1)&lt;/script&gt; Baselines" in xml
    assert len(parsed(result, "feed.xml").entries) == 1


def test_a_big_list_can_switch_off_tag_feeds_and_tag_downloads(seeds: BuildResult, tmp_path: Path) -> None:
    """`tag_feeds: false` and `tag_downloads: false` (docs/user-guide/publishing.md, "A big list"):
    no feed and no .bib per tag, and the tag pages neither link nor announce them."""
    from generator.errors import ConfigError

    config_file = copy_project(tmp_path)
    text = config_file.read_text(encoding="utf-8")
    config_file.write_text(text.replace("  readinglist:\n", "  readinglist:\n    tag_feeds: false\n"
                                        "    tag_downloads: false\n"), encoding="utf-8")
    lean = build(load_config(config_file), write=False)
    assert "feed.xml" in lean.files and not [p for p in lean.files if p.startswith("feed-")]
    assert not [p for p in lean.files if p.startswith("tags/") and p.endswith(".bib")]
    assert [p for p in lean.files if p.startswith("digests/") and p.endswith(".bib")]  # digests keep theirs
    page = lean.files["tags/knowledge-distillation/index.md"]
    assert "rl_feed" not in page and "Atom feed" not in page and ".bib" not in page
    assert '<a href="../../references.json">references.json</a>' in page
    assert "and a BibTeX file of them" not in lean.files["tags.md"]
    assert "and a BibTeX file of them" in seeds.files["tags.md"]
    # Everything else is as with both on.
    same = {p for p in seeds.files if not p.startswith(("feed-", "tags/"))} - {"tags.md"}
    assert all(lean.files[p] == seeds.files[p] for p in same if p != "index.md")
    config_file.write_text(text.replace("  readinglist:\n", "  readinglist:\n    tag_feeds: no way\n"), "utf-8")
    with pytest.raises(ConfigError, match=r"extra\.readinglist\.tag_feeds: expected true or false, got 'no way'"):
        build(load_config(config_file), write=False)
