"""The issue's proof, end to end: `readinglist add 2306.06130 10.1103/PhysRevB.85.115117
https://openreview.net/forum?id=...` against the local stand-in adds three papers with exact
metadata, and a later build, with no server anywhere, makes them again byte for byte."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from tests.fetch.replay import serving

FORUM = "https://openreview.net/forum?id=6oXNpKuBDK"


def readinglist(config: Config, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", "-f", str(config.root / "mkdocs.yml"), *args],
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "CI": "", **env}, timeout=120)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".gitignore"}


def test_add_three_identifiers_then_build_offline_byte_for_byte(project: Callable[..., Config],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    config = project(seeds=False)
    shutil.rmtree(config.notes_dir)
    with serving() as replay:
        proc = readinglist(config, "add", "2306.06130", "10.1103/PhysRevB.85.115117", FORUM, env=replay.env)
    today = dt.date.today().isoformat()
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert proc.stdout.splitlines() == [
        "2306.06130: 'Towards Understanding the Interplay of Generative Artificial Intelligence and the Internet' "
        f"(Gonzalo Martínez et al. 2023), new: seeds/{today}-arxiv-2306.06130.xml",
        "10.1103/PhysRevB.85.115117: 'Quantum criticality for extended nodes on a Bethe lattice in the large "
        f"connectivity limit' (James M. Murray et al. 2012), new: seeds/{today}-doi-10.1103-PhysRevB.85.115117.json",
        f"{FORUM}: 'Generative Feature Training of Thin 2-Layer Networks' (Johannes Hertrich and Sebastian Neumayer "
        f"2025), new: seeds/{today}-openreview-6oXNpKuBDK.json",
    ]
    assert [(r.path, r.query) for r in replay.requests] == [
        ("/api/query", {"id_list": ["2306.06130"], "max_results": ["1"]}),
        ("/doi/10.1103/PhysRevB.85.115117", {}),
        ("/openreview/notes", {"id": ["6oXNpKuBDK"]}),
    ]
    assert sorted(p.name for p in config.seeds_dir.iterdir()) == [
        f"{today}-arxiv-2306.06130.xml", f"{today}-doi-10.1103-PhysRevB.85.115117.json",
        f"{today}-openreview-6oXNpKuBDK.json"]

    # The server is gone; the build makes no request (any connection attempt fails the test).
    def no_network(*args: object) -> None:
        raise AssertionError(f"the build tried to connect: {args}")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    result = build(config)
    assert [str(p) for p in result.problems] == []
    papers = {p["key"]: p for p in json.loads((config.build_dir / "papers.json").read_text(encoding="utf-8"))}
    got = {key: (p["title"], p["authors"], p["year"], p["venue_line"], p["arxiv"], p["doi"], p["openreview"], p["url"])
           for key, p in papers.items()}
    assert got == {
        "martinez2023understanding": (
            "Towards Understanding the Interplay of Generative Artificial Intelligence and the Internet",
            ["Gonzalo Martínez", "Lauren Watson", "Pedro Reviriego", "José Alberto Hernández", "Marc Juarez",
             "Rik Sarkar"], 2023, "cs.AI · preprint", "2306.06130", None, None, "https://arxiv.org/abs/2306.06130"),
        "murray2012quantum": (
            "Quantum criticality for extended nodes on a Bethe lattice in the large connectivity limit",
            ["James M. Murray", "Adrian Del Maestro", "Zlatko Tešanović"], 2012,
            "Physical Review B 85, 115117 (2012) · published", None, "10.1103/PhysRevB.85.115117", None,
            "https://doi.org/10.1103/PhysRevB.85.115117"),
        "hertrich2025generative": (
            "Generative Feature Training of Thin 2-Layer Networks", ["Johannes Hertrich", "Sebastian Neumayer"],
            2025, "TMLR · accepted · Aug 2025", None, None, "6oXNpKuBDK", "https://openreview.net/forum?id=6oXNpKuBDK"),
    }
    references = {i["id"]: i for i in json.loads((config.build_dir / "references.json").read_text(encoding="utf-8"))}
    murray = references["murray2012quantum"]
    assert murray["author"] == [{"family": "Murray", "given": "James M."},
                                {"family": "Del Maestro", "given": "Adrian"},
                                {"family": "Tešanović", "given": "Zlatko"}]
    assert {k: murray[k] for k in ("type", "container-title", "volume", "issue", "page", "issued", "DOI")} == {
        "type": "article-journal", "container-title": "Physical Review B", "volume": "85", "issue": "11",
        "page": "115117", "issued": {"date-parts": [[2012, 3]]}, "DOI": "10.1103/PhysRevB.85.115117"}
    assert references["hertrich2025generative"]["container-title"] == "Transactions on Machine Learning Research"

    # Every later build makes the same files, byte for byte, from seeds/ alone.
    first = snapshot(config.build_dir)
    shutil.rmtree(config.build_dir)
    config.build_dir.mkdir()
    proc = readinglist(config, "build", env={"READINGLIST_ARXIV_API": "http://127.0.0.1:9/none"})
    assert proc.returncode == 0, proc.stderr
    again = snapshot(config.build_dir)
    assert again.keys() == first.keys()
    assert [name for name in first if first[name] != again[name]] == []
    assert sorted(name for name in again if name.startswith("papers/")) == sorted(
        f"{p['page']}index.md" for p in papers.values())


def test_files_and_identifiers_in_one_add(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    bib = config.root / "mine.bib"
    bib.write_text("@article{lecun2015deep,\n  title = {Deep learning},\n  author = {LeCun, Yann and Bengio, Yoshua "
                   "and Hinton, Geoffrey},\n  journal = {Nature},\n  year = {2015}\n}\n")
    with serving() as replay:
        proc = readinglist(config, "add", str(bib), "2306.99999", "1412.6529", env=replay.env)
    today = dt.date.today().isoformat()
    assert proc.returncode == 1
    assert proc.stderr == "2306.99999: error: no such arXiv id (arXiv's API answered twice without it)\n"
    assert proc.stdout.splitlines() == [
        "1412.6529: 'Particle partition entanglement of bosonic Luttinger liquids' (C. M. Herdman and A. Del Maestro "
        f"2014), new: seeds/{today}-arxiv-1412.6529.xml; published version (Physical Review B 91, 184507 "
        f"(2015)): seeds/{today}-doi-10.1103-PhysRevB.91.184507.json",
        f"seeds/{today}-mine.bib: 1 paper (1 new, 0 already in the list)",
    ]
