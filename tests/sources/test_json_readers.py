"""The CSL-JSON and OpenReview readers, chosen by content: a Zotero or pandoc CSL-JSON file dropped
in seeds/, doi.org's answer, and OpenReview notes with API v2 `{value: ...}` fields or v1 plain ones."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.errors import Problems
from generator.sources import read_digest
from generator.sources.openreview import status
from tests.conftest import FIXTURES

IDENT = FIXTURES / "ident"


def test_a_pandoc_csl_json_file_in_seeds_is_read_like_a_digest(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    shutil.rmtree(config.notes_dir)
    shutil.copy(IDENT / "pandoc-library.json", config.seeds_dir / "2026-12-01-library.json")
    result = build(config)
    assert [str(p) for p in result.problems] == []
    papers = {p["key"]: p for p in json.loads((config.build_dir / "papers.json").read_text(encoding="utf-8"))}
    # pandoc's id is the citation key: kept, as a .bib file's key is.
    assert sorted(papers) == ["martinez2023understanding", "vanderwalt2011numpy"]
    numpy = papers["vanderwalt2011numpy"]
    assert (numpy["title"], numpy["authors"], numpy["venue_line"], numpy["doi"]) == (
        "The NumPy array: a structure for efficient numerical computation",
        ["Stéfan van der Walt", "S. Chris Colbert", "Gaël Varoquaux"],
        "Computing in Science & Engineering 13, 22-30 (2011) · published", "10.1109/MCSE.2011.37")
    preprint = papers["martinez2023understanding"]
    assert (preprint["arxiv"], preprint["venue_line"], preprint["sources"]) == (
        "2306.06130", "arXiv · preprint", ["2026-12-01-library.json"])
    items = {i["id"]: i for i in json.loads((config.build_dir / "references.json").read_text(encoding="utf-8"))}
    assert items["vanderwalt2011numpy"]["author"][0] == {"family": "Walt", "given": "Stéfan",
                                                          "non-dropping-particle": "van der"}
    preprint_item = items["martinez2023understanding"]
    assert (preprint_item["type"], preprint_item["number"]) == ("article", "2306.06130")


def test_csl_items_are_placed_by_line() -> None:
    problems = Problems()
    raw = read_digest(IDENT / "pandoc-library.json", "library.json", problems)
    assert raw is not None and raw.format == "csl-json"
    assert [str(p.origin) for p in raw.papers] == ["library.json:2", "library.json:18"]


def test_openreview_v1_plain_fields_read_as_v2(tmp_path: Path) -> None:
    v2 = json.loads((IDENT / "openreview-6oXNpKuBDK.json").read_text())
    note = v2["notes"][0]
    v1 = dict(note, content={k: v["value"] for k, v in note["content"].items()})
    (tmp_path / "v1.json").write_text(json.dumps(v1))
    problems = Problems()
    one = read_digest(IDENT / "openreview-6oXNpKuBDK.json", "v2.json", problems)
    two = read_digest(tmp_path / "v1.json", "v1.json", problems)
    assert [str(p) for p in problems] == []
    assert one is not None and two is not None and one.format == two.format == "openreview"
    [a], [b] = one.papers, two.papers
    assert (a.id, a.title, a.authors, a.venue, a.status, a.bib_type) == (
        "openreview:6oXNpKuBDK", "Generative Feature Training of Thin 2-Layer Networks",
        ("Johannes Hertrich", "Sebastian Neumayer"), "TMLR", "accepted", "article")
    assert (b.id, b.title, b.authors, b.abstract, b.date) == (a.id, a.title, a.authors, a.abstract, a.date)


@pytest.mark.parametrize("venue,venueid,expected", [
    ("ICLR 2024 poster", "ICLR.cc/2024/Conference", "accepted"),
    ("Submitted to ICLR 2025", "ICLR.cc/2025/Conference/Submission", "under review"),
    ("ICLR 2024 Conference Withdrawn Submission", "ICLR.cc/2024/Conference/Withdrawn_Submission", "preprint"),
    ("", "ICLR.cc/2024/Conference/Rejected_Submission", "preprint"),
    ("Under review for TMLR", "TMLR/Under_Review", "under review"),
    ("", "", "preprint"),
])
def test_openreview_status_from_the_venue(venue: str, venueid: str, expected: str) -> None:
    assert status(venue, venueid) == expected


@pytest.mark.parametrize("name,title", [
    ("doi-10.1103-PhysRevB.85.115117.json", "DOI 10.1103/PhysRevB.85.115117"),
    ("openreview-6oXNpKuBDK.json", "OpenReview forum 6oXNpKuBDK"),
    ("pandoc-library.json", "CSL-JSON file pandoc-library.json"),
])
def test_digest_titles_say_what_was_asked(name: str, title: str) -> None:
    raw = read_digest(IDENT / name, name, Problems())
    assert raw is not None and raw.title == title


def test_text_that_only_starts_like_json_gets_the_usual_message(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("[1] a reminder to read\nthe two papers Ann sent\n")
    problems = Problems()
    assert read_digest(tmp_path / "notes.txt", "notes.txt", problems) is None
    assert [str(p) for p in problems] == [
        "notes.txt:1: error: not a digest format I know (expected a TMLR digest e-mail, text copied from a "
        "paper-listing page, an arXiv mailing-list e-mail, an arXiv feed or a .bib file); skipped"]


def test_hostile_json_stays_text(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    shutil.rmtree(config.notes_dir)
    for path in (IDENT / "hostile").iterdir():
        shutil.copy(path, config.seeds_dir / path.name)
    result = build(config)
    assert [str(p) for p in result.problems if p.severity == "error"] == []
    papers = {p["id"]: p for p in json.loads((config.build_dir / "papers.json").read_text(encoding="utf-8"))}
    note = papers["openreview:Hostile123"]
    mallory = next(p for p in papers.values() if p["key"] == "mallory2026script")
    # CSL is rich text: its tags are markup, its entities characters; the text is kept as text.
    assert (mallory["title"], mallory["authors"], mallory["url"]) == (
        '<script>alert("xss-ctitle")</script> CSL Title', ["Eve Mallory<img src=x onerror=alert(1)>"], None)
    # OpenReview's fields are plain text: kept whole.
    assert (note["title"], note["authors"]) == ('<svg onload=alert("xss-otitle")> OpenReview Title',
                                                ['Eve <b onclick=alert("xss-oauthor")>Evil</b>'])
    for page in (config.build_dir / "papers").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        for bad in ("<script>alert", "<svg onload", "<img src=x", "<iframe src", "<b onclick", "href=\"javascript",
                    "<!-- xss"):
            assert bad not in text, (page, bad)
    bib = (config.build_dir / "references.bib").read_text(encoding="utf-8")
    assert "journal = {Journal of \\textbraceleft{}Braces\\textbraceright{} \\& \\textbackslash{}input" in bib
