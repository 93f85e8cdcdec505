"""The arXiv readers, field by field: the mailing-list e-mail, API results, and the RSS and Atom
announcement feeds; and TeX in their fields."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from generator.errors import Problems
from generator.model import Paper
from generator.sources import read_digest
from generator.sources.records import RawDigest
from generator.sources.tex import tex_to_text
from tests.conftest import FIXTURES

READERS = FIXTURES / "readers"


def read(name: str, text: str | None = None, tmp: Path | None = None) -> tuple[RawDigest, list[str]]:
    path = READERS / name
    if text is not None:
        assert tmp is not None
        path = tmp / name
        path.write_text(text, encoding="utf-8")
    problems = Problems()
    raw = read_digest(path, name, problems)
    assert raw is not None
    return raw, [str(p) for p in problems]


def by_id(raw: RawDigest) -> dict[str, Paper]:
    return {p.id: p for p in raw.papers}


# --- the mailing-list e-mail ---------------------------------------------------------------------

def test_email_records_field_by_field() -> None:
    raw, messages = read("arxiv_email.txt")
    assert raw.format == "arxiv-email"
    assert raw.date == dt.date(2023, 6, 12)  # the `to` date of `received from ... to ...`
    assert raw.title == "cs daily Subj-class mailing 1 1 of Jun 12, 2023"
    assert [(p.id, p.origin.line, p.replacement) for p in raw.papers] == [
        ("arxiv:2306.06130", 11, False), ("arxiv:2306.06201", 29, False), ("arxiv:2211.06617", 45, False),
        ("arxiv:2301.00001", 57, True), ("arxiv:2306.06201", 66, True)]
    first = raw.papers[0]
    assert first.title == "Robust Federated Learning for Heterogeneous Clients – A Variance-Reduced Approach"
    assert first.authors == ("José Martínez", "Iñaki Côte", "Hans Müller")  # `, and` and TeX accents
    assert first.categories == ("cs.LG", "cs.AI")
    assert first.arxiv_id == "2306.06130" and first.url == "https://arxiv.org/abs/2306.06130"
    assert first.doi == "10.48550/arXiv.2306.06130"
    assert first.journal_ref == "Proceedings of ICML 2023, PMLR 202:1234-1250"
    assert first.comments == "12 pages, 3 figures; accepted at ICML 2023"
    assert first.abstract == (
        "We study federated learning with $n$ clients whose data follow different distributions, and show "
        "that variance reduction improves accuracy by 5% over prior work [smith2020].\n\n"
        "In a second paragraph we give an $O(\\sqrt{T})$ regret bound.")
    second = raw.papers[1]
    assert second.authors == ("Ann Lee", "Bo Chen") and second.doi is None and second.journal_ref == ""
    cross = raw.papers[2]
    assert cross.categories == ("stat.ML", "cs.LG") and cross.authors == ("Chloé Dubois", "Yuki Tanaka")
    replaced = raw.papers[4]
    assert (replaced.doi, replaced.journal_ref) == ("10.1234/jsm.2023.4", "Journal of Sparse Models 4 (2023) 1-20")
    assert messages == []


def test_email_pasted_from_web_mail_with_no_break_spaces_and_cut_short(tmp_path: Path) -> None:
    # A part of an e-mail (no header, no end marker), indented with no-break spaces, cut in a record.
    text = ("------------------------------------------------------------------------------\n"
            "\\\\\n"
            "arXiv:2401.00002\n"
            "Date: Mon, 1 Jan 2024 10:00:00 GMT   (10kb)\n\n"
            "Title: A Title Pasted From\n"
            "\u00a0\u00a0a Web Mail Page\n"
            "Authors: Ann Lee and Bo Chen\n"
            "Categories: cs.LG\n"
            "\\\\\n"
            "\u00a0\u00a0First paragraph.\n"
            "\u00a0\u00a0Second paragraph\n"
            "continues here.\n"
            "\\\\ ( https://arxiv.org/abs/2401.00002 ,  10kb)\n"
            "------------------------------------------------------------------------------\n"
            "\\\\\n"
            "arXiv:2401.00003\n"
            "Date: Mon, 1 Jan 2024 11:00:00 GMT   (10kb)\n\n"
            "Title: Cut Off\n"
            "Authors: Cy Dee\n")
    raw, messages = read("2024-01-02-pasted.txt", text, tmp_path)
    assert raw.format == "arxiv-email"
    a, b = raw.papers
    assert a.title == "A Title Pasted From a Web Mail Page"
    assert a.abstract == "First paragraph.\n\nSecond paragraph continues here."
    assert (b.title, b.authors, b.abstract) == ("Cut Off", ("Cy Dee",), "")
    assert messages == [
        "2024-01-02-pasted.txt:16: warning: the record of arXiv:2401.00003 ends without its "
        "`\\\\ ( https://arxiv.org/abs/... )` line (a cut e-mail?); kept as read",
        "2024-01-02-pasted.txt: warning: digest has no date in its text; using 2024-01-02 from its file name "
        "(add `date:` to 2024-01-02-pasted.yml to confirm it)"]
    assert a.date == dt.date(2024, 1, 2)


# --- API results ---------------------------------------------------------------------------------

def test_api_entries_field_by_field() -> None:
    raw, messages = read("arxiv_api.xml")
    assert (raw.format, raw.date, messages) == ("arxiv-api", dt.date(2012, 2, 1), [])
    new, old = raw.papers
    assert (new.id, new.origin.line) == ("arxiv:1201.4869", 8)
    assert new.title == "Electron Thermalization in the Solar Wind: A Kinetic Study"  # hard break, {\em}
    assert new.authors == ("François Dupont", "Maria García")
    assert new.abstract == ("We study electron thermalization in the solar wind with a kinetic model. The rate "
                            "scales as $T^{3/2}$ and is 20% higher than predicted.")
    assert new.categories == ("astro-ph.SR", "physics.plasm-ph")  # the primary first, once
    assert (new.doi, new.journal_ref, new.comments) == ("10.1088/0004-637X/750/1/1", "ApJ 750 (2012) 1",
                                                         "15 pages, 4 figures")
    assert new.date == dt.date(2012, 1, 23)  # published: the first version's date
    assert (old.id, old.arxiv_id, old.url) == ("arxiv:cond-mat/0412498", "cond-mat/0412498",
                                               "https://arxiv.org/abs/cond-mat/0412498")
    assert old.authors == ("Hans Müller",) and old.origin.line == 35


# --- announcement feeds --------------------------------------------------------------------------

def test_rss_items_field_by_field() -> None:
    raw, messages = read("arxiv_rss.xml")
    assert (raw.format, raw.date, raw.title) == ("arxiv-feed", dt.date(2023, 6, 12),
                                                 "cs.LG updates on arXiv.org, Jun 12, 2023")
    assert messages == []
    new, cross, replaced = raw.papers
    assert (new.id, new.origin.line, new.replacement) == ("arxiv:2306.06130", 10, False)
    assert new.authors == ("José Martínez", "Iñaki Côte", "Hans Müller")
    assert new.abstract == "We study federated learning with $n$ clients whose data follow different distributions."
    assert new.categories == ("cs.LG", "cs.AI") and new.date == dt.date(2023, 6, 12)
    # Markup in a title is text (escaped where every text is): the reader keeps it as written.
    assert cross.title == "Attention Is Not <script>alert(1)</script> All You Need"
    assert cross.categories == ("stat.ML", "cs.LG") and not cross.replacement
    assert replaced.replacement and replaced.journal_ref == "Journal of Sparse Models 4 (2023) 1-20"


def test_atom_announcement_feed() -> None:
    raw, messages = read("arxiv_atom_feed.xml")
    assert (raw.format, raw.date, messages) == ("arxiv-feed", dt.date(2023, 6, 13), [])
    new, replaced = raw.papers
    assert (new.id, new.title, new.authors) == ("arxiv:2306.07100", "Tokenizers Matter for Low-Resource Languages",
                                                ("Amina Diallo", "Kofi Mensah"))
    assert new.abstract == "We compare tokenizers on twelve low-resource languages." and new.origin.line == 7
    assert replaced.replacement and replaced.id == "arxiv:2211.99999"  # replace-cross


# --- XML that is not a feed, and XML attacks ------------------------------------------------------

def test_xml_that_is_no_arxiv_feed_is_named_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "notes.xml"
    path.write_text("<?xml version='1.0'?>\n<notes><note>hi</note></notes>\n", encoding="utf-8")
    problems = Problems()
    assert read_digest(path, "notes.xml", problems) is None
    assert [str(p) for p in problems] == [
        "notes.xml:1: error: an XML file, but not an arXiv API result or arXiv announcement feed (RSS or Atom); "
        "skipped"]


def test_entity_expansion_and_external_entities_are_refused(tmp_path: Path) -> None:
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE rss [\n<!ENTITY a "aaaaaaaaaa">\n'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n'
            '<rss xmlns:arxiv="http://arxiv.org/schemas/atom"><channel><item><title>&b;</title>'
            '<arxiv:announce_type>new</arxiv:announce_type></item></channel></rss>\n')
    external = ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
                '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">'
                '<entry><id>http://arxiv.org/abs/2401.00001v1</id><title>&x;</title></entry></feed>\n')
    for name, text, line in (("bomb.xml", bomb, 2), ("external.xml", external, 2)):
        raw, messages = read(name, text, tmp_path)
        assert raw.papers == []
        assert messages[0].startswith(f"{name}:{line}: error: refused to read an arXiv")
        assert "EntitiesForbidden" in messages[0]


def test_malformed_feed_names_its_line(tmp_path: Path) -> None:
    text = ('<?xml version="1.0"?>\n<rss xmlns:arxiv="http://arxiv.org/schemas/atom"><channel>\n'
            '<item><title>Open\n<arxiv:announce_type>new</arxiv:announce_type></item>\n</channel></rss>\n')
    raw, messages = read("broken.xml", text, tmp_path)
    assert raw.papers == []
    assert messages[0].startswith("broken.xml:4: error: an arXiv announcement feed that is not well-formed XML "
                                  "(mismatched tag, column")


# --- TeX -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("tex", "text"), [
    ("Mart\\'inez", "Martínez"), ("Jos\\'e", "José"), ("I\\~naki", "Iñaki"), ("C\\^ote", "Côte"),
    ('M{\\"u}ller', "Müller"), ("{\\em Deep} nets", "Deep nets"), ("1990--2000", "1990–2000"),
    ("as in \\cite{a,b}.", "as in [a,b]."), ("$O(n^2)$ and $\\alpha$", "$O(n^2)$ and $\\alpha$"),
    ("Kaiser, {\\L}ukasz", "Kaiser, Łukasz"), ('{Schr\\"odinger}', "Schrödinger"), ("5% better", "5% better"),
    ("10\\% and R\\&D", "10% and R&D"), ("plain", "plain"), ("<b>markup</b> stays text", "<b>markup</b> stays text"),
    ("broken {brace", "broken brace"), ("see \\href{http://x.org}{the page}", "see the page"),
    ("\\url{https://x.org}", "https://x.org"),
])
def test_tex_becomes_plain_unicode_text(tex: str, text: str) -> None:
    assert tex_to_text(tex) == text
