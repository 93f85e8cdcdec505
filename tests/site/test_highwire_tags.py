"""Highwire Press tags in every paper page's head (render/highwire.py, theme/main.html), as
Google Scholar describes them and Zotero reads them: each page's tags equal its papers.json record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import copy_project

pytestmark = pytest.mark.slow
SITE_URL = "https://example.org/reading-list/"


class _Meta(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "meta" and (named.get("name") or "").startswith("citation_"):
            self.tags.append((named["name"] or "", named.get("content") or ""))


def meta_tags(page: Path) -> list[tuple[str, str]]:
    parser = _Meta()
    text = page.read_text(encoding="utf-8")
    parser.feed(text[:text.index("</head>")])
    return parser.tags


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("highwire")
    copy_project(root)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_URL=SITE_URL)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, env=env, check=True,
                   capture_output=True, text=True, timeout=300)
    return root / "site"


def expected(record: dict[str, object], ids: dict[str, str | None]) -> list[tuple[str, str]]:
    """What the tags should say, from the paper's papers.json record."""
    tags = [] if str(record["title"]).startswith("Untitled paper by") else [("citation_title", str(record["title"]))]
    tags += [("citation_author", str(a)) for a in (record["authors"] or ["Anonymous"])]  # type: ignore[attr-defined]
    if record["date"]:
        tags.append(("citation_publication_date", str(record["date"]).replace("-", "/")))
    if record["venue"] == "TMLR" and record["status"] == "accepted":
        tags += [("citation_journal_title", "Transactions on Machine Learning Research"),
                 ("citation_issn", "2835-8856")]
    if ids["openreview"]:
        tags.append(("citation_pdf_url", f"https://openreview.net/pdf?id={ids['openreview']}"))
    tags.append(("citation_abstract_html_url", SITE_URL + str(record["page"])))
    return tags


def test_every_paper_page_carries_the_tags_of_its_record(site: Path) -> None:
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert len(records) == 41
    for record in records:
        url = record["url"] or ""
        ids = {"openreview": url.split("id=", 1)[1] if "openreview.net/forum?id=" in url else None}
        assert meta_tags(site / record["page"] / "index.html") == expected(record, ids), record["key"]
    # Other pages carry none.
    assert meta_tags(site / "index.html") == []
    assert meta_tags(site / "tags" / "reasoning" / "index.html") == []


def test_the_untitled_and_the_anonymous_paper(site: Path) -> None:
    records = {r["key"]: r for r in json.loads((site / "papers.json").read_text(encoding="utf-8"))}
    untitled = meta_tags(site / records["grunefeld2026untitled"]["page"] / "index.html")
    assert untitled[0] == ("citation_author", "Nils Grünefeld")  # no title: the page's placeholder is none
    assert not any(name == "citation_title" for name, _ in untitled)
    anonymous = meta_tags(site / records["anonymous2025deepseekr1"]["page"] / "index.html")
    assert ("citation_author", "Anonymous") in anonymous
    assert not any(name == "citation_journal_title" for name, _ in anonymous)  # under review: no journal yet
