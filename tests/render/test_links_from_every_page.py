"""The per-build caches of the paper-page render give what an uncached call gives: a chip or a
link cached for one page is never reused where it would point elsewhere, and a paper that
changed (a new object under the same id, as under `serve`) is drawn anew."""

from __future__ import annotations

import dataclasses
import datetime as dt

from generator.model import Digest, Paper, Related, SourceRef
from generator.render.chips import chips
from generator.render.graph import neighbour
from generator.render.links import url_from
from generator.render.paper import _digest_url
from generator.render.related import _item_head


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


def test_the_digest_link_of_a_paper_page_is_the_one_url_from_gives() -> None:
    d = Digest("seeds/a.txt", "listing", "A digest", None, "none", ("alpha",), "a-digest")
    for me in ("papers/alpha/index.md", "papers/beta/index.md", "index.md", "papers/sub/x/index.md", "all.md"):
        assert _digest_url(me, d) == url_from(me, "digests/a-digest/index.md")


def test_a_changed_paper_is_drawn_anew() -> None:
    old = paper("gamma", "Old title", related=(Related("alpha", 0.5, "x"),))
    assert neighbour(old).title == "Old title" and neighbour(old) is neighbour(old)
    assert "Old title" in _item_head(neighbour(old))
    new = dataclasses.replace(old, title="New <b>title</b>", related=())
    shown = neighbour(new)
    assert shown.title == "New &#60;b&#62;title&#60;/b&#62;" and shown.near == frozenset()
    assert "New &#60;b&#62;" in _item_head(shown) and "Old title" not in _item_head(shown)
    assert shown.href == "../gamma/"
