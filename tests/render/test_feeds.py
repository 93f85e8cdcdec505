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
    assert len(feed.entries) == 41 == len(by_url)
    assert feed.entries[0].title == KL  # the newest digest first, in its own order (as the home page)
    for entry in feed.entries:
        record = by_url[entry.link]
        assert entry.id == entry.link
        assert entry.title == plain_title(record["title"])  # `$x$` as x: a feed title is plain text
        assert [a.name for a in entry.get("authors", [])] == record["authors"]
        assert [t.term for t in entry.get("tags", [])] == record["tags"]
        assert entry.updated.startswith(record["date"] + "T00:00:00")
        assert " ".join(entry.get("summary", "").split()) == " ".join(record["abstract"].split())


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
