"""Reader tests on small fixtures, one quirk each, with the exact messages they must give."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from generator.errors import Problems
from generator.sources import read_digest
from generator.sources.authors import looks_like_author_line, parse_authors
from generator.sources.rejoin import rejoin
from tests.conftest import FIXTURES

READERS = FIXTURES / "readers"


def read(name: str) -> tuple[list, list[str]]:
    problems = Problems()
    raw = read_digest(READERS / name, f"fixtures/{name}", problems)
    return (raw.papers if raw else []), [str(p) for p in problems]


def test_listing_truncated_authors_are_kept_and_marked_incomplete() -> None:
    papers, _ = read("listing_quirks.txt")
    first = papers[0]
    assert first.title == "A Paper With Truncated Authors"
    assert first.authors == ("Ann Alpha", "Bob Beta", "Cid Gamma")
    assert first.authors_complete is False
    assert first.categories == ("cs.LG",)
    assert first.origin.line == 1


def test_listing_abstract_lines_are_rejoined_into_prose() -> None:
    papers, _ = read("listing_quirks.txt")
    assert papers[0].abstract == (
        'We study truncated author lists. The abstract is broken over lines, with a "quoted" word '
        "and a per-token rate (see appendix), done."
    )


def test_listing_cross_list_and_all_authors_line() -> None:
    papers, _ = read("listing_quirks.txt")
    cross = papers[1]
    assert cross.title == "Cross-Listed Paper With Full Authors"
    assert cross.authors == ("Dan Delta", "Eve Epsilon", "Fay Zeta")
    assert cross.authors_complete is True
    assert cross.categories == ("cs.CL", "cs.LG")
    assert cross.cross_listed_from == "cs.CL"


def test_listing_record_without_title_is_kept_with_placeholder_and_warning() -> None:
    papers, messages = read("listing_quirks.txt")
    assert len(papers) == 3
    untitled = papers[2]
    assert untitled.title_missing is True
    assert untitled.title == "Untitled paper by Gus Eta et al.: This record has no title line; the authors…"
    assert untitled.authors == ("Gus Eta", "Hal Theta", "Ida Iota", "Jo Kappa")
    assert untitled.categories == ("cs.CL",)
    assert untitled.abstract == "This record has no title line; the authors come straight after the subject."
    assert "fixtures/listing_quirks.txt:19: warning: record has no title line (the line after the subject is " \
           "the author list); using a placeholder title" in messages


def test_tmlr_certification_section_is_a_label_and_paragraphs_survive() -> None:
    papers, messages = read("tmlr_quirks.txt")
    cert, _anon = papers
    assert cert.title == "A Certified Paper"
    assert cert.status == "accepted"
    assert cert.labels == ("Featured Certification",)
    assert cert.abstract == "First paragraph of the abstract.\n\nSecond paragraph, with $x^2$ math."
    assert cert.openreview_id == "Cert123ab"
    assert cert.id == "openreview:Cert123ab"
    assert cert.date == dt.date(2024, 3, 5)
    assert cert.origin.line == 5
    assert messages == []


def test_tmlr_new_submission_is_anonymous_and_under_review() -> None:
    papers, _ = read("tmlr_quirks.txt")
    anon = papers[1]
    assert anon.title == "An Anonymous Submission"
    assert anon.authors == ()
    assert anon.anonymous
    assert anon.status == "under review"
    assert anon.url == "https://openreview.net/forum?id=Anon456cd"


def test_tmlr_crlf_line_endings() -> None:
    papers, messages = read("tmlr_crlf.txt")
    assert [p.title for p in papers] == ["Windows Line Endings"]
    assert papers[0].authors == ("Carl Crlf",)
    assert papers[0].abstract == "Saved on Windows.\n\nSecond line."
    assert papers[0].url == "https://openreview.net/forum?id=Crlf789ef"
    assert messages == []


def test_unknown_format_is_an_error_naming_the_file() -> None:
    papers, messages = read("unknown.txt")
    assert papers == []
    assert messages == [
        "fixtures/unknown.txt:1: error: not a digest format I know (expected a TMLR digest e-mail, text "
        "copied from a paper-listing page, an arXiv mailing-list e-mail, an arXiv feed or a .bib file); skipped"
    ]


def test_author_line_shapes() -> None:
    assert parse_authors("A Alpha, B Beta and C Gamma").names == ("A Alpha", "B Beta", "C Gamma")
    assert parse_authors("Yudong Luo and Erick Delage").names == ("Yudong Luo", "Erick Delage")
    trunc = parse_authors("Minjae Oh, Sangjun Song, Gyubin Choi et al. (+2 more)")
    assert trunc.names == ("Minjae Oh", "Sangjun Song", "Gyubin Choi")
    assert (trunc.complete, trunc.more) == (False, 2)
    assert looks_like_author_line("Aurélien Decelle, Alfonso de Jesús Navas Gómez and Beatriz Seoane")
    assert not looks_like_author_line("Scaling Categorical Flow Maps")
    assert not looks_like_author_line("Hessian Surgery: Class-Targeted Post-Hoc Rebalancing via Hessian Spike")


def test_author_line_of_names_typed_without_commas() -> None:
    # Eight words are no name, but split into three names they make an author line (a title
    # line may be missing before it); the same shape with a word no name has is not one.
    assert looks_like_author_line("James R. Kirk Robert E. Wray Peter Lindes")
    assert not looks_like_author_line("James R. Kirk Robert E. Wray Peter lindes")
    assert not looks_like_author_line("James R. Kirk Robert E. Wray Peter L1ndes")
    # No unambiguous split: one name of seven words, too long to be a name.
    seven = "Alpha Beta Gamma Delta Epsilon Zeta Eta"
    assert parse_authors(seven).unsure == (seven,)
    assert not looks_like_author_line(seven)
    assert looks_like_author_line("Ann de la Cruz, Bo van der Berg et al (+3 more)")


def test_rejoin_rules() -> None:
    assert rejoin(["Large", "Language Models"]) == "Large Language Models"
    assert rejoin(['LM "', 'reasoning", often']) == 'LM "reasoning", often'
    assert rejoin(["the per-", "token loss"]) == "the per-token loss"
    assert rejoin(["a value", ", then"]) == "a value, then"


def test_other_files_still_build_when_one_is_unknown(tmp_path: Path) -> None:
    from generator.sources import read_all

    (tmp_path / "seeds").mkdir()
    for name in ("unknown.txt", "tmlr_crlf.txt"):
        (tmp_path / "seeds" / name).write_bytes((READERS / name).read_bytes())
    problems = Problems()
    raws = read_all(tmp_path / "seeds", tmp_path, problems)
    assert [r.path for r in raws] == ["seeds/tmlr_crlf.txt"]
    assert [str(p) for p in problems.errors] == [
        "seeds/unknown.txt:1: error: not a digest format I know (expected a TMLR digest e-mail, text "
        "copied from a paper-listing page, an arXiv mailing-list e-mail, an arXiv feed or a .bib file); skipped"
    ]


@pytest.mark.parametrize("name", ["listing_quirks.txt", "tmlr_quirks.txt", "arxiv_email.txt", "arxiv_rss.xml",
                                  "arxiv_atom_feed.xml", "arxiv_api.xml", "library.bib"])
def test_every_record_read_lists_its_own_id_as_its_alias(name: str) -> None:
    """What merge starts from: a record no other is folded into is its own only alias."""
    papers, _ = read(name)
    assert len(papers) >= 2
    assert [p.aliases for p in papers] == [(p.id,) for p in papers]
