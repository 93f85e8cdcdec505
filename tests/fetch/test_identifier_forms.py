"""What `readinglist add` takes for an identifier, and what it leaves to the file handling."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.fetch import parse, split


@pytest.mark.parametrize("given,kind,value", [
    ("2306.06130", "arxiv", "2306.06130"),
    ("2306.06130v2", "arxiv", "2306.06130v2"),
    ("0704.0001", "arxiv", "0704.0001"),
    ("arXiv:2306.06130", "arxiv", "2306.06130"),
    ("arxiv: 2306.06130V1", "arxiv", "2306.06130v1"),
    ("arXiv:hep-th/9901001v2", "arxiv", "hep-th/9901001v2"),
    ("hep-th/9901001", "arxiv", "hep-th/9901001"),
    ("math.gt/0309136", "arxiv", "math.GT/0309136"),
    ("https://arxiv.org/abs/2306.06130v1", "arxiv", "2306.06130v1"),
    ("http://arxiv.org/abs/cond-mat/0607501", "arxiv", "cond-mat/0607501"),
    ("https://arxiv.org/pdf/2306.06130", "arxiv", "2306.06130"),
    ("https://arxiv.org/pdf/2306.06130v1.pdf", "arxiv", "2306.06130v1"),
    ("arxiv.org/abs/2306.06130", "arxiv", "2306.06130"),
    ("https://export.arxiv.org/abs/2306.06130", "arxiv", "2306.06130"),
    ("10.1103/PhysRevB.85.115117", "doi", "10.1103/PhysRevB.85.115117"),
    ("doi:10.1145/3442188.3445922", "doi", "10.1145/3442188.3445922"),
    ("https://doi.org/10.1145/3442188.3445922", "doi", "10.1145/3442188.3445922"),
    ("http://dx.doi.org/10.1007%2F978-3-031-57963-9_5", "doi", "10.1007/978-3-031-57963-9_5"),
    # arXiv's own DataCite DOI names the preprint: asked of arXiv.
    ("10.48550/arXiv.2306.06130", "arxiv", "2306.06130"),
    ("https://doi.org/10.48550/arXiv.hep-th/9901001", "arxiv", "hep-th/9901001"),
    ("https://openreview.net/forum?id=6oXNpKuBDK", "openreview", "6oXNpKuBDK"),
    ("https://openreview.net/forum?id=6oXNpKuBDK&noteId=abcDEF123", "openreview", "6oXNpKuBDK"),
    ("https://openreview.net/pdf?id=6oXNpKuBDK", "openreview", "6oXNpKuBDK"),
    ("openreview.net/forum?id=6oXNpKuBDK", "openreview", "6oXNpKuBDK"),
])
def test_identifier_forms(given: str, kind: str, value: str) -> None:
    ident = parse(given)
    assert ident is not None
    assert (ident.kind, ident.value, ident.given) == (kind, value, given)


@pytest.mark.parametrize("given", ["2306.0613", "2313.06130", "1401.12345", "digest.txt", "10.1103", "https://example.org/abs/2306.06130",
                                   "https://openreview.net/group?id=ICLR.cc", "https://arxiv.org/list/cs.LG/new",
                                   "arXiv:", "cs.LG"])
def test_not_an_identifier(given: str) -> None:
    assert parse(given) is None


def test_an_existing_path_is_a_file_whatever_it_looks_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "2306.06130").write_text("a digest saved under an arXiv id's name")
    identifiers, files = split(["2306.06130", "1412.6529", "missing.txt", "10.1103/PhysRevB.85.115117"])
    assert [(i.kind, i.value) for i in identifiers] == [("arxiv", "1412.6529"), ("doi", "10.1103/PhysRevB.85.115117")]
    assert files == ["2306.06130", "missing.txt"]
