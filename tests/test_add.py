"""`readinglist add` with what researchers receive: replacements are told apart from new papers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from generator.add import add_digests
from generator.config import Config
from tests.conftest import FIXTURES


def test_add_counts_replacements_apart(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    email, rss = FIXTURES / "readers" / "arxiv_email.txt", FIXTURES / "readers" / "arxiv_rss.xml"
    report = add_digests(config, [email, rss], today=dt.date(2026, 12, 3))
    assert report.lines(config.root) == [
        # Dated by the e-mail's own date; its replacement of 2306.06201 is of a paper it brings.
        "seeds/2023-06-12-arxiv_email.txt: 3 papers (3 new, 0 already in the list), 2 arXiv replacements "
        "(1 of papers in the list; the others are left out)",
        "seeds/2023-06-12-arxiv_rss.xml: 2 papers (1 new, 1 already in the list), 1 arXiv replacement "
        "(1 of papers in the list; the others are left out)",
    ]
    assert [str(p) for p in report.problems] == []
