"""Interest: the papers most like the ones the curator read come first, each with a why.

Real arXiv papers only: the seeds (machine learning), Adrian Del Maestro's condensed-matter papers
(arXiv API), and two new digests the curator never saw: one mixing condensed-matter physics with
answer set programming, one of graph algorithms (cs.DS)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from generator.build import build
from generator.config import load_config
from tests.conftest import FIXTURES, copy_project

REAL = FIXTURES / "real"
READ = ("Local Superfluidity at the Nanoscale", "Particle partition entanglement of bosonic Luttinger liquids",
        "Entanglement area law in superfluid ⁴He")
# The new digest's papers of the same theme (condensed-matter physics), which the model never saw.
THEME = {"Thermal melting of density waves on the square lattice",
         "Specific heat of thin ⁴He films on graphite",
         "Quantum Monte Carlo measurement of the chemical potential of helium-4",
         "The Spin Liquid State of the Tb2Ti2O7 Pyrochlore Antiferromagnet: A Puzzling State of Affairs"}
NEW = ("2026-12-03-arxiv-mixed.xml", "2026-12-03-arxiv-cs-ds.xml")


def _records(root: Path) -> dict[str, dict]:
    return {p["title"]: p for p in json.loads((root / "build" / "papers.json").read_text("utf-8"))}


def _project(root: Path) -> Path:
    config = copy_project(root)
    # Without the shipped notes' signals (two seed papers rated 4 and 5): this curator reads physics.
    for note in (root / "content" / "notes").glob("*.md"):
        note.unlink()
    shutil.copy(REAL / "arxiv-api-del-maestro.xml", root / "seeds" / "2024-01-02-arxiv-physics.xml")
    # The new digests, as arXiv's API answered them, dated the day they arrived (after the seeds'
    # newest digest): only the feed's own <updated> is changed, not a paper.
    for name, source in zip(NEW, (REAL / "topics" / "arxiv-api-out-of-domain.xml",
                                  REAL / "arxiv-api-cs-ds-tex-titles.xml"), strict=True):
        text = re.sub(r"(?<=</id>\n  <updated>)[^<]+", "2026-12-03T00:00:00Z", source.read_text("utf-8"), count=1)
        (root / "seeds" / name).write_text(text, "utf-8")
    return config


def test_without_signals_the_topics_decide_and_the_why_says_so(tmp_path: Path) -> None:
    build(load_config(_project(tmp_path)))
    records = _records(tmp_path)
    routing = records["PersonalizedRouter: Personalized LLM Routing via Graph-based User Preference Modeling"]
    assert routing["why"].endswith("(no signals yet)")
    assert routing["why"].startswith("topics ") and routing["interest"] > 0
    assert records["Local Superfluidity at the Nanoscale"] == {
        **records["Local Superfluidity at the Nanoscale"], "interest": 0.0, "why": "no topic of yours (no signals yet)"}


def test_the_papers_like_the_ones_read_rank_first_with_a_why(tmp_path: Path) -> None:
    config = _project(tmp_path)
    build(load_config(config))
    keys = {title: record["key"] for title, record in _records(tmp_path).items()}
    for title in READ:
        (tmp_path / "content" / "notes" / f"{keys[title]}.md").write_text("---\nstatus: read\n---\n", "utf-8")
    build(load_config(config))
    records = _records(tmp_path)
    new_digest_titles = {t for t, r in records.items() if set(r["sources"]) & set(NEW)}
    assert len(new_digest_titles) == 19
    ranked = sorted(new_digest_titles, key=lambda t: (-records[t]["interest"], t))
    # Precision at 4 (the theme's four papers in the new digests): 4 of 4.
    k = len(THEME)
    precision = len(set(ranked[:k]) & THEME) / k
    assert precision == 1.0, [(t, records[t]["interest"], records[t]["why"]) for t in ranked[:8]]
    for title in THEME:
        why = records[title]["why"]
        # A few words: shared terms, topics, authors (Del Maestro wrote papers of both digests).
        assert why.startswith(("terms ", "topic ", "author ")) and len(why) < 120, why
    # Each paper has a score between 0 and 1 and a why; the physics papers above every other.
    assert all(0 <= r["interest"] <= 1 and r["why"] for r in records.values())
    assert min(records[t]["interest"] for t in THEME) > max(
        records[t]["interest"] for t in new_digest_titles - THEME)
    # Deterministic: the same inputs give the same scores.
    before = (tmp_path / "build" / "papers.json").read_text("utf-8")
    (tmp_path / ".readinglist-cache").exists() and shutil.rmtree(tmp_path / ".readinglist-cache")
    build(load_config(config))
    assert (tmp_path / "build" / "papers.json").read_text("utf-8") == before


def test_a_keep_rule_by_interest_keeps_the_papers_like_the_ones_read(tmp_path: Path) -> None:
    config = _project(tmp_path)
    # Before any signal the interest criterion waits: a rule with it alone keeps every paper.
    text = config.read_text("utf-8").replace("extra:\n  readinglist:\n", "extra:\n  readinglist:\n    keep:\n"
                                             "      - files: '2026-12-03-*'\n        interest: 0.25\n", 1)
    config.write_text(text, "utf-8")
    result = build(load_config(config))
    assert "  seeds/2026-12-03-arxiv-mixed.xml: 6 papers, 6 kept by your keep rules, 0 left out (rule 1: 6)" \
        in result.summary().splitlines()
    keys = {title: record["key"] for title, record in _records(tmp_path).items()}
    for title in READ:
        (tmp_path / "content" / "notes" / f"{keys[title]}.md").write_text("---\nstatus: read\n---\n", "utf-8")
    result = build(load_config(config))
    kept = {t for t, r in _records(tmp_path).items() if set(r["sources"]) & set(NEW)}
    assert kept == {"Quantum Monte Carlo measurement of the chemical potential of helium-4",
                    "The Spin Liquid State of the Tb2Ti2O7 Pyrochlore Antiferromagnet: A Puzzling State of Affairs",
                    "Specific heat of thin ⁴He films on graphite"}
    assert "  seeds/2026-12-03-arxiv-cs-ds.xml: 13 papers, 0 kept by your keep rules, 13 left out (rule 1: 0)" \
        in result.summary().splitlines()


def test_the_notes_signals_and_a_change_of_signal_rebuilds_everything() -> None:
    from generator.notes.model import AGAINST, FOR, Note, signal_of
    from generator.watch import overrides_signature

    assert [signal_of("read", None), signal_of("reading", None), signal_of("to-read", 5), signal_of("read", 2),
            signal_of("skipped", None), signal_of("to-read", 3), signal_of(None, None)] == [
        FOR, FOR, FOR, AGAINST, AGAINST, None, None]
    # The watcher's fast path (a note's body alone) is not taken when a signal changes: every
    # paper's interest changes with it.
    quiet, read = Note("content/notes/a.md", "a", status="to-read"), Note("content/notes/a.md", "a", status="read")
    assert overrides_signature([quiet]) != overrides_signature([read])


def test_a_tag_of_the_curators_own_is_an_interest_set_with_its_why(tmp_path: Path) -> None:
    config = _project(tmp_path)
    build(load_config(config))
    keys = {title: record["key"] for title, record in _records(tmp_path).items()}
    # No status, no rating: only a tag of the curator's own (no topic of topics.yml) on two papers.
    for title in READ[1:]:
        (tmp_path / "content" / "notes" / f"{keys[title]}.md").write_text("---\ntags: [helium]\n---\n", "utf-8")
    build(load_config(config))
    records = _records(tmp_path)
    ranked = sorted((t for t, r in records.items() if set(r["sources"]) & set(NEW)),
                    key=lambda t: -records[t]["interest"])
    assert ranked[0] in THEME
    assert records[ranked[0]]["why"].startswith("like your tag helium: ")
