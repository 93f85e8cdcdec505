"""Parts of stages computed in a forked child (forked.py) give what one process gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator import forked
from generator.errors import Problems
from generator.sources import read_all

ROOT = Path(__file__).resolve().parent.parent
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")


def _square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def _fail(message: str) -> None:
    raise ValueError(message)


def _die() -> None:
    os._exit(3)


@needs_fork
def test_the_child_computes_beside_the_parent_and_hands_back_its_value() -> None:
    with forked.Beside(True, _square_and_pid, 7) as job:
        value, pid = job.result()
    assert value == 49 and pid != os.getpid()
    with forked.Beside(False, _square_and_pid, 7) as job:
        assert job.result() == (49, os.getpid())  # not forked: computed here, on result()


@needs_fork
def test_an_error_in_the_child_is_raised_in_the_parent() -> None:
    with forked.Beside(True, _fail, "bad digest") as job, pytest.raises(ValueError, match="bad digest"):
        job.result()


@needs_fork
def test_a_child_that_dies_has_its_part_done_by_the_parent(capsys: pytest.CaptureFixture[str]) -> None:
    with forked.Beside(True, _die) as job:
        # _die run again here would end the test process: a dead child is seen as EOF, so give
        # the parent a harmless part to redo.
        job._fn, job._args = _square_and_pid, (3,)
        assert job.result() == (9, os.getpid())


def test_jobs_setting_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    assert not forked.worth_forking(10**9, 1)
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    assert forked.worth_forking(1, 10**9) == hasattr(os, "fork")
    monkeypatch.delenv("READINGLIST_JOBS")
    assert not forked.worth_forking(5, 10)


@needs_fork
def test_reading_in_two_processes_gives_the_papers_and_messages_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    one = Problems()
    serial = read_all(ROOT / "seeds", ROOT, one)
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    two = Problems()
    parallel = read_all(ROOT / "seeds", ROOT, two)
    assert len(serial) >= 2 and sum(len(r.papers) for r in serial) == 41
    assert parallel == serial
    assert one.items and [str(p) for p in two] == [str(p) for p in one]


@needs_fork
def test_tags_and_related_papers_from_two_processes_are_those_of_one(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    from generator.enrich import enrich
    from generator.enrich.registry import Registry
    from generator.enrich.related import Settings, related_papers
    from generator.enrich.topics import load_taxonomy

    problems = Problems()
    raws = read_all(ROOT / "seeds", ROOT, problems)
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", problems)
    libraries, links = [], []
    for jobs in ("1", "2"):
        monkeypatch.setenv("READINGLIST_JOBS", jobs)
        library = enrich(raws, Registry.load(tmp_path / "none.yml", problems), problems, taxonomy=taxonomy)
        libraries.append(library)
        # Chunks of 4 rows: the child scores the second half of them.
        links.append(related_papers(library.papers, Settings(count=3, min_score=0.0, chunk=4)))
    assert libraries[0] == libraries[1]
    assert all(p.tags for p in libraries[0].papers) and any(p.related for p in libraries[0].papers)
    assert links[0] == links[1]
    assert sum(len(v) for v in links[0].values()) == 3 * len(libraries[0].papers)
