"""`readinglist add ID...` against a local stand-in for arXiv, doi.org and OpenReview (replay.py):
what is asked, what is kept in seeds/, what is said, and what the build then makes of it."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.fetch import add_identifiers, parse, services
from generator.fetch.http import Client, FetchError, retry_after
from tests.fetch.replay import IDENT, Replay, Request, serving
from tests.servers import free_port

TODAY = dt.date(2026, 12, 8)


def _list(project: Callable[..., Config]) -> Config:
    config = project(seeds=False)
    shutil.rmtree(config.notes_dir)  # the example list's notes name papers this list has not
    return config


def add(config: Config, replay: Replay | None, *given: str, monkeypatch: pytest.MonkeyPatch,
        interval: str = "0") -> tuple[int, list[str], list[str]]:
    for name, value in (replay.env if replay else {}).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("READINGLIST_ARXIV_INTERVAL", interval)
    said: list[str] = []
    complained: list[str] = []
    idents = [parse(g) for g in given]
    assert all(idents)
    code = add_identifiers(config, idents, today=TODAY, say=said.append, complain=complained.append)  # type: ignore[arg-type]
    return code, said, complained


def seeds(config: Config) -> list[str]:
    return sorted(p.name for p in config.seeds_dir.iterdir())


def entry(config: Config, key: str) -> str:
    """The BibTeX entry of `key` in the built references.bib."""
    text = (config.build_dir / "references.bib").read_text(encoding="utf-8")
    return next("@" + block.lstrip("@") for block in text.split("\n@")
                if block.lstrip("@").split("{", 1)[1].startswith(key + ","))


def asked(replay: Replay) -> list[tuple[str, dict[str, list[str]]]]:
    return [(r.path, r.query) for r in replay.requests]


MARTINEZ = ("'Towards Understanding the Interplay of Generative Artificial Intelligence and the Internet' "
            "(Gonzalo Martínez et al. 2023), new: seeds/2026-12-08-arxiv-2306.06130.xml")


@pytest.mark.parametrize("given,path,query", [
    ("2306.06130", "/api/query", {"id_list": ["2306.06130"], "max_results": ["1"]}),
    ("arXiv:2306.06130v1", "/api/query", {"id_list": ["2306.06130v1"], "max_results": ["1"]}),
    ("https://arxiv.org/abs/2306.06130v1", "/api/query", {"id_list": ["2306.06130v1"], "max_results": ["1"]}),
    ("https://arxiv.org/pdf/2306.06130", "/api/query", {"id_list": ["2306.06130"], "max_results": ["1"]}),
])
def test_each_arxiv_form_asks_arxiv_once(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch,
                                         given: str, path: str, query: dict[str, list[str]]) -> None:
    config = _list(project)
    with serving() as replay:
        code, said, complained = add(config, replay, given, monkeypatch=monkeypatch)
    assert (code, complained) == (0, [])
    name = f"2026-12-08-arxiv-{query['id_list'][0]}.xml"
    assert said == [f"{given}: {MARTINEZ.replace('2026-12-08-arxiv-2306.06130.xml', name)}"]
    assert asked(replay) == [(path, query)]
    # Kept as received, byte for byte.
    assert (config.seeds_dir / name).read_bytes() == (
        IDENT / "arxiv-2306.06130.xml").read_bytes()
    ua = replay.requests[0].headers["user-agent"]
    assert ua == "readinglist/0.1.0"


@pytest.mark.parametrize("given", ["10.1103/PhysRevB.85.115117", "doi:10.1103/physrevb.85.115117",
                                   "https://doi.org/10.1103/PhysRevB.85.115117"])
def test_each_doi_form_asks_doi_org_for_csl_json(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch,
                                                 given: str) -> None:
    config = _list(project)
    (config.root / "mkdocs.yml").write_text((config.root / "mkdocs.yml").read_text().replace(
        "    seeds: seeds\n", "    seeds: seeds\n    contact: curator@example.org\n"))
    from generator.config import load_config
    config = load_config(config.root / "mkdocs.yml")
    with serving() as replay:
        code, said, complained = add(config, replay, given, monkeypatch=monkeypatch)
    assert (code, complained) == (0, [])
    name = f"2026-12-08-doi-{parse(given).value.replace('/', '-')}.json"  # type: ignore[union-attr]
    assert said == [f"{given}: 'Quantum criticality for extended nodes on a Bethe lattice in the large connectivity "
                    f"limit' (James M. Murray et al. 2012), new: seeds/{name}"]
    [request] = replay.requests
    assert request.path.lower() == "/doi/10.1103/physrevb.85.115117"
    assert request.headers["accept"] == "application/vnd.citationstyles.csl+json"
    # Crossref's polite pool: the tool, its version and a contact.
    assert request.headers["user-agent"] == "readinglist/0.1.0 (mailto:curator@example.org)"


@pytest.mark.parametrize("given", ["https://openreview.net/forum?id=6oXNpKuBDK", "https://openreview.net/pdf?id=6oXNpKuBDK"])
def test_each_openreview_form_asks_for_the_note(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch,
                                                given: str) -> None:
    config = _list(project)
    with serving() as replay:
        code, said, complained = add(config, replay, given, monkeypatch=monkeypatch)
    assert (code, complained) == (0, [])
    assert said == [f"{given}: 'Generative Feature Training of Thin 2-Layer Networks' (Johannes Hertrich and "
                    "Sebastian Neumayer 2025), new: seeds/2026-12-08-openreview-6oXNpKuBDK.json"]
    assert asked(replay) == [("/openreview/notes", {"id": ["6oXNpKuBDK"]})]


def test_arxiv_ids_go_in_one_query_and_published_papers_get_their_doi_record(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving() as replay:
        code, said, complained = add(config, replay, "1412.6529", "arXiv:cond-mat/0607501v2", monkeypatch=monkeypatch)
    assert (code, complained) == (0, [])
    # One arXiv request with both ids, then one doi.org request per published paper.
    assert asked(replay) == [
        ("/api/query", {"id_list": ["1412.6529,cond-mat/0607501v2"], "max_results": ["2"]}),
        ("/doi/10.1103/PhysRevB.91.184507", {}),
        ("/doi/10.1103/PhysRevB.74.214517", {}),
    ]
    batch = "seeds/2026-12-08-arxiv-1412.6529-and-1-more.xml"
    assert said == [
        f"1412.6529: 'Particle partition entanglement of bosonic Luttinger liquids' (C. M. Herdman and A. Del Maestro "
        f"2014), new: {batch}; published version (Physical Review B 91, 184507 (2015)): "
        "seeds/2026-12-08-doi-10.1103-PhysRevB.91.184507.json",
        "arXiv:cond-mat/0607501v2: 'A striped supersolid phase and the search for deconfined quantum criticality in "
        f"hard-core bosons on the triangular lattice' (R. G. Melko et al. 2006), new: {batch}; published version "
        "(Physical Review B 74, 214517 (2006)): seeds/2026-12-08-doi-10.1103-PhysRevB.74.214517.json",
    ]
    # The build reads them as the published papers, with their arXiv ids.
    result = build(config)
    assert [str(p) for p in result.problems] == []
    by_title = {p["title"]: p for p in json.loads((config.build_dir / "papers.json").read_text())}
    herdman = by_title["Particle partition entanglement of bosonic Luttinger liquids"]
    assert (herdman["arxiv"], herdman["doi"], herdman["venue"], herdman["venue_line"]) == (
        "1412.6529", "10.1103/PhysRevB.91.184507", "Physical Review B",
        "Physical Review B 91, 184507 (2015) · published")
    bib = entry(config, herdman["key"])
    for line in ("@article{", "author = {Herdman, C. M. and {Del Maestro}, A.}", "journal = {Physical Review B}",
                 "volume = {91}", "number = {18}", "pages = {184507}", "year = {2015}",
                 "doi = {10.1103/PhysRevB.91.184507}", "eprint = {1412.6529}", "archiveprefix = {arXiv}"):
        assert line in bib, (line, bib)


def test_a_doi_with_accents_and_particles(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving() as replay:
        code, _, complained = add(config, replay, "10.1109/MCSE.2011.37", monkeypatch=monkeypatch)
    assert (code, complained) == (0, [])
    build(config)
    [paper] = json.loads((config.build_dir / "papers.json").read_text())
    assert paper["authors"] == ["Stéfan van der Walt", "S Chris Colbert", "Gaël Varoquaux"]
    assert paper["key"] == "walt2011numpy"  # the family name without its particle, as every key
    bib = entry(config, "walt2011numpy")
    assert "author = {van der Walt, Stéfan and Colbert, S Chris and Varoquaux, Gaël}" in bib
    assert "journal = {Computing in Science \\& Engineering}" in bib
    assert "pages = {22--30}" in bib
    [item] = json.loads((config.build_dir / "references.json").read_text())
    assert item["author"][0] == {"family": "Walt", "given": "Stéfan", "non-dropping-particle": "van der"}
    assert (item["type"], item["container-title"], item["volume"], item["issue"], item["page"]) == (
        "article-journal", "Computing in Science & Engineering", "13", "2", "22-30")


def test_429_then_success_honours_retry_after(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)

    def busy_once(req: Request) -> tuple[int, dict[str, str], bytes] | None:
        if len(replay.requests) == 1:
            return 429, {"Retry-After": "1"}, b"Rate exceeded."
        return None

    with serving(busy_once) as replay:
        code, said, complained = add(config, replay, "2306.06130", monkeypatch=monkeypatch)
    assert (code, complained, said) == (0, [], [f"2306.06130: {MARTINEZ}"])
    first, second = replay.requests
    assert first.query == second.query == {"id_list": ["2306.06130"], "max_results": ["1"]}
    assert second.at - first.at >= 1.0


def test_rate_limited_for_good_is_one_line_and_keeps_seeds_clean(project: Callable[..., Config],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving(lambda req: (429, {"Retry-After": "3600"}, b"Rate exceeded.")) as replay:
        code, said, complained = add(config, replay, "2306.06130", monkeypatch=monkeypatch)
    assert (code, said) == (1, [])
    assert complained == ["2306.06130: error: arXiv: 127.0.0.1 is rate limited after 1 try (it asks to wait "
                          "3600 s); try again later"]
    assert len(replay.requests) == 1
    assert seeds(config) == []


def test_offline_is_one_line_per_identifier(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    port = free_port()  # nothing listens there: connection refused, as with no network
    for name, path in (("READINGLIST_ARXIV_API", "/api/query"), ("READINGLIST_DOI_RESOLVER", "/doi"),
                       ("READINGLIST_OPENREVIEW_API", "/openreview")):
        monkeypatch.setenv(name, f"http://127.0.0.1:{port}{path}")
    code, said, complained = add(config, None, "2306.06130", "10.1103/PhysRevB.85.115117",
                                 "https://openreview.net/forum?id=6oXNpKuBDK", monkeypatch=monkeypatch)
    assert (code, said) == (1, [])
    assert complained == [
        f"2306.06130: error: arXiv: cannot reach 127.0.0.1:{port} (connection refused)",
        f"10.1103/PhysRevB.85.115117: error: doi.org: cannot reach 127.0.0.1:{port} (connection refused)",
        f"https://openreview.net/forum?id=6oXNpKuBDK: error: OpenReview: cannot reach 127.0.0.1:{port} "
        "(connection refused)",
    ]
    assert seeds(config) == []


def test_unknown_ids_are_told_and_the_others_kept(project: Callable[..., Config],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving() as replay:
        code, said, complained = add(config, replay, "2306.99999", "10.1103/PhysRevB.99.999999",
                                     "https://openreview.net/forum?id=NoSuchNote", "10.1103/PhysRevB.85.115117",
                                     monkeypatch=monkeypatch)
    assert code == 1
    assert complained == [
        "2306.99999: error: no such arXiv id (arXiv's API answered twice without it)",
        "10.1103/PhysRevB.99.999999: error: no such DOI (doi.org does not know it)",
        "https://openreview.net/forum?id=NoSuchNote: error: no such OpenReview forum (or it is not public)",
    ]
    # An empty arXiv answer is asked again once before it is believed.
    assert [r.query.get("id_list") for r in replay.requests if r.path == "/api/query"] == [["2306.99999"]] * 2
    assert seeds(config) == ["2026-12-08-doi-10.1103-PhysRevB.85.115117.json"]
    assert len(said) == 1 and said[0].startswith("10.1103/PhysRevB.85.115117: 'Quantum criticality")


def test_a_second_add_of_the_same_id_adds_nothing(project: Callable[..., Config],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving() as replay:
        add(config, replay, "2306.06130", "10.1103/PhysRevB.85.115117", monkeypatch=monkeypatch)
        before = seeds(config)
        replay.requests.clear()
        code, said, complained = add(config, replay, "https://arxiv.org/abs/2306.06130v1",
                                     "https://doi.org/10.1103/physrevb.85.115117", monkeypatch=monkeypatch)
    assert (code, complained, replay.requests, seeds(config)) == (0, [], [], before)
    assert said == [
        "https://arxiv.org/abs/2306.06130v1: already in the list ('Towards Understanding the Interplay of Generative "
        "Artificial Intelligence and the Internet', seeds/2026-12-08-arxiv-2306.06130.xml); nothing fetched",
        "https://doi.org/10.1103/physrevb.85.115117: already in the list ('Quantum criticality for extended nodes on a "
        "Bethe lattice in the large connectivity limit', seeds/2026-12-08-doi-10.1103-PhysRevB.85.115117.json); "
        "nothing fetched",
    ]


def test_a_bad_answer_is_told_and_not_kept(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving(lambda req: (200, {}, b"<html><body>Service moved</body></html>")) as replay:
        code, said, complained = add(config, replay, "10.1103/PhysRevB.85.115117", monkeypatch=monkeypatch)
    assert (code, said) == (1, [])
    assert complained == ["10.1103/PhysRevB.85.115117: error: doi.org: bad answer from doi.org (CSL-JSON): "
                          "<html><body>Service moved</body></html>"]
    assert seeds(config) == []


def test_arxiv_requests_are_three_seconds_apart_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("READINGLIST_ARXIV_INTERVAL", "READINGLIST_ARXIV_API"):
        monkeypatch.delenv(name, raising=False)
    slept: list[float] = []
    now = [100.0]
    http = services.client("")
    assert http.spacing == {"export.arxiv.org": 3.0}
    http.sleep, http.clock = slept.append, lambda: now[0]
    http._pause("export.arxiv.org")
    now[0] += 0.5
    http._pause("export.arxiv.org")
    http._pause("doi.org")  # no pause asked of other hosts
    assert slept == [2.5]
    monkeypatch.setenv("READINGLIST_ARXIV_INTERVAL", "0.25")
    assert services.client("").spacing == {"export.arxiv.org": 0.25}


def test_retry_after_reads_seconds_and_dates() -> None:
    assert retry_after("120", 0) == 120.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1445412470.0) == 10.0
    assert retry_after("soon", 0) is None
    with pytest.raises(FetchError):
        raise FetchError("x")


def test_json_that_is_no_digest_is_told(tmp_path: Path) -> None:
    from generator.errors import Problems
    from generator.sources import read_digest

    for name, text, message in (
            ("settings.json", '{"theme": "dark"}', "settings.json:1: error: a JSON file, but not CSL-JSON (doi.org, "
             "Zotero, pandoc) or OpenReview notes; skipped"),
            ("broken.json", '[\n  {"type": "article",\n', "broken.json:3: error: a JSON file that is not valid JSON "
             "(Expecting property name enclosed in double quotes, column 1); skipped")):
        (tmp_path / name).write_text(text)
        problems = Problems()
        assert read_digest(tmp_path / name, name, problems) is None
        assert [str(p) for p in problems] == [message]


def test_a_timeout_is_tried_once_more_then_told(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(req: Request) -> tuple[int, dict[str, str], bytes] | None:
        time.sleep(0.6)
        return None

    with serving(slow) as replay:
        monkeypatch.setenv("READINGLIST_DOI_RESOLVER", f"{replay.url}/doi")
        with pytest.raises(FetchError) as caught:
            services.doi(Client("readinglist/test", timeout=0.2, backoff=0), "10.1103/PhysRevB.85.115117")
    assert str(caught.value) == "no answer from 127.0.0.1 within 0.2 s"
    assert len(replay.requests) == 2


def test_503_without_retry_after_backs_off_then_succeeds(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    with serving(lambda req: (503, {}, b"busy") if len(replay.requests) < 3 else None) as replay:
        monkeypatch.setenv("READINGLIST_DOI_RESOLVER", f"{replay.url}/doi")
        http = Client("readinglist/test", backoff=2.0, sleep=waits.append)
        answer = services.doi(http, "10.1103/PhysRevB.85.115117")
    assert answer is not None and answer.papers[0].doi == "10.1103/PhysRevB.85.115117"
    assert waits == [2.0, 4.0]  # doubling, as no Retry-After said otherwise
    assert len(replay.requests) == 3


def test_arxiv_refusing_a_query_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    error = (b'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n  <entry>\n'
             b'    <id>http://arxiv.org/api/errors#incorrect_id_format_for_2306.6130</id>\n    <title>Error</title>\n'
             b'    <summary>incorrect id format for 2306.6130</summary>\n  </entry>\n</feed>\n')
    with serving(lambda req: (400, {"Content-Type": "application/atom+xml"}, error)) as replay:
        monkeypatch.setenv("READINGLIST_ARXIV_API", f"{replay.url}/api/query")
        with pytest.raises(FetchError) as caught:
            services.arxiv(Client("readinglist/test"), ["2306.6130"])
    assert str(caught.value) == "arXiv's API refused the query: incorrect id format for 2306.6130"


def test_a_failed_write_leaves_no_half_file(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    config = _list(project)

    def full(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "link", full)
    with serving() as replay:
        code, said, complained = add(config, replay, "10.1103/PhysRevB.85.115117", monkeypatch=monkeypatch)
    assert (code, said) == (1, [])
    assert complained == ["10.1103/PhysRevB.85.115117: error: doi.org: cannot write into seeds/: "
                          "No space left on device"]
    assert sorted(p.name for p in config.seeds_dir.iterdir()) == []  # no .part file either


def test_a_doi_given_with_its_arxiv_id_is_fetched_once(project: Callable[..., Config],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    config = _list(project)
    with serving() as replay:
        code, said, complained = add(config, replay, "1412.6529", "10.1103/PhysRevB.91.184507", monkeypatch=monkeypatch)
    assert (code, complained) == (0, [])
    assert [r.path for r in replay.requests] == ["/api/query", "/doi/10.1103/PhysRevB.91.184507"]
    assert said[1] == ("10.1103/PhysRevB.91.184507: already in the list ('Particle partition entanglement of bosonic "
                       "Luttinger liquids', seeds/2026-12-08-arxiv-1412.6529.xml); nothing fetched")
    assert seeds(config) == ["2026-12-08-arxiv-1412.6529.xml", "2026-12-08-doi-10.1103-PhysRevB.91.184507.json"]
