"""Slugs, citation keys and output paths come only from safe characters, stay bounded and unique,
and a crafted registry entry cannot write outside the build folder."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from pybtex.database import parse_string

from generator.build import build
from generator.config import Config
from generator.enrich import Registry, enrich
from generator.enrich.bibtex import entry_text, with_entries
from generator.enrich.keys import with_suffix
from generator.enrich.text import slugify
from generator.enrich.topics import Taxonomy
from generator.errors import GeneratorError, Problems
from generator.model import Library, Paper, SourceRef
from generator.sources.records import RawDigest
from tests.conftest import page_h1

SAFE_SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@pytest.mark.parametrize(("title", "slug"), [
    ("../../etc/passwd", "etc-passwd"),
    ("CON", "con-paper"),
    ("com7", "com7-paper"),
    ("a/b\\c", "a-b-c"),
    ("", "paper"),
    ("!!! ??? *** ###", "paper"),
    ("<script>alert(1)</script>", "script-alert-1-script"),
    ("\x00\x1b[31mred\u202e", "31mred"),
    ("Ünïcödé Straße", "unicode-strasse"),
    ("index", "index-paper"),
])
def test_slugify_gives_safe_names(title: str, slug: str) -> None:
    assert slugify(title) == slug


def test_slugify_is_bounded_at_a_word_boundary() -> None:
    title = " ".join(["Overlong"] * 37)
    assert slugify(title) == "-".join(["overlong"] * 6)
    assert len(slugify("x" * 300)) == 60
    assert SAFE_SLUG.fullmatch(slugify("x" * 300))


def paper(n: int, title: str, *, author: str = "Ann Alpha", orid: str | None = None) -> Paper:
    return Paper(id=f"openreview:{orid or f'Id{n:06d}'}", title=title, authors=(author,),
                 abstract=f"Abstract {n}.", origin=SourceRef("seeds/x.txt", n), venue="TMLR",
                 status="accepted", date=dt.date(2025, 8, 8), openreview_id=orid or f"Id{n:06d}")


def library(titles: list[str]) -> list[Paper]:
    raw = RawDigest("seeds/x.txt", "tmlr", "x", dt.date(2025, 8, 8), "digest header",
                    [paper(n, t) for n, t in enumerate(titles, start=1)])
    return enrich([raw], Registry(), Problems(), taxonomy=Taxonomy(), taxonomy_problems=Problems()).papers


def test_colliding_slugs_and_keys_all_get_their_own_pages() -> None:
    long_a = "Shared Prefix " * 20 + "Ending One"
    long_b = "Shared Prefix " * 20 + "Ending Two"
    papers = library(["Straße Networks", "Strasse Networks", "CON", "Con Paper", long_a, long_b])
    assert [p.slug for p in papers] == [
        "strasse-networks", "strasse-networks-2", "con-paper", "con-paper-2",
        "-".join(["shared-prefix"] * 4), "-".join(["shared-prefix"] * 4) + "-2",
    ]
    assert [p.key for p in papers] == [
        "alpha2025strasse", "alpha2025strassea", "alpha2025con", "alpha2025cona",
        "alpha2025shared", "alpha2025shareda",
    ]


def test_pages_exist_for_every_colliding_paper(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    records = "".join(
        f"Title: {t}\nAuthors: Ann Alpha\nAbstract: Paper {n}.\nURL: https://openreview.net/forum?id=Col{n:05d}\n---\n"
        for n, t in enumerate(["Straße Networks", "Strasse Networks", "CON", "Con Paper"]))
    (config.seeds_dir / "collide.txt").write_text("Daily TMLR digest for Aug 08, 2025\nAccepted papers\n"
                                                  "===============\n" + records, encoding="utf-8")
    result = build(config)
    assert len(result.library.papers) == 4
    pages = sorted(p.parent.name for p in (config.build_dir / "papers").glob("*/index.md"))
    assert pages == ["con-paper", "con-paper-2", "strasse-networks", "strasse-networks-2"]
    for p in result.library.papers:
        text = (config.build_dir / p.page / "index.md").read_text(encoding="utf-8")
        assert page_h1(text) == p.title


def test_a_thousand_papers_sharing_a_key_never_stop_the_build() -> None:
    taken: set[str] = set()
    keys = []
    for _ in range(1000):
        keys.append(with_suffix("anonymous2025attention", taken))
        taken.add(keys[-1])
    assert len(set(keys)) == 1000
    assert keys[:2] == ["anonymous2025attention", "anonymous2025attentiona"]
    assert keys[-1] == "anonymous2025attention298"


def test_crafted_slug_in_the_registry_cannot_write_outside(project: Callable[..., Config]) -> None:
    config = project()
    build(config)
    text = config.registry_path.read_text(encoding="utf-8")
    first_slug = re.search(r"slug: (\S+)", text)
    assert first_slug is not None
    config.registry_path.write_text(text.replace(f"slug: {first_slug.group(1)}", "slug: ../../../escaped", 1),
                                    encoding="utf-8")
    with pytest.raises(GeneratorError) as err:
        build(config)
    assert str(err.value) == ("refusing to write 'papers/../../../escaped/index.md': not a plain path inside the "
                              "build folder")
    assert not list(config.root.parent.rglob("escaped*"))


@pytest.mark.parametrize("title", [
    "}, author = {x}, note = { @misc{evil,",
    "}}}}} @comment{ {{{{",
    "a } b { c",
    "Title with \\mathsf{VISTA} and {braces}",
    "@misc{evil, title={x}}",
    'Quote " inside',
    "x" * 100_000,
])
def test_bibtex_entry_holds_one_entry_whatever_the_title(title: str) -> None:
    p = Paper(id="t", title=title, authors=("Eve {{ config }}", "Mallory } {"), abstract="", key="k2025x",
              origin=SourceRef("x", 1), url="https://example.org/}{", date=dt.date(2025, 1, 1))
    text = entry_text(with_entries(Library(papers=[p])).papers[0])
    data = parse_string(text, "bibtex")
    assert list(data.entries) == ["k2025x"]
    entry = data.entries["k2025x"]
    assert "note" not in entry.fields and "author" not in entry.fields  # nothing smuggled in
    assert len(entry.persons["author"]) == 2
    assert "{" not in entry.fields["url"] and "}" not in entry.fields["url"]
    # The title's words survive inside the one title field.
    words = re.findall(r"[A-Za-z]{3,}", title)[:5]
    assert all(w in entry.fields["title"] for w in words)


def test_output_paths_from_a_build_are_plain_and_bounded(project: Callable[..., Config]) -> None:
    config = project()
    result = build(config)
    for rel in result.files:
        assert re.fullmatch(r"[a-z0-9._-]+(/[a-z0-9._-]+)*", rel, re.I), rel
        assert all(len(part) <= 80 for part in rel.split("/")), rel
    assert all(Path(config.build_dir, rel).resolve().is_relative_to(config.build_dir) for rel in result.files)


def test_hostile_file_name_is_shown_safely_and_builds(project: Callable[..., Config]) -> None:
    import os

    config = project(seeds=False)
    name = os.fsdecode(b"bad\xff\x1b[31m<b>.txt")
    (config.seeds_dir / name).write_text(
        "Daily TMLR digest for Aug 08, 2025\nAccepted papers\n===============\nTitle: Named Badly\n"
        "Abstract: x.\n---\n", encoding="utf-8")
    result = build(config)
    assert [str(p) for p in result.problems if p.path.startswith("seeds/")] == [
        "seeds/bad\ufffd?[31m<b>.txt:4: warning: record has no 'URL:'"]
    (digest,) = result.library.digests
    assert digest.slug == "bad-31m-b"
    assert "Source file <code>bad\ufffd?&#91;31m&#60;b&#62;.txt</code>" in result.files["digests/bad-31m-b/index.md"]
