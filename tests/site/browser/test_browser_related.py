"""Related papers and the pictures: the list on a paper page, its neighbourhood graph, the map."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, h1, link_targets, path_of

pytestmark = pytest.mark.browser

ROUTING = "papers/flexible-routing-via-uncertainty-decomposition/"  # five related papers


def _papers(site: Served) -> dict[str, dict[str, Any]]:
    return {p["key"]: p for p in json.loads(site.file("papers.json").read_text("utf-8"))}


def _svg_links(page: Any, selector: str) -> list[list[str]]:
    """[resolved xlink:href, <title>] of every node link in the SVG (SVG `a.href` is not a string)."""
    return list(page.evaluate("""sel => [...document.querySelectorAll(sel)].map(a => [
        new URL(a.getAttribute('xlink:href') || a.getAttribute('href'), location.href).href,
        a.querySelector('title').textContent])""", selector))


def test_related_list_links_the_related_keys_in_order_and_graph_nodes_open_them(page: Any, site: Served) -> None:
    papers = _papers(site)
    me = next(p for p in papers.values() if p["page"] == ROUTING)
    want = [papers[r["key"]] for r in me["related"]]
    assert len(want) == 5
    goto(page, site, ROUTING)
    links = link_targets(page, "h2#related-papers ~ ol > li > a")
    assert [href for _, href, _ in links] == [site.url(p["page"]) for p in want]
    assert [text for text, _, _ in links] == [p["title"] for p in want]
    assert [heading for _, _, heading in links] == [p["title"] for p in want]
    whys = page.locator("h2#related-papers ~ ol > li .rl-why").all_inner_texts()
    assert [w.split(" · score")[0] for w in whys] == [r["why"] for r in me["related"]]
    # The graph: this paper and the same five, each node titled with the paper it opens.
    nodes = _svg_links(page, ".rl-graph-svg a.rl-node")
    assert sorted(href for href, _ in nodes) == sorted([site.url(ROUTING)] + [site.url(p["page"]) for p in want])
    title_of = {site.url(p["page"]): p["title"] for p in want}
    assert all(title == f"{title_of[href]} (score {r['score']:.2f})"
               for (href, title) in nodes if href in title_of
               for r in me["related"] if site.url(papers[r["key"]]["page"]) == href)
    first = want[0]
    node = page.locator(f".rl-graph-svg a.rl-node:not(.rl-node--self)[*|href$='/{first['page'].split('/')[1]}/']")
    assert node.count() == 1
    click_and_wait(page, node.locator("circle"), site, first["page"])
    assert path_of(page, site) == first["page"]
    assert h1(page) == first["title"]


def test_map_has_a_node_per_paper_a_legend_that_counts_them_and_nodes_open_pages(page: Any, site: Served) -> None:
    papers = _papers(site)
    assert len(papers) == 41
    goto(page, site, "map/")
    nodes = _svg_links(page, ".rl-map-svg a.rl-node--map")
    assert len(nodes) == 41
    assert sorted(href for href, _ in nodes) == sorted(site.url(p["page"]) for p in papers.values())
    by_page = {site.url(p["page"]): p["title"] for p in papers.values()}
    assert all(title == by_page[href] for href, title in nodes)
    # Each legend colour with its count: that many dots of that colour, and no colour left out.
    fills = Counter(page.evaluate("""() => [...document.querySelectorAll('.rl-map-svg a.rl-node--map circle')]
        .map(c => getComputedStyle(c).fill)"""))
    legend = page.evaluate("""() => [...document.querySelectorAll('.rl-map + ul li')].map(li => [
        getComputedStyle(li.querySelector('.rl-swatch')).backgroundColor,
        Number(li.textContent.match(/\\((\\d+)\\)\\s*$/)[1])])""")
    assert len(legend) >= 5
    assert dict(Counter({colour: n for colour, n in legend})) == dict(fills)
    legend_links = link_targets(page, ".rl-map + ul li a")
    assert legend_links and all(text == heading for text, _, heading in legend_links)
    target, title = nodes[0]
    path = target[len(site.base):]
    click_and_wait(page, page.locator(".rl-map-svg a.rl-node--map circle").first, site, path)
    assert h1(page) == title
