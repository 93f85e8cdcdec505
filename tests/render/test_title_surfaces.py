r"""A title with TeX reads the same wherever it appears: the paper page's heading, `<title>` and
Highwire `citation_title`, the home page, All papers, its tag page, the feed, papers.json (so
search), CSL-JSON and RIS. One decoding (enrich/display.py): math as Unicode text, no TeX left.
The BibTeX entry alone keeps the TeX, in math mode.

Compared as text, as a reader sees it: each surface's markup and entities taken off.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.build import build
from generator.config import Config, load_config
from generator.enrich import bibtex
from generator.enrich.bibtex import with_entries
from generator.enrich.display import title_text
from generator.model import Digest, Library, Paper, SourceRef
from generator.render import render_paper_files, shown_neighbours
from generator.render.csl import csl_item
from generator.render.exports import paper_records, papers_json
from generator.render.feeds import render_feeds
from generator.render.indexes import render_all_pages, render_home
from generator.render.ris import ris_from_item
from generator.render.rows import entries
from generator.render.tagnames import all_tag_slugs
from generator.render.tags import render_tag_pages
from generator.sources.tex import tex_paragraphs
from tests.conftest import copy_project, page_h1, render_context

ATOM = "{http://www.w3.org/2005/Atom}"
_LINK_MD = re.compile(r"\[((?:[^\]\\]|\\.)*)\]\(([^)\s]*)\)")
_LINK_HTML = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.S)


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return load_config(copy_project(tmp_path_factory.mktemp("titles"), seeds=False))


def _text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def link_texts(page: str, slug: str) -> list[str]:
    """The text of every link on `page` (Markdown or HTML) to the paper page `slug`."""
    found = [_text(t) for t, href in _LINK_MD.findall(page) if f"papers/{slug}" in href]
    found += [_text(t) for href, t in _LINK_HTML.findall(page) if f"papers/{slug}" in href]
    return found


def front_matter(page: str) -> tuple[str, str]:
    """A page's `title:` and its Highwire `citation_title`, as the browser reads them."""
    title = re.search(r"^title: (.*)$", page, re.M)
    meta = re.search(r"^rl_cite: (.*)$", page, re.M)
    assert title and meta, page[:400]
    cited = re.search(r'<meta name="citation_title" content="([^"]*)">', json.loads(meta.group(1)))
    assert cited, meta.group(1)
    return html.unescape(json.loads(title.group(1))), html.unescape(cited.group(1))


def surfaces(library: Library, config: Config, paper: Paper) -> dict[str, list[str]]:
    """What each place that shows `paper`'s title shows, as text."""
    ctx = render_context(library, config)
    page = render_paper_files(paper, ctx, shown_neighbours([paper], ctx.papers_by_id))[f"papers/{paper.slug}/index.md"]
    head_title, cited = front_matter(page)
    feed = ET.fromstring(render_feeds(ctx)["feed.xml"])
    record = json.loads(papers_json(paper_records(library)))[0]
    rows = entries(library.papers)
    item = csl_item(paper)
    ris = re.search(r"^TI  - (.*)$", ris_from_item(item), re.M)
    return {
        "heading": [" ".join(page_h1(page).split())],
        "<title>": [head_title], "citation_title": [cited],
        "home": link_texts(render_home(ctx), paper.slug),
        "all papers": link_texts(render_all_pages(library, rows)["all.md"], paper.slug),
        "tag page": link_texts(render_tag_pages(library, all_tag_slugs(library), rows)["tags/t1/index.md"], paper.slug),
        "feed": [e.findtext(f"{ATOM}title") or "" for e in feed.iter(f"{ATOM}entry")],
        "papers.json": [record["title"]], "CSL-JSON": [item["title"]], "RIS": [ris.group(1) if ris else ""],
    }


def library_of(title: str) -> tuple[Library, Paper]:
    origin = SourceRef("seeds/digest.txt", 3)
    paper = Paper("title:x", title, ("Ann Lee", "Bo Chen"), "An abstract.", origin, venue="TMLR",
                  status="accepted", date=dt.date(2025, 3, 4), tags=("T1",), key="lee2025x", slug="lee2025x",
                  sources=(origin,))
    digest = Digest("seeds/digest.txt", "tmlr", "TMLR digest", dt.date(2025, 3, 4), "text", ("title:x",), "d")
    library = with_entries(Library(papers=[paper], digests=[digest], topics=(("T1", "About T1"),)))
    return library, library.papers[0]


def assert_everywhere(library: Library, config: Config, paper: Paper, expected: str) -> None:
    for place, texts in surfaces(library, config, paper).items():
        assert texts, f"{place}: the title is missing"
        assert all(t == expected for t in texts), f"{place}: {texts!r} != {expected!r}"


# Words and TeX as digests carry them: TMLR keeps the TeX as typed, arXiv writes math without `$`.
_PIECES = [
    "Bayesian", "Router", "Calibration", "with", "Friends", "Fast", "Algorithms", "The", "when", "via",
    "Regularized", "LLM", "DeepSeek-R1", "Łukasz", "Café", "5%", "#1", "*bold*", "[link](x)", '"quoted"',
    "<b>", "&", "-", "1.", "x_1", "a^b", "{BERT}", r"\&", r"\%", r"{\L}ukasz", r"M\"{o}bius", r"\emph{Style}",
    r"\alpha-Divergences", r"(1+\varepsilon)-Approximation", r"L^\infty", r"d \gg n", r"\frac{\ell_1}{\ell_2}",
    r"$\alpha$-Divergences", r"$O(n^2)$", r"$\mathbb{R}^d$", r"\mathsf{VISTA}", r"$2 < p < \infty$", r"\log n",
    r"\lambda_\infty", r"(\Delta+1)", r"\{3\}", r"\(x\)", r"$\sqrt{T}$", "$5", r"\unknown", r"$\input{x}$",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_PIECES) | st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "S"]),
                                                    max_size=6), min_size=1, max_size=8))
def test_any_title_reads_the_same_on_every_surface(config: Config, pieces: list[str]) -> None:
    title = " ".join(pieces)
    expected = title_text(title)
    assume(expected)
    library, paper = library_of(title)
    assert_everywhere(library, config, paper, expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([p for p in _PIECES if "unknown" not in p]), min_size=1, max_size=8))
def test_no_tex_is_left_in_a_title(pieces: list[str]) -> None:
    assert "\\" not in title_text(" ".join(pieces))


# The issue's titles and what they read as, everywhere.
@pytest.mark.parametrize(("title", "shown"), [
    (r"Bayesian Router Calibration with \alpha-Divergences & Friends",
     "Bayesian Router Calibration with α-Divergences & Friends"),
    (r"Bayesian Router Calibration with $\alpha$-Divergences \& Friends",
     "Bayesian Router Calibration with α-Divergences & Friends"),
    (r"Fast (1+\varepsilon)-Approximation Algorithms", "Fast (1+ε)-Approximation Algorithms"),
    (r"The L^\infty Learnability of Teachers", "The L^∞ Learnability of Teachers"),
    (r"Ridge Regression when d \gg n", "Ridge Regression when d ≫ n"),
    (r"Sparsity via \frac{\ell_1}{\ell_2} Regularized Least Squares", "Sparsity via ℓ₁/ℓ₂ Regularized Least Squares"),
    (r"\mathsf{VISTA}: Decentralized Machine Learning", "VISTA: Decentralized Machine Learning"),
])
def test_the_issues_titles(config: Config, title: str, shown: str) -> None:
    library, paper = library_of(title)
    assert_everywhere(library, config, paper, shown)


def test_bibtex_keeps_the_math_as_tex_in_math_mode() -> None:
    entry = bibtex.entry_text(library_of(r"The L^\infty Learnability when d \gg n via \frac{\ell_1}{\ell_2}")[1])
    assert r"title = {The {$L^\infty$} Learnability when d {$\gg$} n via {$\frac{\ell_1}{\ell_2}$}}" in entry


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "real"
# Real titles, as arXiv serves them (tests/fixtures/real/README.md): what each reads as everywhere.
REAL_TITLES = {
    "2502.06477": "ARRIVAL: Recursive Framework & ℓ₁-Contraction",
    "2003.05582": "λ_∞ & Maximum Variance Embedding: Measuring and Optimizing Connectivity of A Graph Metric",
    "2204.05874": "Undirected (1+ε)-Shortest Paths via Minor-Aggregates: Near-Optimal Deterministic Parallel & "
                  "Distributed Algorithms",
    "2203.08328": "Tight Lower Bounds for Approximate & Exact k-Center in ℝ^d",
    "2106.00623": "A (2+ϵ)-Approximation Algorithm for Maximum Independent Set of Rectangles",
    "1108.1751": "Efficient Sum-Based Hierarchical Smoothing Under ℓ₁-Norm",
    "0902.1261": "An Approximation Algorithm for l∞-Fitting Robinson Structures to Distances",
    "0909.3346": "Perfect Matchings in O(n log n) Time in Regular Bipartite Graphs",
    "1512.01775": "Approximate nearest neighbor search for ℓ_p-spaces (2<p<∞) via embeddings",
    "2411.04418": "Fully Dynamic (Δ+1) Coloring Against Adaptive Adversaries",
    "1309.0896": "Łukasiewicz mu-Calculus",
    "cs/0611101": "Fourier meets Möbius: fast subset convolution",
    "2509.23615": "Hardness and Algorithmic Results for Roman {3}-Domination",
    "1905.07777": "A type of generalization error induced by initialization in deep neural networks",
}


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("real")
    cfg = load_config(copy_project(root, seeds=False))
    for name in ("arxiv-api-cs-ds-tex-titles.xml", "arxiv-rss-1905.07777-entities.xml"):
        (root / "seeds" / name).write_bytes((FIXTURES / name).read_bytes())
    result = build(cfg, write=False)
    read = [p for p in result.problems.items if p.path.startswith("seeds/")]  # (content/ has the seeds' notes)
    assert not read, read
    return result.files


def test_real_titles_read_the_same_on_every_surface(real: dict[str, str]) -> None:
    records = {r["arxiv"]: r for r in json.loads(real["papers.json"])}
    assert sorted(records) == sorted(REAL_TITLES)
    feed = {e.findtext(f"{ATOM}id"): e.findtext(f"{ATOM}title")
            for e in ET.fromstring(real["feed.xml"]).iter(f"{ATOM}entry")}
    csl = {i["id"]: i for i in json.loads(real["references.json"])}
    ris = dict(re.findall(r"^ID  - (.*)\n(?:.*\n)*?TI  - (.*)$", real["references.ris"], re.M))
    listings = {path: text for path, text in real.items()
                if path in ("index.md", "all.md") or (path.startswith(("tags/", "digests/")) and path.endswith(".md"))}
    for ident, shown in REAL_TITLES.items():
        record = records[ident]
        slug = record["page"].removeprefix("papers/").rstrip("/")
        page = real[f"papers/{slug}/index.md"]
        assert page_h1(page) == shown
        assert front_matter(page) == (shown, shown)
        assert record["title"] == shown
        assert feed[f"http://127.0.0.1:8000/{record['page']}"] == shown
        assert csl[record["key"]]["title"] == shown and ris[record["key"]] == shown
        shown_in = {path: link_texts(text, slug) for path, text in listings.items()}
        assert shown_in["all.md"] == [shown]
        assert all(texts == [shown] * len(texts) for texts in shown_in.values()), shown_in
        assert "\\" not in page_h1(page)


def test_real_titles_keep_their_tex_in_bibtex(real: dict[str, str]) -> None:
    bib = real["references.bib"]
    for title in (r"{ARRIVAL}: Recursive Framework \& {$\ell_1$}-Contraction",
                  r"Efficient Sum-Based Hierarchical Smoothing Under {$\ell_1$}-Norm",
                  r"An Approximation Algorithm for l{$\infty$}-Fitting Robinson Structures to Distances",
                  r"Perfect Matchings in O(n {$\log$} n) Time in Regular Bipartite Graphs",
                  r"Fully Dynamic ({$\Delta$}+1) Coloring Against Adaptive Adversaries"):
        assert "title = {" + title + "}" in bib


def test_an_abstract_keeps_its_less_than_and_ampersand(real: dict[str, str], config: Config) -> None:
    record = next(r for r in json.loads(real["papers.json"]) if r["arxiv"] == "1905.07777")
    item = next(i for i in json.loads(real["references.json"]) if i["id"] == record["key"])
    assert "e.g., any Lp loss for $1 < p < \\infty$, the DNN finds" in item["abstract"]
    page = real[f"{record['page']}index.md"]
    assert "&amp;lt;" not in page and "lt;" not in _text(page)
    # The formula is MathML: 1 < p < ∞ (the `<` an entity inside <mo>).
    assert "<mrow><mn>1</mn><mo>&#60;</mo><mi>p</mi><mo>&#60;</mo><mo>∞</mo></mrow></math>, the DNN finds" in page
    # The issue's feed abstract, `when $\alpha &lt; 1$ &amp; show that` in the XML: the `&` stays.
    library, paper = library_of("A title")
    paper = replace(paper, abstract=tex_paragraphs(r"when $\alpha < 1$ & show that"))
    library = with_entries(Library(papers=[paper], digests=library.digests))
    paper = library.papers[0]
    page = render_paper_files(paper, render_context(library, config), {})["papers/lee2025x/index.md"]
    assert re.search(r"<p>when <math[^>]*><mrow><mi>α</mi><mo>&#60;</mo><mn>1</mn></mrow></math> &#38; show that</p>",
                     page), page
