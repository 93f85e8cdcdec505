"""Paper pages rendered by several processes are the same files as a serial render."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.enrich import bibtex
from generator.render import parallel, render_site


def test_forked_render_gives_the_serial_files_in_the_same_order(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = project()
    library = build(config, write=False).library
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = render_site(library, config)
    bibtex._BLOCKS.clear()
    written: list[str] = []
    write = bibtex._write_named
    monkeypatch.setattr(bibtex, "_write_named", lambda key, *parts: written.append(key) or write(key, *parts))
    monkeypatch.setenv("READINGLIST_JOBS", "3")
    forked = render_site(library, config)
    assert list(forked) == list(serial) and forked == serial
    # No entry was made ahead: this process made each one once, in paper order, while the workers
    # rendered (the workers' own are not seen here), and then the .bib files from them.
    assert written == [p.key for p in library.papers]
    assert "@article{maron2025oneshot," in forked["references.bib"]


def test_a_worker_takes_the_entries_this_process_made_for_its_run(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.forked import Records
    from generator.render import render_paper_files

    config = project()
    library = build(config, write=False).library
    papers = library.papers
    expected = {p.id: bibtex.block(p) for p in papers}
    shared = Records()
    shared.append([(i, expected[p.id]) for i, p in enumerate(papers[:10])])
    shared.append([(i, expected[papers[i].id]) for i in range(10, 20)])
    bibtex._BLOCKS.clear()
    written: list[str] = []
    write = bibtex._write_named
    monkeypatch.setattr(bibtex, "_write_named", lambda key, *parts: written.append(key) or write(key, *parts))
    monkeypatch.setattr(parallel, "_JOB", {"papers": papers, "prewrite": None, "shared": shared,
                                           "render_one": lambda p: render_paper_files(p, library, config)})
    files, wrote = parallel._render_run(5, 15)
    assert written == [] and wrote is None and len(files) == 10
    assert all(expected[p.id].strip() in text for p, text in zip(papers[5:15], files.values(), strict=True))
    # A run whose entries are not there yet makes them itself.
    parallel._render_run(20, 22)
    assert written == [papers[20].key, papers[21].key]
    shared.close()


def test_small_lists_render_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READINGLIST_JOBS", raising=False)
    assert parallel.jobs_for(41) == 1
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    assert parallel.jobs_for(41) == 2


def test_workers_write_the_pages_they_render_and_the_tree_is_the_serial_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from generator.config import load_config
    from generator.prewrite import Prewrite, TreeFiles
    from generator.render.links import paper_md
    from tests.conftest import copy_project

    (tmp_path / "serial").mkdir()
    (tmp_path / "forked").mkdir()
    serial_config = load_config(copy_project(tmp_path / "serial"))
    forked_config = load_config(copy_project(tmp_path / "forked"))
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = build(serial_config)
    writers = tmp_path / "writers.txt"
    write = Prewrite.write

    def spy(self: Prewrite, files: dict[str, str]) -> tuple[list[str], list[str], int]:
        with writers.open("a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} {len(files)}\n")
        return write(self, files)

    monkeypatch.setattr(Prewrite, "write", spy)
    monkeypatch.setenv("READINGLIST_JOBS", "3")
    forked = build(forked_config)
    runs = [line.split() for line in writers.read_text(encoding="utf-8").splitlines()]
    assert sum(int(n) for _, n in runs) == len(forked.library.papers) == 41
    assert forked.stats is not None and serial.stats is not None
    assert forked.stats.written == serial.stats.written
    assert set(forked.stats.written) >= {paper_md(p) for p in forked.library.papers}

    def tree(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
                if p.is_file() and ".readinglist-cache" not in p.parts}

    assert tree(forked_config.build_dir) == tree(serial_config.build_dir)
    # The pages' texts stayed in the workers: the build's own process has their names and reads a
    # page back from the folder when asked for it.
    assert isinstance(forked.files, TreeFiles) and isinstance(serial.files, dict)
    pages = {paper_md(p) for p in forked.library.papers}
    assert not pages & forked.files.in_memory()
    # The listings, made by a worker while the others render papers, were written by it as well
    # (the .bib files too when every entry was made ahead, generator/early.py, which depends on
    # how busy the machine is); what is made after the workers (the assets) is written by write_tree.
    assert {"index.md", "papers.json", "map.md", "digests/index.md"} <= set(forked.files) - forked.files.in_memory()
    assert "assets/readinglist.css" in forked.files.in_memory()
    assert set(forked.files) == set(serial.files)
    assert all(forked.files[rel] == serial.files[rel] for rel in serial.files)
    # A second build finds every page as it should be: nothing written, all unchanged.
    (forked_config.build_dir / "papers" / paper_md(forked.library.papers[0]).split("/")[-1]).write_text("x")
    again = build(forked_config)
    assert again.stats is not None
    assert again.stats.written == [paper_md(forked.library.papers[0])]
    assert again.stats.unchanged == len(forked.stats.written) - 1


def test_runs_cover_every_paper_once_and_end_short() -> None:
    for count, jobs in ((10_000, 2), (2_000, 2), (2_001, 4), (41, 3), (51, 2)):
        runs = parallel._runs(count, jobs)
        assert [i for a, b in runs for i in range(a, b)] == list(range(count))
        sizes = [b - a for a, b in runs]
        assert sizes == sorted(sizes, reverse=True) or count < 100
    sizes = [b - a for a, b in parallel._runs(10_000, 2)]
    assert max(sizes) <= 630 and sizes[-2] == 50



def test_the_listings_worker_writes_each_group_before_the_next_is_made(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker that makes the listings writes each group of files (papers.json, the tag pages,
    each digest's pages, the .bib files, ...) before it makes the next, so it never holds the
    text of all of them; what it writes is what a serial render makes."""
    from generator.build import _protected
    from generator.prewrite import Prewrite
    from generator.render.links import paper_md

    config = project()
    library = build(config, write=False).library
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = render_site(library, config)
    # The site's listings task, as render_site hands it to the workers.
    tasks: list[Callable[[], object]] = []
    monkeypatch.setattr("generator.render.render_papers",
                        lambda *args, **kwargs: tasks.append(kwargs["meanwhile"]) or ({}, {}))
    render_site(library, config)
    events: list[tuple[str, list[str]]] = []

    def groups() -> object:
        for group in tasks[0]():  # type: ignore[attr-defined]
            events.append(("made", sorted(group)))
            yield group

    prewrite = Prewrite(config.build_dir, _protected(config), [paper_md(p) for p in library.papers])
    write_others = prewrite.write_others
    monkeypatch.setattr(prewrite, "write_others",
                        lambda group: events.append(("written", sorted(group))) or write_others(group))
    monkeypatch.setattr(parallel, "_JOB", {"meanwhile": groups, "prewrite": prewrite})
    kept, wrote = parallel._meanwhile()
    assert kept == {} and wrote is not None
    made = [names for kind, names in events if kind == "made"]
    assert len(made) > 5 and ["papers.json"] in made and ["references.bib"] in made
    assert events == [(kind, names) for names in made for kind in ("made", "written")]
    files = {rel: (config.build_dir / rel).read_text(encoding="utf-8") for rel in wrote[0]}
    assert files == {rel: serial[rel] for rel in wrote[0]}
    assert set(files) == {rel for rel in serial if not rel.startswith(("papers/", "assets/"))}


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".readinglist-cache" not in p.parts}


def _two_projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Config, Config]:
    """Two copies of the seed project: the first built serially, the second not built yet."""
    from generator.config import load_config
    from tests.conftest import copy_project

    (tmp_path / "serial").mkdir()
    (tmp_path / "forked").mkdir()
    serial, forked = load_config(copy_project(tmp_path / "serial")), load_config(copy_project(tmp_path / "forked"))
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    build(serial)
    return serial, forked


def test_this_process_and_the_workers_take_the_runs_in_turn(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Runs of three papers: each is rendered and written once, by whichever process was free,
    this one included (it renders too once its own part is done: the workers are slowed down
    here, so it must); a worker makes the listings."""
    import time

    serial_config, forked_config = _two_projects(tmp_path, monkeypatch)
    log = tmp_path / "runs.txt"
    main, render_run, listings = os.getpid(), parallel._render_run, parallel._meanwhile

    def spy_run(start: int, end: int) -> object:
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} run {start} {end}\n")
        if os.getpid() != main:
            time.sleep(0.3)
        return render_run(start, end)

    def spy_listings() -> object:
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} listings\n")
        return listings()

    monkeypatch.setattr(parallel, "_runs", lambda count, jobs: [(a, min(a + 3, count)) for a in range(0, count, 3)])
    monkeypatch.setattr(parallel, "_render_run", spy_run)
    monkeypatch.setattr(parallel, "_meanwhile", spy_listings)
    monkeypatch.setenv("READINGLIST_JOBS", "3")
    forked = build(forked_config)
    lines = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    runs = sorted((int(a), int(b)) for _, kind, a, b in (line for line in lines if line[1] == "run"))
    assert runs == [(a, min(a + 3, 41)) for a in range(0, 41, 3)]
    makers = [int(line[0]) for line in lines if line[1] == "listings"]
    assert len(makers) == 1 and makers[0] != main
    # This process and two workers: as many processes as jobs, this one among them.
    renderers = {int(line[0]) for line in lines if line[1] == "run"}
    assert main in renderers and len(renderers | set(makers)) <= 3
    assert len(forked.library.papers) == 41
    assert _tree(forked_config.build_dir) == _tree(serial_config.build_dir)


def test_the_runs_of_a_worker_that_died_are_rendered_by_this_process(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    serial_config, forked_config = _two_projects(tmp_path, monkeypatch)
    main, render_run = os.getpid(), parallel._render_run

    def dies(start: int, end: int) -> object:
        if os.getpid() != main:
            os._exit(1)  # a worker killed as it takes a run (out of memory, say)
        return render_run(start, end)

    monkeypatch.setattr(parallel, "_runs", lambda count, jobs: [(a, min(a + 5, count)) for a in range(0, count, 5)])
    monkeypatch.setattr(parallel, "_render_run", dies)
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    forked = build(forked_config)
    assert len(forked.library.papers) == 41
    assert _tree(forked_config.build_dir) == _tree(serial_config.build_dir)


def test_the_listings_worker_writes_papers_json_a_piece_at_a_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """papers.json is 30 MB at 10,000 papers: written as it is made, never one string."""
    import json

    from generator import write
    from generator.render import exports

    serial_config, forked_config = _two_projects(tmp_path, monkeypatch)
    log = tmp_path / "pieces.txt"
    atomic_write = write.atomic_write

    def spy(path: Path, data: object, **kwargs: object) -> None:
        if path.name == "papers.json":
            pieces = [data] if isinstance(data, bytes) else list(data)  # type: ignore[call-overload]
            with log.open("a", encoding="utf-8") as fh:
                fh.write(f"{len(pieces)}\n")
            data = pieces
        atomic_write(path, data, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(write, "atomic_write", spy)
    monkeypatch.setattr(exports, "PIECE", 10)
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    build(forked_config)
    assert log.read_text(encoding="utf-8").split() == ["6"]  # 41 papers: five pieces and the end
    text = (forked_config.build_dir / "papers.json").read_text(encoding="utf-8")
    assert text == (serial_config.build_dir / "papers.json").read_text(encoding="utf-8")
    assert len(json.loads(text)) == 41
