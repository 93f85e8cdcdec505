"""Search by identifier, as a person does it: an arXiv id or a DOI typed into the search box finds
the paper, and the result's excerpt reads as text (the citation key named, not run into it).

The site is built from real arXiv digests (tests/fixtures/real/): an API result and two e-mails."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from browser_site import Served, mkdocs_build, serve
from browser_ui import Recorder, goto, search

from tests.conftest import FIXTURES, ROOT, copy_project

pytestmark = pytest.mark.browser

REAL = FIXTURES / "real"
HDDL = "HDDL 2.1: Towards Defining a Formalism and a Semantics for Temporal HTN Planning"
LUTTINGER = "Particle partition entanglement of bosonic Luttinger liquids"


@pytest.fixture(scope="module")
def arxiv_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    project = tmp_path_factory.mktemp("arxiv-project")
    copy_project(project, seeds=False)
    for name in ("arxiv-api-del-maestro.xml", "arxiv-email-cs-2023-06-13.txt"):
        shutil.copy(REAL / name, project / "seeds" / name)
    (project / "generator").symlink_to(ROOT / "generator", target_is_directory=True)
    served = serve("arxiv", project / "site", "/")
    try:
        mkdocs_build(project, served)
        yield served
    finally:
        served.stop()


@pytest.fixture
def arxiv_page(browser: Any, arxiv_site: Served) -> Iterator[Any]:
    rec = Recorder.open(browser, arxiv_site)
    yield rec.page
    rec.close()
    rec.assert_clean()


@pytest.mark.parametrize(("query", "title"), [
    ("2306.07353", HDDL),  # a new-style arXiv id, from the e-mail
    ("1412.6529", LUTTINGER),  # from the API result
    ("10.1103/PhysRevB.91.184507", LUTTINGER),  # its DOI
], ids=["arxiv-id-email", "arxiv-id-api", "doi"])
def test_an_identifier_finds_the_paper(arxiv_page: Any, arxiv_site: Served, query: str, title: str) -> None:
    goto(arxiv_page, arxiv_site, "all/")
    titles = search(arxiv_page, query, expect=title)
    assert titles[0] == title, f"{query!r} gave {titles}"


def test_the_excerpt_does_not_run_the_key_into_the_abstract(arxiv_page: Any, arxiv_site: Served) -> None:
    goto(arxiv_page, arxiv_site, "all/")
    search(arxiv_page, "Luttinger bipartition", expect=LUTTINGER)
    item = arxiv_page.locator(".md-search-result__item", has=arxiv_page.get_by_role(
        "heading", name=LUTTINGER, exact=True)).first
    excerpt = " ".join(item.locator("p").first.inner_text().split())
    # Title, authors, then the abstract: no citation key between them.
    assert "C. M. Herdman, A. Del Maestro We consider the Rényi entanglement entropy" in excerpt, excerpt
    assert "herdman2014particle" not in excerpt
