"""Keep rules (extra.readinglist.keep) on a mailing of real arXiv papers: the papers kept, the
counts printed, a note that keeps a paper, and a changed rule that brings papers back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from generator.add import add_digests
from generator.build import build
from generator.config import load_config
from generator.errors import ConfigError
from generator.keep import keyword_pattern
from tests.conftest import FIXTURES, copy_project

REAL = FIXTURES / "real"
# A day's bulk feed, made of real arXiv announcements: 2 + 2 papers from two cs e-mails, 13 cs.DS
# papers, 5 and 6 condensed-matter (and two cs.AI) papers from the arXiv API.
MAILING = {
    "2023-06-13-arxiv-cs.txt": REAL / "arxiv-email-cs-2023-06-13.txt",
    "2024-11-21-arxiv-cs.txt": REAL / "arxiv-email-cs-2024-11-21.txt",
    "2024-01-01-arxiv-cs-ds.xml": REAL / "arxiv-api-cs-ds-tex-titles.xml",
    "2024-01-02-arxiv-physics.xml": REAL / "arxiv-api-del-maestro.xml",
    "2024-01-03-arxiv-mixed.xml": REAL / "topics" / "arxiv-api-out-of-domain.xml",
}
RULE = {"files": "*arxiv*", "keywords": ["approximation", "-Robinson"], "categories": ["quant-ph"],
        "authors": ["Varvara Guljajeva"]}
KEPT = {
    # authors: Varvara Guljajeva
    "Explaining CLIP through Co-Creative Drawings and Interaction",
    # keywords: `approximation` at a word start ("(2+ϵ)-Approximation"); "An Approximation
    # Algorithm for l∞-Fitting Robinson Structures" has it too, but `-Robinson` excludes it
    "A (2+ϵ)-Approximation Algorithm for Maximum Independent Set of Rectangles",
    # keywords: "the random phase approximation (RPA)" in the abstract
    "The Spin Liquid State of the Tb2Ti2O7 Pyrochlore Antiferromagnet: A Puzzling State of Affairs",
    # categories: quant-ph, cross-listed
    "Particle partition entanglement of bosonic Luttinger liquids",
    "Entanglement area law in superfluid ⁴He",
}
SEED_PAPERS = 41


def _mailing(root: Path, rules: list[dict] | None) -> Path:
    config = copy_project(root)
    for name, source in MAILING.items():
        shutil.copy(source, root / "seeds" / name)
    _set_rules(config, rules)
    return config


def _set_rules(config: Path, rules: list[dict] | None) -> None:
    data = config.read_text(encoding="utf-8")
    head, sep, _ = data.partition("    keep:\n")
    text = (head if sep else data)
    if rules is not None:
        block = yaml.safe_dump({"keep": rules}, sort_keys=False, allow_unicode=True, width=200)
        text = text.replace("extra:\n  readinglist:\n", "extra:\n  readinglist:\n"
                            + "".join(f"    {line}\n" for line in block.splitlines()), 1)
    config.write_text(text, encoding="utf-8")


def _titles(root: Path) -> dict[str, str]:
    return {p["title"]: p["key"] for p in json.loads((root / "build" / "papers.json").read_text("utf-8"))}


def test_a_rule_keeps_exactly_the_papers_it_names_and_counts_the_rest(tmp_path: Path) -> None:
    config = load_config(_mailing(tmp_path, [RULE]))
    result = build(config)
    titles = _titles(tmp_path)
    mailing_kept = {t for t in titles if t not in _seed_titles()}
    assert mailing_kept == KEPT
    assert len(titles) == SEED_PAPERS + len(KEPT)  # the TMLR and listing digests: no rule names them
    first, *per_digest = result.summary().splitlines()
    assert first.startswith("readinglist: 46 papers from 7 digests, ")
    assert per_digest == [
        "  seeds/2023-06-13-arxiv-cs.txt: 2 papers, 1 kept by your keep rules, 1 left out (rule 1: 1)",
        "  seeds/2024-01-01-arxiv-cs-ds.xml: 13 papers, 1 kept by your keep rules, 12 left out (rule 1: 1)",
        "  seeds/2024-01-02-arxiv-physics.xml: 5 papers, 2 kept by your keep rules, 3 left out (rule 1: 2)",
        "  seeds/2024-01-03-arxiv-mixed.xml: 6 papers, 1 kept by your keep rules, 5 left out (rule 1: 1)",
        "  seeds/2024-11-21-arxiv-cs.txt: 2 papers, 0 kept by your keep rules, 2 left out (rule 1: 0)",
    ]
    assert "23 papers left out by your keep rules (extra.readinglist.keep in mkdocs.yml)" in result.summary()
    # In no page or export: the digest page lists only what was kept, and no export names the rest.
    digests = tmp_path / "build" / "digests"
    digest = (digests / "2024-01-01-arxiv-cs-ds" / "index.md").read_text("utf-8")
    assert "Maximum Independent Set of Rectangles" in digest
    assert "Perfect Matchings" not in digest
    for export in ("references.bib", "references.json", "papers.json", "digests/2024-01-01-arxiv-cs-ds.bib"):
        assert "Perfect Matchings" not in (tmp_path / "build" / export).read_text("utf-8")
    assert len(list((tmp_path / "build" / "papers").iterdir())) == SEED_PAPERS + len(KEPT)
    # The digests are untouched in seeds/.
    assert (tmp_path / "seeds" / "2024-01-01-arxiv-cs-ds.xml").read_bytes() == MAILING[
        "2024-01-01-arxiv-cs-ds.xml"].read_bytes()


def _seed_titles() -> set[str]:
    data = yaml.safe_load((Path(__file__).parents[1] / "data" / "seed_papers.yml").read_text("utf-8"))
    return {p["title"] for p in data}


def test_a_note_keeps_a_paper_and_a_changed_rule_brings_papers_back_with_their_keys(tmp_path: Path) -> None:
    config_path = _mailing(tmp_path, None)
    build(load_config(config_path))
    before = _titles(tmp_path)
    keys_before = (tmp_path / "citekeys.yml").read_text("utf-8")
    assert len(before) == SEED_PAPERS + 28
    matching = "Perfect Matchings in O(n log n) Time in Regular Bipartite Graphs"
    key = before[matching]
    (tmp_path / "content" / "notes" / f"{key}.md").write_text("---\nstatus: reading\n---\nGoel, Kapralov, Khanna.\n")

    _set_rules(config_path, [RULE])
    result = build(load_config(config_path))
    now = _titles(tmp_path)
    assert {t for t in now if t not in _seed_titles()} == KEPT | {matching}
    assert "  seeds/2024-01-01-arxiv-cs-ds.xml: 13 papers, 2 kept by your keep rules, 11 left out " \
           "(rule 1: 1, 1 note)" in result.summary().splitlines()
    # The papers left out keep their keys in citekeys.yml: published keys never change.
    assert (tmp_path / "citekeys.yml").read_text("utf-8") == keys_before

    # The rule changes (negative keyword gone, a keyword added): the papers come back, same keys.
    _set_rules(config_path, [{**RULE, "keywords": ["approximation", "entanglement", "answer set"]}])
    build(load_config(config_path))
    again = _titles(tmp_path)
    back = {"An Approximation Algorithm for l∞-Fitting Robinson Structures to Distances",
            "The Seventh Answer Set Programming Competition: Design and Results",
            "Achievements in Answer Set Programming"}
    assert back <= set(again)
    assert {t: again[t] for t in back} == {t: before[t] for t in back}
    _set_rules(config_path, None)
    build(load_config(config_path))
    assert _titles(tmp_path) == before


def test_a_new_paper_left_out_gets_no_key(tmp_path: Path) -> None:
    config = load_config(_mailing(tmp_path, [RULE]))
    build(config)
    registry = yaml.safe_load((tmp_path / "citekeys.yml").read_text("utf-8"))
    keys = {entry["key"] for entry in registry.values()}
    assert "guljajeva2023explaining" in keys
    titles = _titles(tmp_path)
    assert all(titles[t] in keys for t in KEPT)
    shipped = yaml.safe_load((Path(__file__).parents[2] / "citekeys.yml").read_text("utf-8"))
    assert len(registry) == len(shipped) + len(KEPT)


def test_add_says_how_many_papers_the_rules_keep(tmp_path: Path) -> None:
    config_path = copy_project(tmp_path)
    _set_rules(config_path, [RULE])
    report = add_digests(load_config(config_path), [REAL / "arxiv-api-cs-ds-tex-titles.xml"])
    (line,) = report.lines(tmp_path)
    assert line.endswith(": 13 papers (13 new, 0 already in the list), 1 kept by your keep rules, 12 left out")


def test_keywords_match_at_word_starts_in_any_case() -> None:
    agent = keyword_pattern("agent")
    assert agent.search("Agents that plan") and agent.search("Multi-Agent Debate")
    assert not agent.search("a reagent for titration")
    phrase = keyword_pattern("temporal logic")
    assert phrase.search("Signal Temporal-Logic specifications") and phrase.search("temporal\n logic")


@pytest.mark.parametrize(("rules", "message"), [
    ([{"keywords": ["agent"]}],
     "mkdocs.yml:{line}: extra.readinglist.keep[1]: every rule needs `files`, a glob of the digest file names it "
     "applies to (e.g. '*arxiv*'); rules never touch other digests"),
    ([{"files": "*arxiv*", "interest": 2}],
     "mkdocs.yml:{line2}: extra.readinglist.keep[1].interest: expected a number between 0 and 1, got 2"),
    ([{"files": "*arxiv*", "keyword": ["agent"]}],
     "mkdocs.yml:{line2}: extra.readinglist.keep[1].keyword: unknown field 'keyword'; a rule has files, "
     "keywords, categories, authors, topics, interest"),
])
def test_mistakes_in_rules_are_named_with_path_and_line(tmp_path: Path, rules: list[dict], message: str) -> None:
    config_path = copy_project(tmp_path)
    _set_rules(config_path, rules)
    lines = config_path.read_text("utf-8").splitlines()
    first = lines.index("    keep:") + 2  # the rule's first line (1-based)
    with pytest.raises(ConfigError) as caught:
        load_config(config_path)
    assert str(caught.value) == message.format(line=first, line2=first + 1)


def test_a_rule_keeps_the_papers_of_a_topic(tmp_path: Path) -> None:
    # The digests no rule names keep all of their 23 papers.
    (tmp_path / "all").mkdir()
    everything = build(load_config(_mailing(tmp_path / "all", None)))
    assert everything.library.keep_counts == ()
    records = json.loads((tmp_path / "all" / "build" / "papers.json").read_text("utf-8"))
    others = {p["title"] for p in records if p["title"] not in _seed_titles()
              and "2024-01-02-arxiv-physics.xml" not in p["sources"]}
    assert len(others) == 23
    (tmp_path / "rule").mkdir()
    tmp_path = tmp_path / "rule"
    result = build(load_config(_mailing(tmp_path, [{"files": "*physics*", "topics": ["quantum physics (quant-ph)"]}])))
    assert {t for t in _titles(tmp_path) if t not in _seed_titles()} == {
        "Particle partition entanglement of bosonic Luttinger liquids", "Entanglement area law in superfluid ⁴He",
    } | others  # the other digests: no rule names them
    assert "  seeds/2024-01-02-arxiv-physics.xml: 5 papers, 2 kept by your keep rules, 3 left out (rule 1: 2)" \
        in result.summary().splitlines()



def test_a_topic_no_paper_has_is_named_with_its_line(tmp_path: Path) -> None:
    config_path = _mailing(tmp_path, [{"files": "*physics*", "topics": ["Quantum physics (quant-ph)",
                                                                        "Superconductivty"]}])
    lines = config_path.read_text("utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.strip().startswith("topics:"))
    result = build(load_config(config_path))
    assert [str(p) for p in result.problems.warnings if "keep[1]" in p.message] == [
        f"mkdocs.yml:{line}: warning: extra.readinglist.keep[1].topics: 'Superconductivty' is no topic of "
        "content/topics.yml and no paper's tag; it keeps no paper"]


def test_under_watch_a_new_note_brings_its_left_out_paper_back(tmp_path: Path) -> None:
    import io

    from generator.watch import Watcher
    from tests.waiting import wait_until

    config_path = _mailing(tmp_path, None)
    build(load_config(config_path))
    key = _titles(tmp_path)["Perfect Matchings in O(n log n) Time in Regular Bipartite Graphs"]
    _set_rules(config_path, [RULE])
    watcher = Watcher(config_path, debounce=0.1, out=io.StringIO())
    watcher.start()
    try:
        assert "Perfect Matchings in O(n log n) Time in Regular Bipartite Graphs" not in _titles(tmp_path)
        (tmp_path / "content" / "notes" / f"{key}.md").write_text("---\nstatus: to-read\n---\nFor Tuesday.\n")
        assert watcher.wait_for(1, 60) and not watcher.outcomes[-1].fast, watcher.outcomes
        wait_until(lambda: "Perfect Matchings in O(n log n) Time in Regular Bipartite Graphs" in _titles(tmp_path),
                   60, "the noted paper did not come back")
    finally:
        watcher.stop()
