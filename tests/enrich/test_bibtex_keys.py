"""Citation keys: the rule, collisions, pins, year overrides, and stability in any digest order."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import build
from generator.config import load_config
from generator.enrich.keys import apply_year_overrides, base_key
from generator.enrich.registry import Pin, Registry
from generator.errors import Problems
from generator.model import Paper, SourceRef
from tests.conftest import ROOT, SEEDS, copy_project
from tests.enrich.bibtex.pybtex_oracle import read_back

TMLR_SEED = "000_1b8355006bbdabc6.txt"
LISTING_SEED = "001_68714a788c6fb328"
# An older TMLR digest whose paper competes for the seed key `maron2025oneshot`.
OLDER_DIGEST = """\
Daily TMLR digest for Aug 01, 2025
TMLR
Accepted papers
===============
Title: One-Shot Learning Revisited
Authors: Cedric Maron, Ana Pérez
Abstract: We revisit one-shot learning.
URL: https://openreview.net/forum?id=OlderPaper1
---
"""


def paper(pid: str, title: str, authors: tuple[str, ...] = ("Cedric Maron",),
          date: dt.date | None = dt.date(2025, 8, 8), **kw: object) -> Paper:
    return Paper(id=pid, title=title, authors=authors, abstract="", origin=SourceRef("seeds/x.txt", 3),
                 date=date, **kw)  # type: ignore[arg-type]


# --- the rule -------------------------------------------------------------------------------

@pytest.mark.parametrize(("p", "key"), [
    (paper("a", "One-Shot Federated Distillation Using Monoclass Teachers", ("Cedric Maron", "ORZALESI")),
     "maron2025oneshot"),
    (paper("b", r"\mathsf{VISTA}: Decentralized Machine Learning", ("Hanzaleh Akbari Nodehi",)), "nodehi2025vista"),
    (paper("c", "Distributional simplicity bias", ("Alfonso de Jesús Navas Gómez",)),
     "navasgomez2025distributional"),
    (paper("d", "Language model reasoning", ("Nils Grünefeld",), title_missing=True), "grunefeld2025untitled"),
    (paper("e", "A Study of Things", ("Ali İsmail",)), "ismail2025study"),
    (paper("f", "PersonalizedRouter: Personalized LLM Routing", ()), "anonymous2025personalizedrouter"),
    (paper("g", "The Minimax Rate", ("ORZALESI",), date=None), "orzalesi" + "nd" + "minimax"),
    (paper("h", "Waals Forces", ("Johannes Diderik van der Waals",)), "waals2025waals"),
])
def test_base_key(p: Paper, key: str) -> None:
    assert base_key(p) == key
    assert key.isascii() and key.isalnum()


# --- collisions and the registry -----------------------------------------------------------

def test_newcomers_in_one_build_oldest_first_then_by_id() -> None:
    late = paper("z-late", "One-Shot Things", date=dt.date(2025, 9, 1))
    early = paper("y-early", "One-Shot Stuff", date=dt.date(2025, 8, 1))
    same_day = paper("a-same", "One-Shot Again", date=dt.date(2025, 9, 1))
    for order in ([late, early, same_day], [same_day, late, early], [early, same_day, late]):
        keys = Registry().assign(order, {}, Problems())
        assert {pid: k for pid, (k, _) in keys.items()} == {
            "y-early": "maron2025oneshot", "a-same": "maron2025oneshota", "z-late": "maron2025oneshotb"}


def test_existing_key_is_kept_and_the_newcomer_yields_even_when_older() -> None:
    registry = Registry({"seed": {"key": "maron2025oneshot", "slug": "one-shot"}})
    older = paper("older", "One-Shot Learning", date=dt.date(2025, 1, 1))
    keys = registry.assign([older, paper("seed", "One-Shot Federated")], {}, Problems())
    assert keys["seed"] == ("maron2025oneshot", "one-shot")
    assert keys["older"][0] == "maron2025oneshota"
    assert registry.changed and registry.entries["older"]["key"] == "maron2025oneshota"


def test_keys_differing_only_in_case_count_as_the_same() -> None:
    registry = Registry({"edited": {"key": "Maron2025OneShot", "slug": "x"}})
    keys = registry.assign([paper("new", "One-Shot Again"), paper("edited", "Other")], {}, Problems())
    assert keys["edited"][0] == "Maron2025OneShot"
    assert keys["new"][0] == "maron2025oneshota"


def test_bad_curator_edits_are_reported_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "citekeys.yml"
    path.write_text("# header\na:\n  key: maron2025oneshot\n  slug: a\nb:\n  key: MARON2025ONESHOT\n  slug: b\n"
                    "c:\n  key: has space\n  slug: c\n", encoding="utf-8")
    problems = Problems()
    registry = Registry.load(path, problems)
    keys = registry.assign([paper(x, "One-Shot " + x) for x in "abc"], {}, problems)
    assert keys["a"][0] == "maron2025oneshot"
    assert keys["b"][0] == "maron2025oneshota"
    assert keys["c"][0] == "maron2025oneshotb"
    assert [str(p) for p in problems] == [
        "citekeys.yml:5: warning: key 'MARON2025ONESHOT' of b is already the key of a; giving b a new key",
        "citekeys.yml:8: warning: key 'has space' of c is not a valid BibTeX key (letters, digits and "
        "_:.+/- only); giving the paper a new key",
    ]


def test_registry_round_trips_through_its_file(tmp_path: Path) -> None:
    registry = Registry()
    registry.assign([paper("openreview:X", "One-Shot"), paper("title:y", "Vista", ("Ana Pérez",))], {}, Problems())
    path = tmp_path / "citekeys.yml"
    path.write_text(registry.dump(), encoding="utf-8")
    again = Registry.load(path, Problems())
    assert again.entries == registry.entries
    assert yaml.safe_load(path.read_text())["title:y"] == {"key": "perez2025vista", "slug": "vista"}


# --- pins ----------------------------------------------------------------------------------

def test_pin_wins_and_the_registry_key_stays_reserved() -> None:
    registry = Registry({"seed": {"key": "maron2025oneshot", "slug": "s"}})
    pins = {"seed": Pin("maron-tmlr", "content/notes/one-shot.md", 2)}
    keys = registry.assign([paper("seed", "One-Shot"), paper("new", "One-Shot Again")], pins, Problems())
    assert keys["seed"][0] == "maron-tmlr"
    assert keys["new"][0] == "maron2025oneshota"  # the old key is never handed to another paper
    assert registry.entries["seed"]["key"] == "maron2025oneshot"


def test_pinned_key_is_reserved_against_newcomers() -> None:
    registry = Registry()
    keys = registry.assign([paper("p", "Other Title"), paper("q", "One-Shot")], {"p": "maron2025oneshot"},
                           Problems())
    assert keys == {"p": ("maron2025oneshot", "other-title"), "q": ("maron2025oneshota", "one-shot")}
    # Pinned when first seen: recorded with the pin, so the key stays if the note is removed.
    assert registry.entries["p"]["key"] == "maron2025oneshot"
    assert registry.assign([paper("p", "Other Title")], {}, Problems())["p"][0] == "maron2025oneshot"


def test_bad_pins_are_reported_naming_the_note() -> None:
    registry = Registry({"a": {"key": "taken2025", "slug": "a"}, "b": {"key": "bkey", "slug": "b"},
                         "c": {"key": "ckey", "slug": "c"}, "d": {"key": "dkey", "slug": "d"}})
    pins = {
        "b": Pin("bad key!", "content/notes/b.md", 3),
        "c": Pin("same", "content/notes/c.md", 2),
        "d": Pin("SAME", "content/notes/d.md", 4),
        "e": "taken2025",
    }
    problems = Problems()
    papers = [paper(x, "Title " + x) for x in "abcde"]
    keys = registry.assign(papers, pins, problems)
    assert {k: v[0] for k, v in keys.items()} == {
        "a": "taken2025", "b": "bkey", "c": "ckey", "d": "dkey", "e": "maron2025title"}
    assert [str(p) for p in problems] == [
        "content/notes/b.md:3: warning: citekey 'bad key!' is not a valid BibTeX key (letters, digits and "
        "_:.+/- only); keeping 'bkey'",
        "content/notes/c.md:2: warning: citekey 'same' is also pinned for d; ignoring it, keeping 'ckey'",
        "content/notes/d.md:4: warning: citekey 'SAME' is also pinned for c; ignoring it, keeping 'dkey'",
        "content/notes: warning: the note of e pins citekey 'taken2025' already belongs to a (citekeys.yml); "
        "using the generated key",
    ]


# --- year overrides ------------------------------------------------------------------------

def test_year_override_changes_key_and_entry_and_drops_the_month() -> None:
    p = paper("x", "One-Shot", venue="TMLR", status="accepted")
    problems = Problems()
    [fixed] = apply_year_overrides([p], {"x": 2024}, problems)
    assert base_key(fixed) == "maron2024oneshot"
    entry = read_back(fixed)
    assert entry.fields["year"] == "2024" and "month" not in entry.fields
    assert read_back(p).fields["month"] == "August"  # `month = aug`
    [same] = apply_year_overrides([p], {"x": 12}, problems)
    assert same.year == 2025
    assert [str(q) for q in problems] == [
        "content/notes: warning: the note of x sets year 12, which is not a year between 1800 and 2100; "
        "keeping 2025"]


# --- stability over whole builds -----------------------------------------------------------

def _project(tmp: Path, files: dict[str, str | Path], registry: bool = False) -> Path:
    config = copy_project(tmp, seeds=False)
    if not registry:
        (tmp / "citekeys.yml").unlink(missing_ok=True)
    for name, src in files.items():
        _add(tmp, name, src)
    return config


def _add(tmp: Path, name: str, src: str | Path) -> None:
    if isinstance(src, Path):
        shutil.copy(src, tmp / "seeds" / name)
    else:
        (tmp / "seeds" / name).write_text(src, encoding="utf-8")


def _keys(config: Path) -> dict[str, str]:
    result = build(load_config(config))
    keys = {p.id: p.key for p in result.library.papers}
    assert len({k.lower() for k in keys.values()}) == len(keys), "two papers share a key"
    return keys


LISTING: dict[str, str | Path] = {name: SEEDS / name for name in (LISTING_SEED + ".txt", LISTING_SEED + ".yml")}


def test_fresh_registry_reproduces_the_committed_keys(tmp_path: Path) -> None:
    # Guards the committed file against a silent change of the key rule: regenerate it if this fails.
    config = _project(tmp_path, {TMLR_SEED: SEEDS / TMLR_SEED, **LISTING})
    build(load_config(config))
    fresh = yaml.safe_load((tmp_path / "citekeys.yml").read_text(encoding="utf-8"))
    committed = yaml.safe_load((ROOT / "citekeys.yml").read_text(encoding="utf-8"))
    assert {pid: e["key"] for pid, e in fresh.items()} == {pid: e["key"] for pid, e in committed.items()}


@pytest.mark.parametrize("first", ["tmlr", "listing"])
def test_keys_survive_adding_the_other_seed(tmp_path: Path, first: str) -> None:
    tmlr = {TMLR_SEED: SEEDS / TMLR_SEED}
    before_files, later = (tmlr, LISTING) if first == "tmlr" else (LISTING, tmlr)
    config = _project(tmp_path, dict(before_files))
    before = _keys(config)
    for name, src in later.items():
        _add(tmp_path, name, src)
    after = _keys(config)
    assert len(after) == 41
    assert {pid: after[pid] for pid in before} == before
    committed = yaml.safe_load((ROOT / "citekeys.yml").read_text(encoding="utf-8"))
    assert after == {pid: committed[pid]["key"] for pid in after}


def test_older_digest_added_later_takes_the_suffix(tmp_path: Path) -> None:
    config = _project(tmp_path, {TMLR_SEED: SEEDS / TMLR_SEED, **LISTING}, registry=True)
    before = _keys(config)
    _add(tmp_path, "002_older.txt", OLDER_DIGEST)
    after = _keys(config)
    assert {pid: after[pid] for pid in before} == before
    assert after["openreview:ENdm5BM7aF"] == "maron2025oneshot"
    assert after["openreview:OlderPaper1"] == "maron2025oneshota"


def test_competing_papers_built_together_or_in_reverse(tmp_path: Path) -> None:
    (tmp_path / "both").mkdir()
    together = _keys(_project(tmp_path / "both", {TMLR_SEED: SEEDS / TMLR_SEED, "002_older.txt": OLDER_DIGEST}))
    # Built together, the older paper (Aug 01) gets the plain key.
    assert together["openreview:OlderPaper1"] == "maron2025oneshot"
    assert together["openreview:ENdm5BM7aF"] == "maron2025oneshota"
    (tmp_path / "rev").mkdir()
    config = _project(tmp_path / "rev", {TMLR_SEED: SEEDS / TMLR_SEED})
    assert _keys(config)["openreview:ENdm5BM7aF"] == "maron2025oneshot"
    _add(tmp_path / "rev", "002_older.txt", OLDER_DIGEST)
    assert _keys(config)["openreview:ENdm5BM7aF"] == "maron2025oneshot"


# --- a property: keys are unique and never change as papers arrive in batches --------------

_names = st.sampled_from(["Cedric Maron", "Ana Pérez", "ORZALESI", "Jan van Dijk", "Nils Grünefeld"])
_titles = st.sampled_from(["One-Shot Learning", "One Shot", "Vista", "The Vista", "Graphs"])
_papers = st.lists(st.tuples(_names, _titles, st.sampled_from([2024, 2025, None])), min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(batches=st.lists(_papers, min_size=1, max_size=4))
def test_keys_unique_and_stable_in_batches(batches: list[list[tuple[str, str, int | None]]]) -> None:
    registry = Registry()
    seen: dict[str, str] = {}
    everyone: list[Paper] = []
    n = 0
    for batch in batches:
        for name, title, year in batch:
            n += 1
            everyone.append(paper(f"id{n}", title, (name,), dt.date(year, 5, 1) if year else None))
        keys = registry.assign(list(reversed(everyone)), {}, Problems())
        assert len({k.lower() for k, _ in keys.values()}) == len(everyone)
        assert len({s for _, s in keys.values()}) == len(everyone)
        for pid, key in seen.items():
            assert keys[pid][0] == key
        seen = {pid: k for pid, (k, _) in keys.items()}
