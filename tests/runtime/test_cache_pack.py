"""The no-change memo's packed library (cache_pack.py) comes back as the library it was made from."""

from __future__ import annotations

import datetime as dt
import os
import pickle
from collections.abc import Callable

import pytest

from generator.build import build
from generator.config import Config
from generator.model import Digest, Library, Paper, Related, SourceRef, evolve
from generator.runtime import memo as cache
from generator.runtime import memo_pack as cache_pack


def _library() -> Library:
    a = Paper("title:a", "A", ("Ann",), "Abs.", SourceRef("seeds/d.txt", 3), date=dt.date(2025, 1, 6),
              sources=(SourceRef("seeds/d.txt", 3), SourceRef("seeds/e.txt", 9)), tags=("T",),
              related=(Related("title:b", 0.5, "why"),), bib_names=("Ann",), year_override=2020)
    b = evolve(a, id="title:b", related=(), sources=(), date=None, url="https://x.org")
    return Library(papers=[a, b], digests=[Digest("seeds/d.txt", "listing", "D", None, "", ("title:a",), "d")],
                   topics=(("T", "About"),))


def test_unpack_makes_equal_records_with_their_fields_in_order() -> None:
    lib = _library()
    assert cache_pack.packable(lib)
    back = cache_pack.unpack(pickle.loads(pickle.dumps(cache_pack.pack(lib))))
    assert back == lib
    for old, new in zip(lib.papers, back.papers, strict=True):
        assert hash(new) == hash(old)
        assert all(type(r) is Related for r in new.related) and type(new.origin) is SourceRef


def test_what_pack_would_lose_is_not_packed() -> None:
    lib = _library()
    with pytest.raises(AttributeError):  # a paper holds its fields and nothing else (slots)
        object.__setattr__(lib.papers[0], "extra", 1)
    lib.papers[1] = evolve(lib.papers[1], related=("title:a",))  # type: ignore[arg-type]
    assert not cache_pack.packable(lib)


def test_the_stored_library_is_the_built_one_packed_or_not(project: Callable[..., Config]) -> None:
    config = project()
    first = build(config, keep_library=True)
    again = build(config)
    assert again is not first and again.library == first.library
    # A library pack cannot keep is stored as it is, and read back the same.
    lib = first.library
    lib.papers[0] = evolve(lib.papers[0], related=("not a link",))  # type: ignore[arg-type]
    assert not cache_pack.packable(lib)
    token = cache.write_library(config, lib)
    path = cache._partial(cache._memo_path(config).with_name(cache.LIBRARY))
    assert path.is_file()
    stored = cache.Stored(None, {}, "", path, token)
    assert stored.library().papers[0].related == ("not a link",)
    # A library file that is not the one the memo names is never read.
    with pytest.raises(RuntimeError, match="does not belong"):
        cache.Stored(None, {}, "", path, "another build's token").library()


def test_a_library_pickled_while_the_workers_render_is_the_one_stored(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> None:
    config = project()
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    from generator.render import parallel

    made: list[tuple[int, bool]] = []
    write_library = cache.write_library

    def spy(config: Config, library: Library) -> str:
        made.append((os.getpid(), bool(parallel._JOB)))  # _JOB is set while the workers run
        return write_library(config, library)

    monkeypatch.setattr(cache, "write_library", spy)
    assert build(config).stats is not None and made == []  # stored only when asked for
    cache.forget(config)
    first = build(config, keep_library=True)
    assert made == [(os.getpid(), True)]  # once, in this process, while the workers rendered
    assert not list((config.root / cache.CACHE_DIR).rglob("*.tmp"))  # put into place at the end
    again = build(config)
    assert again.stats is not None and again.stats.written == []
    assert again.library == first.library
