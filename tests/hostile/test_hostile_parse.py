"""Broken digest files, declaratively: per fixture, the papers that survive and the exact messages.

Each fixture under tests/fixtures/hostile/broken/ holds one kind of damage; the line numbers
in the messages are the fixture file's own (open it with line numbers to check).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import Problems
from generator.sources import read_all, read_digest
from tests.conftest import FIXTURES

BROKEN = FIXTURES / "hostile" / "broken"
HOSTILE = FIXTURES / "hostile"

# fixture -> (titles kept, in order; every message, in order)
CASES: dict[str, tuple[list[str], list[str]]] = {
    "tmlr_bom_crlf.txt": (["Non Breaking Spaces In A Title"], []),
    "tmlr_cr.txt": (["Old Mac Line Endings"], []),
    "tmlr_cp1252.txt": (
        ["Café Networks and the “Quoted” Word"],
        ["{p}:5: warning: not valid UTF-8; decoded as Windows-1252 (Latin-1)"],
    ),
    "picture.txt": ([], ["{p}: warning: binary file (not text), skipped"]),
    "nul.txt": ([], ["{p}:5: warning: binary file (contains NUL bytes), skipped"]),
    "empty.txt": ([], ["{p}: warning: empty file, skipped"]),
    "tmlr_truncated.txt": (
        ["A Complete Record", "Cut Off In The Abstract"],
        ["{p}:10: warning: record has no 'URL:'"],
    ),
    "tmlr_missing.txt": (
        ["No Abstract Here", "No URL Here", "Fine Record"],
        ["{p}:5: warning: record has no abstract", "{p}:9: warning: record has no 'URL:'"],
    ),
    "tmlr_duplicate.txt": (
        ["The Same Paper Twice", "Another Paper"],
        ["{p}:15: warning: the same paper as the record at line 5 (same OpenReview id); "
         "keeping the record at line 15"],
    ),
    "tmlr_title_in_abstract.txt": (
        ["Abstract Mentions A Title", "Separator Missing Before Me"],
        ["{p}:8: warning: a line starting with 'Title:' inside the abstract; kept as abstract text",
         "{p}:11: warning: 'Title:' inside a record that already has one; starting a new record "
         "(is a '---' separator missing?)"],
    ),
    "tmlr_no_records.txt": ([], ["{p}:1: error: read as a tmlr digest but found no papers"]),
    "2024-03-05-listing_truncated.txt": (
        ["A Complete Listing Record", "Cut Off Listing Record"],
        ["{p}:6: warning: record ends without 'Read the full abstract ▾'; the abstract may be cut short",
         "{p}:10: warning: record has nothing after its subject line (no title, authors or abstract); "
         "skipped",
         "{p}: warning: digest has no date in its text; using 2024-03-05 from its file name "
         "(add `date:` to 2024-03-05-listing_truncated.yml to confirm it)"],
    ),
    "2024-03-05-listing_duplicate.txt": (
        ["Listed Twice", "Listed Once"],
        ["{p}:11: warning: the same paper as the record at line 1 (same title); keeping the record at line 1",
         "{p}: warning: digest has no date in its text; using 2024-03-05 from its file name "
         "(add `date:` to 2024-03-05-listing_duplicate.yml to confirm it)"],
    ),
    "2024-03-05-listing_missing_abstract.txt": (
        ["No Abstract Listed", "Has An Abstract"],
        ["{p}:1: warning: record has no abstract",
         "{p}: warning: digest has no date in its text; using 2024-03-05 from its file name "
         "(add `date:` to 2024-03-05-listing_missing_abstract.yml to confirm it)"],
    ),
    "2024-03-05-listing_no_records.txt": (
        [],
        ["{p}:1: warning: line outside any record (expected a subject line such as 'Machine Learning'): "
         "'Read the full abstract ▾' (and 2 more such lines, up to line 3)",
         "{p}:1: error: read as a listing digest but found no papers"],
    ),
}


def read(folder: Path, name: str) -> tuple[list, list[str]]:
    problems = Problems()
    raw = read_digest(folder / name, f"seeds/{name}", problems)
    return (raw.papers if raw else []), [str(p) for p in problems]


@pytest.mark.parametrize("name", sorted(CASES))
def test_broken_file_gives_exact_messages_and_keeps_the_rest(name: str) -> None:
    titles, messages = CASES[name]
    papers, got = read(BROKEN, name)
    assert [p.title for p in papers] == titles
    assert got == [m.format(p=f"seeds/{name}") for m in messages]


def test_every_broken_fixture_has_a_case() -> None:
    assert sorted(p.name for p in BROKEN.iterdir()) == sorted(CASES)


def test_repaired_text_is_exact() -> None:
    (bom,), _ = read(BROKEN, "tmlr_bom_crlf.txt")
    assert bom.authors == ("Ann Alpha", "Bob Beta")
    assert bom.url == "https://openreview.net/forum?id=Bom00001"
    (cr,), _ = read(BROKEN, "tmlr_cr.txt")
    assert cr.abstract == "Lines end in CR only.\n\nSecond paragraph."
    (latin,), _ = read(BROKEN, "tmlr_cp1252.txt")
    assert latin.authors == ("René Müller", "Zoë O’Brien")
    assert latin.abstract == "Saved by an old mail client – in Windows-1252."


def test_title_line_inside_an_abstract_stays_in_the_abstract() -> None:
    (first, second), _ = read(BROKEN, "tmlr_title_in_abstract.txt")
    assert first.abstract == ("We study how papers are named.\n\nTitle: a line of the abstract that starts like "
                              "a field.\n\nThe abstract goes on.")
    assert first.url == "https://openreview.net/forum?id=Tin00001"
    assert second.authors == ("Bob Beta",)
    assert second.url == "https://openreview.net/forum?id=Tin00002"


def test_duplicate_keeps_the_richer_record() -> None:
    papers, _ = read(BROKEN, "tmlr_duplicate.txt")
    assert papers[0].abstract == "Short, but the later copy has a longer abstract."
    assert papers[0].origin.line == 15


def test_truncated_record_keeps_what_it_has() -> None:
    papers, _ = read(BROKEN, "tmlr_truncated.txt")
    assert papers[1].authors == ("Bob Beta",)
    assert papers[1].abstract == "The file ends in the middle of this sent"
    assert papers[1].url is None


def test_mixed_utf8_and_latin1_keeps_the_utf8_text(tmp_path: Path) -> None:
    data = ("Daily TMLR digest for Mar 05, 2024\nAccepted papers\n===============\n"
            "Title: Grünefeld’s Paper\nAuthors: Jörg Grünefeld\nAbstract: ").encode() + \
        "Pasted na\u00efve text.\n".encode("latin-1") + b"URL: https://openreview.net/forum?id=Mix00001\n---\n"
    (tmp_path / "mixed.txt").write_bytes(data)
    (paper,), messages = read(tmp_path, "mixed.txt")
    assert paper.title == "Grünefeld’s Paper"
    assert paper.authors == ("Jörg Grünefeld",)
    assert paper.abstract == "Pasted naïve text."
    assert messages == ["seeds/mixed.txt:6: warning: not valid UTF-8; decoded as Windows-1252 (Latin-1)"]


def test_utf16_file_is_decoded_with_a_warning(tmp_path: Path) -> None:
    text = ("Daily TMLR digest for Mar 05, 2024\r\nAccepted papers\r\n===============\r\n"
            "Title: Saved By Notepad\r\nAbstract: As UTF-16.\r\nURL: https://openreview.net/forum?id=U16x0001\r\n")
    (tmp_path / "u16.txt").write_bytes(text.encode("utf-16"))
    (paper,), messages = read(tmp_path, "u16.txt")
    assert (paper.title, paper.abstract) == ("Saved By Notepad", "As UTF-16.")
    assert messages == ["seeds/u16.txt: warning: saved as UTF-16; decoded (save digests as UTF-8)"]


def test_hostile_tmlr_digest_is_read_whole_with_exact_messages() -> None:
    papers, messages = read(HOSTILE, "000_hostile_tmlr.txt")
    p = "seeds/000_hostile_tmlr.txt"
    assert messages == [
        f"{p}:16: warning: '---' inside an abstract (no 'URL:' yet and no 'Title:' after it); kept as abstract text",
        f"{p}:18: warning: '---' inside an abstract (no 'URL:' yet and no 'Title:' after it); kept as abstract text",
        f"{p}:20: warning: 'URL:' is not an http(s) link; ignored: 'javascript:alert(\"xss-url\")'",
    ]
    assert [x.title for x in papers] == [
        '<script>alert("xss-title")</script> Scripted Title',
        '&lt;script&gt;alert("xss-entity")&lt;/script&gt; Entity Title',
        "}, author = {xss-bib-breakout}, note = { @misc{evil,",
        "{{ config.extra }} --- {% raw %} <!-- --> # Not a heading",
        "A Paper Under A Crafted Section Heading",
    ]
    assert papers[4].labels == ('<img src=x onerror=alert("xss-section")> Certification',)
    assert papers[0].authors == ('Mallory <img src=x onerror=alert("xss-author")>', "Eve {{ config }}")
    assert papers[1].url is None
    assert papers[1].abstract.split("\n\n")[1:4] == ["---", "title: xss-front", "---"]
    assert papers[3].status == "under review" and papers[3].anonymous


def test_crafted_digest_header_is_a_title_and_a_warning() -> None:
    papers, messages = read(HOSTILE, "003_hostile_header.txt")
    assert [p.title for p in papers] == ["A Paper In A Digest With A Crafted Header"]
    assert messages == [
        "seeds/003_hostile_header.txt:1: warning: cannot read the digest date "
        "'<script>alert(\"xss-header\")</script>'",
    ]  # the date is then taken from 003_hostile_header.yml, quietly: the curator's own word


def test_stray_lines_are_one_message_per_run(tmp_path: Path) -> None:
    junk = "\n".join(f"junk line {i}" for i in range(5000))
    (tmp_path / "junk.txt").write_text("Daily TMLR digest for Mar 05, 2024\n" + junk + "\n"
                                       "Title: After The Junk\nAbstract: Kept.\n"
                                       "URL: https://openreview.net/forum?id=Junk0001\n")
    papers, messages = read(tmp_path, "junk.txt")
    assert [x.title for x in papers] == ["After The Junk"]
    assert messages == ["seeds/junk.txt:2: warning: unexpected line outside a field: 'junk line 0' "
                        "(and 4999 more such lines, up to line 5001)"]


def test_whole_folder_of_broken_files_still_builds_the_good_ones(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in BROKEN.iterdir():
        (seeds / f.name).write_bytes(f.read_bytes())
    problems = Problems()
    raws = read_all(seeds, tmp_path, problems)
    kept = sorted(p.title for r in raws for p in r.papers)
    assert kept == sorted(t for titles, _ in CASES.values() for t in titles)
    assert sorted(str(e) for e in problems.errors) == [
        "seeds/2024-03-05-listing_no_records.txt:1: error: read as a listing digest but found no papers",
        "seeds/tmlr_no_records.txt:1: error: read as a tmlr digest but found no papers",
    ]
