"""Author lines as real arXiv mailings, listings and feeds print them (tests/fixtures/real, see its
README): affiliations in parentheses and arXiv's numbered form are not authors; a list typed
without commas is split where its shape is unambiguous and reported with file:line where not."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import Problems
from generator.sources import read_digest
from generator.sources.authors import parse_authors
from tests.conftest import FIXTURES

REAL = FIXTURES / "real"


def _real_lines() -> list[str]:
    return [ln for ln in (REAL / "arxiv-author-lines.txt").read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]


# The names each real line holds, in the file's order.
EXPECTED = [
    ("Matteo G. Pozzi", "Steven J. Herbert", "Akash Sengupta", "Robert D. Mullins"),
    ("Zhengxia Zou", "Zhenwei Shi", "Yuhong Guo", "Jieping Ye"),
    ("Arun V. Thampan", "Bhaskar Datta"),
    ("Jorge Sanchez Almeida",),
    ("Zhiyuan Chen", "Yuecong Min", "Jie Zhang", "Bei Yan", "Jiahao Wang", "Xiaozhen Wang", "Shiguang Shan"),
    ("Hossein Fereidooni", "Jan Koenig", "Phillip Rieger", "Marco Chilese", "Bora Goekbakan", "Moritz Finke",
     "Alexandra Dmitrienko", "Ahmad-Reza Sadeghi"),
    ("Nicolas Vecoven", "Damien Ernst", "Antoine Wehenkel", "Guillaume Drion"),
    ("James R. Kirk", "Robert E. Wray", "Peter Lindes"),
]


@pytest.mark.parametrize(("line", "names"), list(zip(_real_lines(), EXPECTED, strict=True)))
def test_real_author_lines(line: str, names: tuple[str, ...]) -> None:
    authors = parse_authors(line)
    assert authors.names == names
    assert authors.complete and authors.unsure == ()


def test_affiliations_are_kept_apart() -> None:
    lines = _real_lines()
    assert parse_authors(lines[0]).affiliations == (
        "University of Cambridge Computer Laboratory", "Cambridge Quantum Computing",
        "Department of Engineering, University of Cambridge")
    # No comma between the numbered groups, and a group inside one: `(CAS)`.
    assert parse_authors(lines[4]).affiliations == (
        "State Key Laboratory of AI Safety, Institute of Computing Technology, Chinese Academy of Sciences (CAS)",
        "University of Chinese Academy of Sciences", "Trustworthy Technology and Engineering Laboratory, Huawei")
    assert parse_authors(lines[6]).affiliations == ("Montefiore Institute, University of Liège",)
    assert "KOBIL, Germany" in parse_authors(lines[5]).affiliations


@pytest.mark.parametrize(("line", "names"), [
    # Initials, then a two-word name; a lower-case particle after the initials starts the family name.
    ("Peter Lindes James R. Kirk Robert E. Wray", ("Peter Lindes", "James R. Kirk", "Robert E. Wray")),
    ("Ludwig J. van Beethoven Anna K. Smith", ("Ludwig J. van Beethoven", "Anna K. Smith")),
    ("J.-P. Serre", ("J.-P. Serre",)),
    # One person each: these stay whole and raise no doubt.
    ("Juan A. Pérez García", ("Juan A. Pérez García",)),
    ("Alfonso de Jesús Navas Gómez", ("Alfonso de Jesús Navas Gómez",)),
    ("J. R. R. Tolkien", ("J. R. R. Tolkien",)),
    ("Mar Canet Solà", ("Mar Canet Solà",)),
])
def test_run_together_lists_split_only_where_unambiguous(line: str, names: tuple[str, ...]) -> None:
    authors = parse_authors(line)
    assert (authors.names, authors.unsure) == (names, ())


@pytest.mark.parametrize("line", [
    "James R. Kirk Robert Wray Peter Lindes",  # `Robert Wray` + `Peter Lindes`, or `Robert Wray Peter` + ...?
    "John Smith Jane Doe Bob Lee",  # no initials to tell where a name ends
])
def test_ambiguous_run_together_names_are_kept_and_flagged(line: str) -> None:
    authors = parse_authors(line)
    assert authors.names == (line,)
    assert authors.unsure == (line,)


def test_two_authors_and_et_al_still_read() -> None:
    assert parse_authors("Andrew Critch and David Krueger").names == ("Andrew Critch", "David Krueger")
    cut = parse_authors("A. Author (1), B. Author (1 and 2) et al. (+3 more)")
    assert (cut.names, cut.complete, cut.more) == (("A. Author", "B. Author"), False, 3)


def _read(path: Path, shown: str) -> tuple[list[tuple[str, ...]], list[str]]:
    problems = Problems()
    raw = read_digest(path, shown, problems)
    assert raw is not None
    return [p.authors for p in raw.papers], [str(p) for p in problems]


def test_real_mailing_reads_its_authors() -> None:
    authors, messages = _read(REAL / "arxiv-email-cs-2023-06-13.txt", "mail.txt")
    assert authors == [("Damien Pellier", "Alexandre Albore", "Humbert Fiorino", "Rafael Bailon-Ruiz"),
                       ("Varvara Guljajeva", "Mar Canet Solà", "Isaac Joseph Clarke")]
    assert messages == []


def test_mailing_with_affiliations_and_a_list_without_commas(tmp_path: Path) -> None:
    """The real mailing with two records' Authors lines replaced by real arXiv author lines (the
    numbered form, wrapped as the e-mail wraps it) and by a list with no commas that has no
    unambiguous split: the warning names the Authors line."""
    text = (REAL / "arxiv-email-cs-2023-06-13.txt").read_text(encoding="utf-8")
    text = text.replace(
        "Authors: Damien Pellier, Alexandre Albore, Humbert Fiorino, Rafael Bailon-Ruiz\n",
        "Authors: Arun V. Thampan (1), Bhaskar Datta (1 and 2) ((1)Indian Institute of\n"
        " Astrophysics, Bangalore, India, (2)Raman Research Institute, Bangalore, India)\n")
    text = text.replace("Authors: Varvara Guljajeva and Mar Canet Sol\\`a and Isaac Joseph Clarke\n",
                        "Authors: Varvara Guljajeva Mar Canet Sol\\`a Isaac Joseph Clarke\n")
    path = tmp_path / "mail.txt"
    path.write_text(text, encoding="utf-8")
    authors, messages = _read(path, "seeds/mail.txt")
    assert authors == [("Arun V. Thampan", "Bhaskar Datta"),
                       ("Varvara Guljajeva Mar Canet Solà Isaac Joseph Clarke",)]
    line = text.splitlines().index("Authors: Varvara Guljajeva Mar Canet Sol\\`a Isaac Joseph Clarke") + 1
    assert messages == [
        f"seeds/mail.txt:{line}: warning: the author 'Varvara Guljajeva Mar Canet Solà Isaac Joseph Clarke' "
        "looks like several names without commas between them; kept as one (write the commas in the digest "
        "to split it)"]


def test_feed_creators_with_affiliations(tmp_path: Path) -> None:
    """arXiv's RSS prints the author field as the submitter typed it, affiliations included."""
    lines = _real_lines()
    item = ("<item><title>T</title><link>https://arxiv.org/abs/2007.15957</link><description>arXiv:2007.15957v1 "
            "Announce Type: new \nAbstract: A.</description><arxiv:announce_type>new</arxiv:announce_type>"
            f"<dc:creator>{lines[0]}</dc:creator></item>")
    rss = ('<?xml version="1.0"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
           'xmlns:arxiv="http://arxiv.org/schemas/atom">'
           "<channel><title>cs.ET updates on arXiv.org</title><pubDate>Fri, 31 Jul 2020 00:00:00 -0400</pubDate>"
           f"\n{item}\n</channel></rss>\n")
    path = tmp_path / "feed.xml"
    path.write_text(rss, encoding="utf-8")
    authors, messages = _read(path, "feed.xml")
    assert authors == [EXPECTED[0]]
    assert messages == []
