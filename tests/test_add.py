"""`readinglist add` with what researchers receive: replacements are told apart from new papers."""

from __future__ import annotations

import datetime as dt
import html
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.add import add_digests
from generator.build import build
from generator.config import Config
from tests.conftest import FIXTURES, SEEDS
from tests.test_cli import run


def test_add_counts_replacements_apart(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    email, rss = FIXTURES / "readers" / "arxiv_email.txt", FIXTURES / "readers" / "arxiv_rss.xml"
    report = add_digests(config, [email, rss], today=dt.date(2026, 12, 3))
    assert report.lines(config.root) == [
        # Dated by the e-mail's own date; its replacement of 2306.06201 is of a paper it brings.
        "seeds/2023-06-12-arxiv_email.txt: 3 papers (3 new, 0 already in the list), 2 arXiv replacements: "
        "1 updating a paper in the list, 1 of a paper not in the list, left out (extra.readinglist.keep_replacements: "
        "true keeps them)",
        "seeds/2023-06-12-arxiv_rss.xml: 2 papers (1 new, 1 already in the list), 1 arXiv replacement, "
        "updating a paper in the list",
    ]
    assert [str(p) for p in report.problems] == []


# What people save by mistake, or receive from other tools: none of it holds a paper the readers know.
NOT_A_DIGEST = ("not a digest format I know (expected a TMLR digest e-mail, text copied from a paper-listing "
                "page, an arXiv mailing-list e-mail, an arXiv feed or a .bib file); skipped")
# A 1x1 PNG, as a screenshot saved beside the digests would start.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478"
                    "9c63f8ffff3f0005fe02fe0def46b80000000049454e44ae426082")
EMAIL = FIXTURES / "readers" / "arxiv_email.txt"


def _no_notes(config: Config) -> Config:
    """The project without the example list's notes (their papers are not in these lists)."""
    shutil.rmtree(config.notes_dir)
    return config


@pytest.mark.parametrize("name,data,message", [
    ("figure.png", PNG, "warning: binary file (not text), skipped"),
    ("empty.txt", b"", "warning: empty file, skipped"),
    ("blank.txt", b"  \n\n\t\n", "warning: empty file, skipped"),
    # The Markdown digests of two tools: arxiv_rss_bot's README and cv-arxiv-daily's table.
    ("arxiv-rss-bot.md", None, f"1: error: {NOT_A_DIGEST}"),
    ("cv-arxiv-daily.md", None, f"1: error: {NOT_A_DIGEST}"),
], ids=["png", "empty", "blank", "arxiv-rss-bot", "cv-arxiv-daily"])
def test_a_file_that_holds_no_paper_is_not_copied(project: Callable[..., Config], tmp_path: Path, name: str,
                                                  data: bytes | None, message: str) -> None:
    config = project(seeds=False)
    given = tmp_path / "downloads" / name
    given.parent.mkdir()
    given.write_bytes(data if data is not None else (FIXTURES / "not-digests" / name).read_bytes())
    proc = run(config, "add", str(given))
    assert proc.returncode == 1
    assert proc.stdout == f"{given}: holds no paper; not copied into seeds/\n"
    sep = ":" if message[0].isdigit() else ": "
    assert proc.stderr == f"{given}{sep}{message}\n"
    assert list(config.seeds_dir.iterdir()) == []


@pytest.mark.parametrize("source,name,stored,titles", [
    (EMAIL, "nov-digest.md", "2023-06-12-nov-digest.md",
     ["Robust Federated Learning for Heterogeneous Clients – A Variance-Reduced Approach",
      "Scaling Laws for Sparse Mixture-of-Experts", "A Cross-Listed Paper on Graph Networks"]),
    (FIXTURES / "mixed" / "my-library.bib", "refs.json", "2026-12-03-refs.json",
     ["Attention Is All You Need", "Robust Federated Learning for Heterogeneous Clients – A Variance-Reduced "
      "Approach", "Schrödinger Bridges for Generative Modelling", "Untitled paper by Ann Nobody",
      "The Entry After a Broken One"]),
    (FIXTURES / "mixed" / "0000-arxiv-cs-lg.txt", "excerpt", "2026-07-01-excerpt",
     ["KL for a KL: On-Policy Distillation with Control Variate Baseline",
      "Defending Against Unforeseen Failure Modes with Latent Adversarial Training"]),
], ids=["md", "json", "no-extension"])
def test_a_digest_under_any_name_is_read_by_the_next_build(project: Callable[..., Config], tmp_path: Path,
                                                           source: Path, name: str, stored: str,
                                                           titles: list[str]) -> None:
    config = _no_notes(project(seeds=False))
    given = tmp_path / "downloads" / name
    given.parent.mkdir()
    shutil.copy(source, given)
    report = add_digests(config, [given], today=dt.date(2026, 12, 3))
    assert [item.stored.name for item in report.files if item.stored] == [stored]
    result = build(config, write=False)
    [digest] = result.library.digests
    by_id = result.library.by_id()
    assert (digest.name, [by_id[i].title for i in digest.paper_ids]) == (stored, titles)


def test_add_a_folder_adds_the_digests_inside(project: Callable[..., Config], tmp_path: Path) -> None:
    config = project(seeds=False)
    mail = tmp_path / "mail"
    (mail / "june").mkdir(parents=True)
    shutil.copy(FIXTURES / "readers" / "arxiv_rss.xml", mail / "cs.LG.rss.xml")
    shutil.copy(FIXTURES / "readers" / "arxiv_api.xml", mail / "june" / "api.xml")
    shutil.copy(SEEDS / "001_68714a788c6fb328.txt", mail / "listing.txt")
    (mail / "listing.yml").write_text("date: 2026-12-01\n")  # travels with its digest
    (mail / "README.md").write_text("Digests I saved.\n")  # no digest, by name: left where it is
    (mail / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")  # hidden: left where it is
    proc = run(config, "add", str(mail))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "seeds/2023-06-12-cs.LG.rss.xml: 2 papers (2 new, 0 already in the list), 1 arXiv replacement "
        "of a paper not in the list, left out (extra.readinglist.keep_replacements: true keeps them)",
        "seeds/2012-02-01-api.xml: 2 papers (2 new, 0 already in the list)",
        "seeds/2026-12-01-listing.txt: 30 papers (30 new, 0 already in the list)",
    ]
    assert proc.stderr.splitlines() == [
        "seeds/2026-12-01-listing.txt:204: warning: record has no title line (the line after the subject is "
        "the author list); using a placeholder title"]
    assert sorted(p.name for p in config.seeds_dir.iterdir()) == [
        "2012-02-01-api.xml", "2023-06-12-cs.LG.rss.xml", "2026-12-01-listing.txt", "2026-12-01-listing.yml"]
    empty = tmp_path / "nothing-here"
    empty.mkdir()
    proc = run(config, "add", str(empty))
    assert (proc.returncode, proc.stdout) == (1, f"{empty}: a folder with no digest files in it\n")


def test_a_replacement_only_email(project: Callable[..., Config], tmp_path: Path) -> None:
    """arXiv's e-mail on a day with only replacements: add says how to keep them, and the digest's
    page offers no empty downloads."""
    lines = EMAIL.read_text().splitlines(keepends=True)
    given = tmp_path / "replacements.txt"
    given.write_text("".join(lines[:10] + lines[55:]))  # the header and the two replacements
    config = _no_notes(project(seeds=False))
    report = add_digests(config, [given], today=dt.date(2026, 12, 3))
    assert report.lines(config.root) == [
        "seeds/2023-06-12-replacements.txt: no papers, 2 arXiv replacements of papers not in the list, left out "
        "(extra.readinglist.keep_replacements: true keeps them)"]
    result = build(config, write=False)
    [digest] = result.library.digests
    page = html.unescape(result.files[f"digests/{digest.slug}/index.md"])
    assert ("<p>Source file <code>2023-06-12-replacements.txt</code> · date 2023-06-12 (from the text) · "
            "no papers</p>") in page
    assert ("<p>Nothing from this digest is in the list: the arXiv replacements it announced are of papers the "
            "list does not have (extra.readinglist.keep_replacements: true keeps them), or its papers are "
            "hidden by notes.</p>") in page
    assert "<ol>" not in page and "BibTeX" not in page
    own = (f"digests/{digest.slug}.", f"digests/{digest.slug}/")
    assert [f for f in result.files if f.startswith(own)] == [f"digests/{digest.slug}/index.md"]
    assert "2 arXiv replacements of papers not in the list left out (extra.readinglist.keep_replacements: " \
           "true keeps them)" in result.summary()


# The arXiv e-mail without its header (a few records copied out of it): no date in its text.
def _excerpt() -> str:
    return "".join(EMAIL.read_text().splitlines(keepends=True)[10:28])


@pytest.mark.parametrize("files", [
    {"000_1b8355006bbdabc6.txt": SEEDS / "000_1b8355006bbdabc6.txt"},  # TMLR digest e-mail
    {"listing.txt": SEEDS / "001_68714a788c6fb328.txt", "listing.yml": "date: 2026-12-01\n",
     # a note that accepts the record without a title line (or `title:` to give it one)
     "../content/notes/grunefeld2026untitled.md": "---\naccept_warnings: true\n---\n"},
    {"cs.txt": EMAIL},
    {"2026-12-04-excerpt.txt": _excerpt(), "2026-12-04-excerpt.yml": "date: 2023-06-12\n"},
    {"cs.LG.rss.xml": FIXTURES / "readers" / "arxiv_rss.xml"},
    {"cs.CL.atom.xml": FIXTURES / "readers" / "arxiv_atom_feed.xml"},
    {"api.xml": FIXTURES / "readers" / "arxiv_api.xml"},
    {"my-library.bib": FIXTURES / "mixed" / "my-library.bib",
     "../content/notes/notitle2024.md": "---\ntitle: A Title the Curator Found\n---\n"},
], ids=["tmlr", "listing", "arxiv-email", "arxiv-excerpt", "rss", "atom", "api", "bibtex"])
def test_check_strict_passes_for_every_supported_input(project: Callable[..., Config],
                                                      files: dict[str, Path | str]) -> None:
    config = _no_notes(project(seeds=False))
    config.notes_dir.mkdir()
    for name, what in files.items():
        (config.seeds_dir / name).write_bytes(what.read_bytes() if isinstance(what, Path) else what.encode())
    result = build(config, write=False)
    assert [str(p) for p in result.problems] == []
    assert result.library.papers


def test_a_sidecar_gives_the_date_quietly(project: Callable[..., Config]) -> None:
    config = _no_notes(project(seeds=False))
    (config.seeds_dir / "2026-12-04-excerpt.txt").write_text(_excerpt())
    guessed = build(config, write=False)
    assert [str(p) for p in guessed.problems] == [
        "seeds/2026-12-04-excerpt.txt: warning: digest has no date in its text; using 2026-12-04 from its file "
        "name (add `date:` to 2026-12-04-excerpt.yml to confirm it)"]
    (config.seeds_dir / "2026-12-04-excerpt.yml").write_text("date: 2023-06-12\n")
    told = build(config, write=False)
    assert [str(p) for p in told.problems] == []
    assert [(d.date, d.date_source) for d in told.library.digests] == [
        (dt.date(2023, 6, 12), "2026-12-04-excerpt.yml")]


def test_no_file_in_seeds_sits_unread_without_a_word(project: Callable[..., Config]) -> None:
    config = project()
    (config.seeds_dir / "README.md").write_text("What these files are.\n")  # `init` writes one: not read
    (config.seeds_dir / "2025-08-08-old.yml").write_text("date: 2025-08-08\n")  # its digest was deleted
    (config.seeds_dir / "saved.md").write_text("Buy milk.\nCall Bob.\n")
    result = build(config, write=False)
    assert [str(p) for p in result.problems] == [
        "seeds/2025-08-08-old.yml: warning: no digest beside this file, so nothing reads it (a date sidecar has "
        "its digest's name: 2025-08-08-cs-lg.txt and 2025-08-08-cs-lg.yml)",
        f"seeds/saved.md:1: error: {NOT_A_DIGEST}"]


def test_a_note_answers_the_warnings_of_its_record(project: Callable[..., Config]) -> None:
    """`title:` answers a missing title, and the citations then carry it; `accept_warnings: true`
    keeps a record as it is; `hidden: true` leaves it out. Other records' warnings stay."""
    config = _no_notes(project(seeds=False))
    config.notes_dir.mkdir()
    shutil.copy(FIXTURES / "readers" / "library.bib", config.seeds_dir / "library.bib")
    untitled = ("seeds/library.bib:35: warning: entry 'notitle2024' has no title; kept, with a placeholder title "
                "on its page")
    broken = ("seeds/library.bib:44: error: BibTeX syntax error (premature end of file) in the entry that "
              "starts at line 41; entry skipped")
    assert [str(p) for p in build(config, write=False).problems] == [untitled, broken]
    note = config.notes_dir / "notitle2024.md"
    note.write_text("---\ntitle: A Title the Curator Found\n---\n")
    titled = build(config, write=False)
    assert [str(p) for p in titled.problems] == [broken]  # an error is no record's warning to answer
    paper = next(p for p in titled.library.papers if p.key == "notitle2024")
    assert (paper.title, paper.title_missing) == ("A Title the Curator Found", False)
    assert "    title = {A Title the Curator Found},\n" in paper.bibtex
    for accepting in ("accept_warnings: true", "hidden: true"):
        note.write_text(f"---\n{accepting}\n---\n")
        result = build(config, write=False)
        assert [str(p) for p in result.problems] == [broken]
        assert [p.title for p in result.library.papers if p.key == "notitle2024"] == (
            ["Untitled paper by Ann Nobody"] if accepting.startswith("accept") else [])
