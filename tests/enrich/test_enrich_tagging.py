"""The tagging child numbers the last blocks of the word model's texts first; the model is the same."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from generator.build import build
from generator.config import Config
from generator.enrich import related, tagging
from generator.model import Library


def _same_model(a: related.TextModel, b: related.TextModel) -> None:
    for x, y in ((a.text, b.text), (a.words, b.words), (a.words_t, b.words_t)):
        assert x.shape == y.shape and x.dtype == y.dtype
        assert (x.indptr == y.indptr).all() and (x.indices == y.indices).all() and (x.data == y.data).all()
    assert [a.terms[c] for c in range(a.text.shape[1])] == [b.terms[c] for c in range(b.text.shape[1])]


def test_blocks_numbered_elsewhere_make_the_same_word_model(project: Callable[..., Config]) -> None:
    papers = build(project(), write=False).library.papers
    assert len(papers) == 41
    whole = related.text_model(papers)
    made = dict(related.text_blocks(papers, [14, 21, 28, 35], 7))
    assert sorted(made) == [14, 21, 28, 35]
    taken: list[int] = []

    def ahead(start: int) -> related.Block | None:
        taken.append(start)
        return made.get(start)

    _same_model(related.text_model(papers, ahead=ahead, block=7), whole)
    assert taken == [0, 7, 14, 21, 28, 35]  # asked for every block, used where made
    _same_model(related.text_model(papers, block=7), whole)


def _library(config: Config) -> Library:
    return build(config, write=False).library


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, bool]]]:
    """Blocks of 7 texts, forking from 2 papers on; yields (start, made by the child) per block taken."""
    from generator import enrich

    monkeypatch.setattr(tagging, "BLOCK", 7)
    monkeypatch.setattr(enrich, "PARALLEL_MIN", 2)
    monkeypatch.setenv("READINGLIST_JOBS", "2")
    taken: list[tuple[int, bool]] = []
    real = tagging.TagsBeside.block

    def spy(self: tagging.TagsBeside, start: int) -> related.Block | None:
        block = real(self, start)
        taken.append((start, block is not None))
        return block

    monkeypatch.setattr(tagging.TagsBeside, "block", spy)
    yield taken


def test_the_tagging_child_numbers_the_last_blocks_and_the_build_is_the_same(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch,
        small_blocks: list[tuple[int, bool]]) -> None:
    config = project()
    forked = _library(config)
    # 41 papers: blocks at 0, 7, ..., 35; the child numbers the last three (`SHARE`, three fifths
    # of six, rounded down).
    assert small_blocks == [(0, False), (7, False), (14, False), (21, True), (28, True), (35, True)]
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    serial = _library(config)
    assert forked == serial
    assert [p.tags for p in forked.papers] == [p.tags for p in serial.papers]
    assert [p.related for p in forked.papers][:5] == [p.related for p in serial.papers][:5]


def test_a_tagging_child_that_dies_leaves_its_blocks_and_tags_to_this_process(
        project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch,
        small_blocks: list[tuple[int, bool]]) -> None:
    config = project()
    real = tagging._made

    def dies(*args: Any) -> Iterator[tuple[str, Any]]:
        made = real(*args)
        yield next(made)  # the first of its blocks, then nothing: killed, out of memory
        os._exit(1)

    monkeypatch.setattr(tagging, "_made", dies)
    forked = _library(config)
    assert small_blocks == [(0, False), (7, False), (14, False), (21, True), (28, False), (35, False)]
    monkeypatch.setenv("READINGLIST_JOBS", "1")
    assert forked == _library(config)
