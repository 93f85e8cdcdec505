"""The forked child that tags the papers while the build's process gives keys and makes the word
model of related papers (enrich/__init__.py).

The word model takes the build's process longer than the tags take the child (at 10,000 papers,
0.65-0.8 s against 0.55-0.7 s, after 0.15 s of keys), so the child first numbers the words of the
last blocks of the model's texts (`related.text_blocks`, what `text_model` would do with them
first) and hands each over as it goes (`forked.Streamed`); the build's process takes them as its
word numbering reaches them (`block`), having numbered the first blocks itself. The numbering is
the same wherever it is made, so the model is the same (tested). Then the child tags the papers
and hands over that result (`result`). A block the child never made (it died) is made here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ..forked import Streamed
from ..model import Paper
from .related import Block, Settings, text_blocks
from .related.wordids import BLOCK
from .topics import TagChanges, Taxonomy

if TYPE_CHECKING:
    from . import Tagged

# The share of the word model's blocks the child numbers (the last ones): at 10,000 papers six
# blocks of ten, and both processes are then done within 0.08 s of each other (with eight, since
# the word model makes only the texts it numbers, the build's process waited 0.09-0.16 s for the
# child; with seven 0.06-0.15 s; measured).
SHARE = 3 / 5


class TagsBeside:
    """`size`: the texts per block of the word model (`text_model(..., block=size)`)."""

    def __init__(self, papers: list[Paper], taxonomy: Taxonomy, tag_changes: TagChanges | None,
                 settings: Settings, size: int | None = None) -> None:
        self.size = size or BLOCK
        starts = list(range(0, len(papers), self.size))
        theirs = starts[len(starts) - int(len(starts) * SHARE):] if len(starts) > 1 else []
        self._args = (papers, taxonomy, tag_changes, settings)
        self._coming = set(theirs)
        self._blocks: dict[int, Block] = {}
        self._tagged: Tagged | None = None
        self._stream: Streamed[tuple[str, Any]] = Streamed(True, _made, papers, taxonomy, tag_changes, settings,
                                                           theirs, self.size)

    def block(self, start: int) -> Block | None:
        """The numbering of the block of word-model texts at `start`, once the child has made it;
        None for a block it does not make (or never will: it died)."""
        while start in self._coming and start not in self._blocks:
            done = self._stream.finished()  # (asked first: nothing it wrote before is missed below)
            self._take(self._stream.ready())
            if done:
                self._coming.clear()
            elif start not in self._blocks:
                time.sleep(0.001)
        self._coming.discard(start)
        return self._blocks.pop(start, None)

    def result(self) -> Tagged:
        """The child's tags and tag model (made here if it died)."""
        if self._tagged is None:
            self._take(self._stream.rest())
        if self._tagged is None:
            from . import _tags

            return _tags(*self._args)
        return self._tagged

    def _take(self, items: list[tuple[str, Any]]) -> None:
        for kind, value in items:
            if kind == "words":
                start, block = value
                self._blocks[start] = block
            else:
                self._tagged = value

    def __enter__(self) -> TagsBeside:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stream.close()


def _made(papers: list[Paper], taxonomy: Taxonomy, tag_changes: TagChanges | None, settings: Settings,
          starts: list[int], size: int) -> Iterator[tuple[str, Any]]:
    """In the child: each block's numbering, then the tags."""
    from . import _tags

    for start, block in text_blocks(papers, starts, size):
        yield "words", (start, block)
    yield "tags", _tags(papers, taxonomy, tag_changes, settings)
