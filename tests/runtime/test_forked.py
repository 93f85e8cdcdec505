"""Parts of stages computed in a forked child (forked.py) give what one process gives."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator import forked
from generator.errors import Problems
from generator.sources import read_all

ROOT = Path(__file__).resolve().parents[2]
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


def _count_then_maybe_die(n: int, die_after: int | None, marker: str | None) -> Iterator[tuple[int, int, str]]:
    for i in range(n):
        if i == die_after:
            os._exit(3)
        # Large items (a quarter of a megabyte each): more than a pipe holds.
        yield i, os.getpid(), "x" * 250_000
    if marker:
        raise ValueError(marker)


@needs_fork
def test_streamed_items_come_in_order_from_the_child_and_ready_never_waits() -> None:
    with forked.Streamed(True, _count_then_maybe_die, 20, None, None) as job:
        early = job.ready()  # whatever has come so far, maybe nothing
        items = early + job.rest()
    assert [i for i, _, _ in items] == list(range(20))
    assert {pid for _, pid, _ in items} != {os.getpid()} and all(len(x) == 250_000 for *_, x in items)
    with forked.Streamed(False, _count_then_maybe_die, 3, None, None) as job:
        assert job.ready() == []
        assert [(i, pid) for i, pid, _ in job.rest()] == [(0, os.getpid()), (1, os.getpid()), (2, os.getpid())]


@needs_fork
def test_children_that_are_done_are_joined_when_the_build_reaps_them_not_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.process

    forked.reap()  # what the tests before left
    joined: list[int] = []
    join = multiprocessing.process.BaseProcess.join
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "join",
                        lambda self, timeout=None: joined.append(self.pid) or join(self, timeout))
    with forked.Beside(True, sum, [1, 2, 3]) as job:
        assert job.result() == 6
    with forked.Streamed(True, _count_then_maybe_die, 3, None, None) as stream:
        assert [i for i, _, _ in stream.rest()] == [0, 1, 2]  # everything, once the child wrote it
    assert joined == [] and len(forked._ENDING) == 2
    ending = list(forked._ENDING)
    forked.reap()
    assert sorted(joined) == sorted(p.pid for p in ending) and forked._ENDING == []
    assert not any(p.is_alive() for p in ending)


def test_records_are_read_whole_by_each_process_from_where_it_was() -> None:
    records = forked.Records()
    records.append(["a", 1])
    assert records.new() == [["a", 1]] and records.new() == []
    records.append({"b": 2})
    records.append(None)
    assert records.new() == [{"b": 2}, None]
    # A record whose bytes are not all there yet is left for later.
    os.write(records.fileno(), (100).to_bytes(8, "little") + b"x" * 10)
    assert records.new() == []
    records.close()
    assert records.new() == []


@needs_fork
def test_streamed_error_is_raised_in_the_parent_and_a_dead_child_leaves_what_it_sent() -> None:
    with forked.Streamed(True, _count_then_maybe_die, 2, None, "bad digest") as job, \
            pytest.raises(ValueError, match="bad digest"):
        job.rest()
    with forked.Streamed(True, _count_then_maybe_die, 5, 3, None) as job:
        assert [i for i, _, _ in job.rest()] == [0, 1, 2]


@needs_fork
def test_reading_from_both_ends_meets_whatever_the_speeds_and_redoes_a_dead_childs_files(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.sources as gs

    monkeypatch.setenv("READINGLIST_JOBS", "1")
    one = Problems()
    serial = read_all(ROOT / "seeds", ROOT, one)
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    paths = gs.digest_files(ROOT / "seeds")
    # This process busy for a while first: the child reads most digests, from the last back.
    ran: list[int] = []
    two = Problems()
    assert read_all(ROOT / "seeds", ROOT, two, meanwhile=lambda: ran.append(os.getpid())) == serial
    assert ran == [os.getpid()] and [str(p) for p in two] == [str(p) for p in one]
    # A child that dies after sending its first digest, while this process sleeps: it took the
    # other one too, and never sent it, so it is read here.
    real, read_one = gs._read_claimed, gs._read_one
    here, read_here = os.getpid(), []

    def dying(paths: list[Path], root: Path, claims: gs.Claims, from_back: bool) -> Iterator[gs.Read]:
        for n, read in enumerate(real(paths, root, claims, from_back)):
            if from_back and n == 1:
                os._exit(3)
            yield read

    def counted(paths: list[Path], root: Path, index: int) -> gs.Read:
        if os.getpid() == here:
            read_here.append(index)
        return read_one(paths, root, index)

    monkeypatch.setattr(gs, "_read_claimed", dying)
    monkeypatch.setattr(gs, "_read_one", counted)
    three = Problems()
    assert read_all(ROOT / "seeds", ROOT, three, meanwhile=lambda: __import__("time").sleep(0.5)) == serial
    assert [str(p) for p in three] == [str(p) for p in one]
    assert len(paths) == 2 and read_here == [0]


def test_claims_hand_out_each_index_once_from_both_ends() -> None:
    from generator.sources import Claims

    for shared in (True, False):  # not shared: no lock, no shared memory (a build in one process)
        claims = Claims(5, shared=shared)
        got = [claims.take(False), claims.take(True), claims.take(True), claims.take(False), claims.take(True),
               claims.take(False), claims.take(True)]
        assert got == [0, 4, 3, 1, 2, None, None] and claims.taken() == 5
