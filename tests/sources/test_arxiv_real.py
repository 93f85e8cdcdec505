"""arXiv metadata as real digests give it (tests/fixtures/real/, README.md there says where each
came from): primary category, every category by arXiv's own name, comments, journal references,
what reads as published, and an API result's title."""

from __future__ import annotations

import datetime as dt

from generator.enrich.topics import subject_tag
from generator.errors import Problems
from generator.model import Paper
from generator.sources import read_digest
from generator.sources.arxiv_api import digest_title
from generator.sources.records import RawDigest
from generator.sources.subjects import class_name, distinct_categories, taxonomy
from tests.conftest import FIXTURES
from tests.enrich.bibtex.pybtex_oracle import read_back

REAL = FIXTURES / "real"


def read(name: str) -> tuple[RawDigest, dict[str, Paper]]:
    problems = Problems()
    raw = read_digest(REAL / name, name, problems)
    assert raw is not None and list(problems) == []
    return raw, {p.arxiv_id or "": p for p in raw.papers}


def fields(paper: Paper) -> dict[str, str]:
    return dict(read_back(paper).fields)


def test_api_primary_category_is_the_primaryclass() -> None:
    raw, papers = read("arxiv-api-del-maestro.xml")
    assert [p.arxiv_id for p in raw.papers] == ["1303.6954", "1412.6529", "2402.17843", "cond-mat/0607501",
                                                "1610.08518"]
    # <arxiv:primary_category term="cond-mat.quant-gas"/>, then quant-ph: not quant-ph, the first
    # class a two-letter pattern let through.
    assert papers["1412.6529"].categories == ("cond-mat.quant-gas", "quant-ph")
    assert fields(papers["1412.6529"])["primaryclass"] == "cond-mat.quant-gas"
    # cond-mat papers with no other class had none at all.
    assert {i: fields(p).get("primaryclass") for i, p in papers.items()} == {
        "1303.6954": "cond-mat.mes-hall", "1412.6529": "cond-mat.quant-gas", "2402.17843": "physics.comp-ph",
        "cond-mat/0607501": "cond-mat.str-el", "1610.08518": "cond-mat.other"}


def test_api_comments_journal_ref_and_published() -> None:
    _, papers = read("arxiv-api-del-maestro.xml")
    p = papers["1412.6529"]
    assert p.journal_ref == "Phys. Rev. B 91, 184507 (2015)"
    assert p.comments == "10 pages, 8 figures; updated figure 5, added references, revised text, reformatted"
    assert p.doi == "10.1103/PhysRevB.91.184507"
    assert {i: q.status for i, q in papers.items()} == {
        "1303.6954": "published", "1412.6529": "published", "2402.17843": "preprint",
        "cond-mat/0607501": "published", "1610.08518": "published"}
    assert papers["2402.17843"].comments == "main text (39 pages); supplement appended (7 pages)"


def test_api_drops_msc_classes_and_category_aliases() -> None:
    _, papers = read("arxiv-api-lmm.xml")
    p = papers["2108.05102"]
    # <category term="math.NA"/> <category term="cs.NA"/> <category term="35J20, 35B38, 65N12, 65J15, 65Jxx"/>:
    # cs.NA is arXiv's alias of math.NA, the last an MSC class.
    assert p.categories == ("math.NA",)
    assert fields(p)["primaryclass"] == "math.NA" and fields(p)["keywords"] == "math.NA"
    assert p.status == "published"
    assert p.journal_ref == "Science China Mathematics, 2023, Vol. 66, No. 10, pp. 2361-2384"


def test_api_digest_title_says_what_was_asked() -> None:
    raw, _ = read("arxiv-api-del-maestro.xml")
    assert raw.title == 'arXiv API: au:"A. Del Maestro", 4 May 2024'
    assert read("arxiv-api-lmm.xml")[0].title == "arXiv API: lmm, 1 May 2024"
    # The query of arXiv's API manual, and a look-up by id (feed titles as the API writes them).
    assert digest_title("ArXiv Query: search_query=au:del_maestro&id_list=&start=0&max_results=10",
                        dt.date(2016, 10, 9)) == "arXiv API: au:del_maestro, 9 October 2016"
    assert digest_title("ArXiv Query: search_query=&id_list=1706.03762&start=0&max_results=1",
                        dt.date(2026, 10, 7)) == "arXiv API: 1706.03762, 7 October 2026"
    assert digest_title("", None) == "arXiv API results"


def test_email_comments_journal_ref_doi() -> None:
    _, papers = read("arxiv-email-cs-2024-11-21.txt")
    water = papers["2411.13566"]
    assert water.comments == "15 pages, 14 figures, 8 tables"
    assert water.journal_ref == "Journal of Environmental Management, Volume 370, 2024, ISSN 0301-4797"
    assert water.doi == "10.1016/j.jenvman.2024.122526" and water.status == "published"
    amsnet = papers["2411.13560"]
    assert amsnet.categories == ("cs.AI", "cs.ET", "eess.SP") and amsnet.status == "preprint"
    _, june = read("arxiv-email-cs-2023-06-13.txt")
    hddl = june["2306.07353"]
    assert hddl.comments == "5 pages, International Workshop of Hierarchical Planning (ICAPS), 2023"
    assert hddl.journal_ref == "International Workshop of Hierarchical Planning (ICAPS), 2023"
    assert hddl.status == "published" and hddl.doi is None
    assert june["2306.07429"].status == "preprint"


def test_arxivs_own_doi_is_no_publication(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # arXiv's own DOI (DataCite, `10.48550/arXiv.…`) names the preprint: the real e-mail with its
    # journal reference replaced by that DOI leaves the paper a preprint.
    text = (REAL / "arxiv-email-cs-2023-06-13.txt").read_text(encoding="utf-8").replace(
        "Journal-ref: International Workshop of Hierarchical Planning (ICAPS), 2023",
        "DOI: 10.48550/arXiv.2306.07353")
    (tmp_path / "mail.txt").write_text(text, encoding="utf-8")
    raw = read_digest(tmp_path / "mail.txt", "mail.txt", Problems())
    assert raw is not None
    assert next((p.doi, p.status) for p in raw.papers) == ("10.48550/arXiv.2306.07353", "preprint")


def test_every_category_has_arxivs_name() -> None:
    names = taxonomy()
    assert len(names) >= 150
    assert class_name("cond-mat.str-el") == "Strongly Correlated Electrons"
    assert class_name("cs.CY") == "Computers and Society" and class_name("cs.ET") == "Emerging Technologies"
    assert class_name("q-fin.CP") == "Computational Finance" and class_name("hep-th") == "High Energy Physics - Theory"
    # Two classes of one name differ by their code, and no name says its archive twice.
    # (the subject tags: `Machine Learning (stat) (stat.ML)` before)
    assert subject_tag("stat.ML") == "Machine Learning (stat.ML)"
    assert subject_tag("cs.LG") == "Machine Learning (cs.LG)"
    assert all(tag.count("(") == 1 for tag in map(subject_tag, names))
    assert subject_tag("35J20") == "35J20"
    assert distinct_categories(("stat.TH", "math.ST", "stat.ML")) == ("stat.TH", "stat.ML")


def test_listing_of_any_archive_names_its_subjects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The seed listing's shape (seeds/001_...txt) with two papers of the API result above, listed
    # under cond-mat subjects: the listing reader knew only the subject names seen so far.
    text = (
        "Quantum Gases\n"
        "Particle partition entanglement of bosonic Luttinger liquids\n"
        "C. M. Herdman, A. Del Maestro\n"
        "We consider the Rényi entanglement entropy of bosonic Luttinger liquids under a particle\n"
        "bipartition and demonstrate that the leading order finite-size scaling is logarithmic.\n"
        "Read the full abstract ▾\n"
        "Strongly Correlated Electrons · Cross-listed from cond-mat.stat-mech\n"
        "A striped supersolid phase and the search for deconfined quantum criticality\n"
        "R. G. Melko, A. Del Maestro, A. A. Burkov\n"
        "Using large-scale quantum Monte Carlo simulations we study bosons hopping on a triangular lattice.\n"
        "Read the full abstract ▾\n")
    (tmp_path / "listing.txt").write_text(text, encoding="utf-8")
    problems = Problems()
    raw = read_digest(tmp_path / "listing.txt", "listing.txt", problems)
    assert raw is not None and raw.format == "listing"
    assert [(p.title[:30], p.categories) for p in raw.papers] == [
        ("Particle partition entanglemen", ("cond-mat.quant-gas",)),
        ("A striped supersolid phase and", ("cond-mat.stat-mech", "cond-mat.str-el"))]


def test_merged_records_keep_the_accepted_venue_and_a_replacement_publishes() -> None:
    from generator.enrich.merge import merge
    from generator.model import SourceRef
    from generator.sources.records import arxiv_paper

    # 1412.6529 as the API gives it, and as a TMLR-style accepted record of the same title.
    _, api = read("arxiv-api-del-maestro.xml")
    published = api["1412.6529"]
    accepted = Paper(id="openreview:abc123", title=published.title, authors=published.authors, abstract="",
                     origin=SourceRef("tmlr.txt", 1), venue="TMLR", status="accepted", openreview_id="abc123",
                     date=dt.date(2015, 5, 1), sources=(SourceRef("tmlr.txt", 1),))
    for order in ([accepted, published], [published, accepted]):
        raws = [RawDigest(str(p.origin.path), "x", "x", p.date, "text", [p]) for p in order]
        [merged] = merge(raws).papers
        assert (merged.venue, merged.status, merged.journal_ref) == (
            "TMLR", "accepted", "Phys. Rev. B 91, 184507 (2015)")
    # The preprint (no reference yet), then arXiv's replacement that brings the journal reference.
    where = SourceRef("mail.txt", 1)
    preprint = arxiv_paper("1412.6529", published.title, published.authors, "", where)
    replaced = arxiv_paper("1412.6529", published.title, published.authors, "", SourceRef("mail.txt", 9),
                           journal_ref="Phys. Rev. B 91, 184507 (2015)", replacement=True)
    assert preprint.status == "preprint"
    [merged] = merge([RawDigest("mail.txt", "arxiv-email", "x", None, "", [preprint, replaced])]).papers
    assert (merged.status, merged.journal_ref) == ("published", "Phys. Rev. B 91, 184507 (2015)")


def test_a_doi_alone_publishes_with_the_papers_year(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from generator.render.venue import venue_line

    # 2411.13566 of the real e-mail without its Journal-ref lines: the DOI alone.
    text = (REAL / "arxiv-email-cs-2024-11-21.txt").read_text(encoding="utf-8").replace(
        "Journal-ref: Journal of Environmental Management, Volume 370, 2024, ISSN\n  0301-4797\n", "")
    (tmp_path / "mail.txt").write_text(text, encoding="utf-8")
    raw = read_digest(tmp_path / "mail.txt", "mail.txt", Problems())
    assert raw is not None
    water = raw.papers[1]
    assert (water.journal_ref, water.doi, water.status) == ("", "10.1016/j.jenvman.2024.122526", "published")
    assert venue_line(water) == "cs.AI · published · 2024"
    _, papers = read("arxiv-email-cs-2024-11-21.txt")
    assert venue_line(papers["2411.13566"]) == (
        "Journal of Environmental Management, Volume 370, 2024, ISSN 0301-4797 · published")


def test_hyphenated_initials_are_joined() -> None:
    """The API writes `P. -N. Roy` (Pierre-Nicholas Roy): the entry reads `Roy, P.-N.`."""
    _, papers = read("arxiv-api-del-maestro.xml")
    assert papers["1610.08518"].authors[:3] == ("C. M. Herdman", "P.-N. Roy", "R. G. Melko")
    assert [str(p) for p in read_back(papers["1610.08518"]).persons["author"]][1] == "Roy, P.-N."
