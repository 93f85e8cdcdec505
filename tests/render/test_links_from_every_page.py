"""The links a paper page draws point where they should from wherever they are drawn: a tag chip,
a source's digest; and a paper that changed (a new object under the same id, as under `serve`) is
drawn anew."""

from __future__ import annotations

import dataclasses
import datetime as dt

from generator.config import Config
from generator.enrich.bibtex import with_entries
from generator.model import Digest, Library, Paper, Related, SourceRef
from generator.render import render_paper_files, shown_neighbours
from generator.render.chips import chip_nav, chips
from generator.render.graph import neighbour
from generator.render.links import digest_md, paper_md, url_from
from tests.conftest import ROOT, render_context


def paper(pid: str, title: str, tags: tuple[str, ...] = (), related: tuple[Related, ...] = ()) -> Paper:
    return Paper(id=pid, title=title, authors=("Ann Lee", "Bo Li"), abstract="", origin=SourceRef("seeds/a.txt", 1),
                 date=dt.date(2025, 1, 2), slug=pid, key=f"{pid}2025", tags=tags, related=related)


def test_a_chip_links_to_its_tag_page_from_wherever_it_is_drawn() -> None:
    p = paper("alpha", "Alpha", tags=("Graphs", "Vision"))
    slugs = {"Graphs": "graphs", "Vision": "vision"}
    assert 'href="../../tags/graphs/"' in chips(p, "papers/alpha/index.md", slugs)
    assert 'href="tags/graphs/"' in chips(p, "index.md", slugs)
    assert 'href="graphs/"' in chips(p, "tags/index.md", slugs)
    # The tag's own page: the chip links to itself, the other one to its sibling.
    own = chips(p, "tags/graphs/index.md", slugs)
    assert 'href="./"' in own and 'href="../vision/"' in own
    assert 'href="../../tags/graphs/"' in chips(p, "papers/beta/index.md", slugs)


def test_the_sources_of_a_paper_page_link_to_their_digests_pages() -> None:
    digests = [Digest("seeds/a.txt", "listing", "A digest", None, "none", ("alpha",), "a-digest"),
               Digest("seeds/b.txt", "listing", "B <digest>", None, "none", ("alpha",), "b-digest")]
    p = dataclasses.replace(paper("alpha", "Alpha"), sources=(SourceRef("seeds/a.txt", 3), SourceRef("seeds/b.txt", 7),
                                                              SourceRef("seeds/gone.txt", 9)))
    library = with_entries(Library(papers=[p], digests=digests))
    config = Config(root=ROOT, build_dir=ROOT, seeds_dir=ROOT, content_dir=ROOT, registry_path=ROOT / "citekeys.yml")
    page = render_paper_files(library.papers[0], render_context(library, config), {})["papers/alpha/index.md"]
    assert url_from("papers/alpha/index.md", "digests/a-digest/index.md") == "../../digests/a-digest/"
    assert ('<li><a href="../../digests/a-digest/">A digest</a>, line 3</li>\n'
            '<li><a href="../../digests/b-digest/">B &#60;digest&#62;</a>, line 7</li>\n'
            "<li>gone.txt, line 9</li>") in page


def test_a_tags_chip_and_a_digests_link_are_made_once_for_every_paper_page() -> None:
    """The context's chips and digest links are what each paper page would draw for itself, and
    the pages draw them."""
    digests = [Digest("seeds/a.txt", "listing", "A <digest>", None, "none", ("alpha", "beta"), "a-digest")]
    papers = [dataclasses.replace(paper(pid, pid.title(), tags=tags), sources=(SourceRef("seeds/a.txt", 3),))
              for pid, tags in (("alpha", ("Graphs", "vision")), ("beta", ("Graphs", "Zebra & co")))]
    library = with_entries(Library(papers=papers, digests=digests))
    config = Config(root=ROOT, build_dir=ROOT, seeds_dir=ROOT, content_dir=ROOT, registry_path=ROOT / "citekeys.yml")
    ctx = render_context(library, config)
    assert ctx.paper_chips == {"Graphs": '<a href="../../tags/graphs/" class="md-tag">Graphs</a>',
                               "vision": '<a href="../../tags/vision/" class="md-tag">vision</a>',
                               "Zebra & co": '<a href="../../tags/zebra-co/" class="md-tag">Zebra &#38; co</a>'}
    assert ctx.tag_lines["Zebra & co"] == '  - "Zebra &amp; co"'
    link = '<a href="../../digests/a-digest/">A &#60;digest&#62;</a>'
    assert ctx.digest_links == {"seeds/a.txt": link}
    for p in library.papers:
        me = paper_md(p)
        assert chip_nav(p, ctx.paper_chips) == chips(p, me, ctx.tag_slugs)
        assert url_from(me, digest_md(digests[0])) in link
        page = render_paper_files(p, ctx, {})[me]
        assert chips(p, me, ctx.tag_slugs) in page and f"<li>{link}, line 3</li>" in page
        assert "".join(ctx.tag_lines[t] + "\n" for t in p.tags) in page.split("\n---\n")[0] + "\n"


def test_a_changed_paper_is_drawn_anew() -> None:
    """Under `serve` a paper changes into a new object under the same id: a new build's context
    draws it anew on the pages of the papers related to it."""
    old = paper("gamma", "Old title", related=(Related("alpha", 0.5, "x"),))
    assert neighbour(old).title == "Old title"
    new = dataclasses.replace(old, title="New <b>title</b>", related=())
    shown = neighbour(new)
    assert shown.title == "New &#60;b&#62;title&#60;/b&#62;" and shown.near == frozenset()
    assert shown.href == "../gamma/"
    alpha = paper("alpha", "Alpha", related=(Related("gamma", 0.5, "shared terms: x"),))
    config = Config(root=ROOT, build_dir=ROOT, seeds_dir=ROOT, content_dir=ROOT, registry_path=ROOT / "citekeys.yml")
    pages = []
    for gamma in (old, new):
        library = with_entries(Library(papers=[alpha, gamma]))
        ctx = render_context(library, config)
        first = library.papers[0]
        near = shown_neighbours([first], ctx.papers_by_id)
        pages.append(render_paper_files(first, ctx, near)["papers/alpha/index.md"])
    related = '<li><a href="../gamma/">{}</a>'
    assert related.format("Old title") in pages[0]
    assert related.format("New &#60;b&#62;title&#60;/b&#62;") in pages[1] and "Old title" not in pages[1]
